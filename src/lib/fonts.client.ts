// Adds the shop's web fonts (fonts.ts) once the page has painted in their metric-matched fallbacks and its
// first-screen islands have hydrated (first-paint.ts), or at once for a shopper whose browser has fetched
// them before (the files are cached for a week), so that a returning shopper does not see the faces change
// under their eyes on every page.
import { afterFirstScreen } from './first-paint.ts';
import { FONT_FACES, fontUrl } from './fonts.ts';

const SEEN = 'fonts-seen';

function markSeen(): void {
  try {
    localStorage.setItem(SEEN, '1');
  } catch {
    // Storage refused (private mode, full): the next page waits for its paint again.
  }
}

function faces(): FontFace[] {
  return FONT_FACES.map(
    (face) =>
      new FontFace(face.family, `url(${fontUrl(face)}) format('${face.format}')`, { weight: face.weight, unicodeRange: face.unicodeRange, display: 'swap' }),
  );
}

/**
 * A first visit: the faces are fetched together and added at once, one new layout of the page. Added one by
 * one as each arrived, every face laid the whole page out again: five layouts of 24–100 ms on the throttled
 * phone, each a long task (docs/performance.md "React paid back").
 */
function loadFaces(): void {
  const all = faces();
  void Promise.allSettled(all.map((face) => face.load())).then(() => {
    for (const face of all) if (face.status === 'loaded') document.fonts.add(face);
    markSeen();
  });
}

/** A returning shopper's browser has the files: added at once, they apply before the first paint. */
function addFaces(): void {
  for (const face of faces()) document.fonts.add(face);
  document.fonts.addEventListener('loadingdone', markSeen, { once: true });
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
  else afterFirstScreen(loadFaces);
}
