// The shop's web fonts (files cut at build by scripts/subset-fonts.ts): one file per script and face, so a
// page fetches only what it shows. They are not declared in the stylesheet: a first visit paints in the
// metric-matched fallbacks of global.css and fonts.client.ts adds these faces after the first paint, so
// that their ~60 KB never share a phone's first round trips with what the first screen needs
// (docs/decisions/016). Without JavaScript, /fonts/faces.css (written from this list) declares them.

export interface FontFaceFile {
  family: 'Manrope Variable' | 'Cormorant Garamond';
  /** In /fonts/. */
  file: string;
  weight: string;
  unicodeRange: string;
  format: 'woff2' | 'woff2-variations';
}

const LATIN = 'U+0020-007E, U+00A0-00FF, U+2010-2027, U+2030-203A, U+2122, U+2191, U+2193, U+2212';
const CYRILLIC = 'U+0400-045F, U+2116';

/** Manrope is variable: one file serves every weight. The display face is used at 500 only. */
export const FONT_FACES: readonly FontFaceFile[] = [
  { family: 'Manrope Variable', file: 'manrope-latin.woff2', weight: '200 800', unicodeRange: LATIN, format: 'woff2-variations' },
  { family: 'Manrope Variable', file: 'manrope-cyrillic.woff2', weight: '200 800', unicodeRange: CYRILLIC, format: 'woff2-variations' },
  { family: 'Manrope Variable', file: 'manrope-rouble.woff2', weight: '200 800', unicodeRange: 'U+20BD', format: 'woff2-variations' },
  { family: 'Cormorant Garamond', file: 'cormorant-500-latin.woff2', weight: '500', unicodeRange: LATIN, format: 'woff2' },
  { family: 'Cormorant Garamond', file: 'cormorant-500-cyrillic.woff2', weight: '500', unicodeRange: CYRILLIC, format: 'woff2' },
];

export const fontUrl = (face: FontFaceFile) => `/fonts/${face.file}`;

/** The same faces as CSS, for /fonts/faces.css (pages without JavaScript link it in <noscript>). */
export function fontFacesCss(): string {
  return FONT_FACES.map(
    (face) =>
      `@font-face{font-family:'${face.family}';font-style:normal;font-display:swap;font-weight:${face.weight};` +
      `src:url('${fontUrl(face)}') format('${face.format}');unicode-range:${face.unicodeRange}}\n`,
  ).join('');
}
