// Adds the shop's web fonts (fonts.ts) once the page has painted in their metric-matched fallbacks and its
// first-screen islands have hydrated (first-paint.ts), or at once for a shopper whose browser has fetched
// them before (the files are cached for a week), so that a returning shopper does not see the faces change
// under their eyes on every page.
import { afterFirstScreen } from './first-paint.ts';
import { FONT_FACES, fontUrl } from './fonts.ts';

const SEEN = 'fonts-seen';

function addFaces(): void {
  for (const face of FONT_FACES)
    document.fonts.add(
      new FontFace(face.family, `url(${fontUrl(face)}) format('${face.format}')`, { weight: face.weight, unicodeRange: face.unicodeRange, display: 'swap' }),
    );
  document.fonts.addEventListener(
    'loadingdone',
    () => {
      try {
        localStorage.setItem(SEEN, '1');
      } catch {
        // Storage refused (private mode, full): the next page waits for its paint again.
      }
    },
    { once: true },
  );
}

export function bootFonts(): void {
  if (!('fonts' in document)) return;
  let seen = false;
  try {
    seen = localStorage.getItem(SEEN) === '1';
  } catch {
    // As for a first visit.
  }
  if (seen) addFaces();
  else afterFirstScreen(addFaces);
}
