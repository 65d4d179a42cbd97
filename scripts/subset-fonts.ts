// Part of `npm run build`: the shop's two typefaces cut down to the characters a Russian shop writes —
// Basic Latin, the accented letters of European brand names (Chloé, Hermès, Alaïa), « » and the few
// Latin-1 signs the texts use, the Russian alphabet, dashes, quotes, №, ₽, arrows —
// from Fontsource's per-script files into public/fonts/, one file per script so a page fetches only
// what it shows. src/lib/fonts.ts lists them, the browser adds them after the first paint
// (fonts.client.ts), and public/fonts/faces.css, written here from that list, declares them for pages
// seen without JavaScript. Written only when missing or older than this script.
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import subsetFont from 'subset-font';
import { fontFacesCss } from '../src/lib/fonts.ts';

const OUT = 'public/fonts';
const range = (from: number, to: number) => String.fromCodePoint(...Array.from({ length: to - from + 1 }, (_, k) => from + k));
// Not the whole of Latin-1: its other letters (Ø, Þ, ß…) and signs (¤, ¶…) cost 6 KB across the two Latin
// files every page preloads, and a character missing here is drawn in the fallback face.
const LATIN_1 = '\u00a0«»©°·×' + 'àáâäçèéêëìíîïñòóôöùúûüÿ' + 'ÀÁÂÄÇÈÉÊËÌÍÎÏÑÒÓÔÖÙÚÛÜ';
const LATIN = range(0x20, 0x7e) + LATIN_1 + range(0x2010, 0x2027) + range(0x2030, 0x203a) + '\u2122\u2191\u2193\u2212';
const CYRILLIC = range(0x0400, 0x045f) + '\u2116';
const ROUBLE = '\u20bd';

const manrope = (script: string) => `node_modules/@fontsource-variable/manrope/files/manrope-${script}-wght-normal.woff2`;
const cormorant = (script: string) => `node_modules/@fontsource/cormorant-garamond/files/cormorant-garamond-${script}-500-normal.woff2`;

const FACES: [string, string, string][] = [
  ['manrope-latin.woff2', manrope('latin'), LATIN],
  ['manrope-cyrillic.woff2', manrope('cyrillic'), CYRILLIC],
  ['manrope-rouble.woff2', manrope('latin-ext'), ROUBLE],
  ['cormorant-500-latin.woff2', cormorant('latin'), LATIN],
  ['cormorant-500-cyrillic.woff2', cormorant('cyrillic'), CYRILLIC],
];

const self = statSync(fileURLToPath(import.meta.url)).mtimeMs;
mkdirSync(OUT, { recursive: true });
let written = 0;
let bytes = 0;
for (const [name, source, text] of FACES) {
  const target = `${OUT}/${name}`;
  if (existsSync(target) && statSync(target).mtimeMs > self) continue;
  // Variable axes stay: Manrope's weight axis serves every weight from one file.
  const subset = await subsetFont(readFileSync(source), text, { targetFormat: 'woff2' });
  writeFileSync(target, subset);
  written++;
  bytes += subset.byteLength;
}
writeFileSync(`${OUT}/faces.css`, fontFacesCss());
if (written) console.log(`[fonts] ${written} subsets written, ${(bytes / 1024).toFixed(1)} KB`);
