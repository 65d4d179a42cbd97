// Russian letters as a Russian shopper writes a foreign brand in Latin letters and back: «гучи» is looked
// for as "guchi" (and corrected to Gucci by similarity), «прада» as "prada". Not a standard's table: the
// one that brings Russian spellings of fashion names closest to their own.

// eslint-disable-next-line shop/no-cyrillic-literal -- the alphabet, matched, never shown
const FROM = 'абвгдеёжзийклмнопрстуфхцчшщъыьэюя';
const TO = [
  'a',
  'b',
  'v',
  'g',
  'd',
  'e',
  'e',
  'zh',
  'z',
  'i',
  'y',
  'k',
  'l',
  'm',
  'n',
  'o',
  'p',
  'r',
  's',
  't',
  'u',
  'f',
  'h',
  'c',
  'ch',
  'sh',
  'sch',
  '',
  'y',
  '',
  'e',
  'yu',
  'ya',
];
const LATIN: Readonly<Record<string, string>> = Object.fromEntries([...FROM].map((c, i) => [c, TO[i] as string]));

/** The word in Latin letters, or null when it has no Russian letter to change. */
export function toLatin(word: string): string | null {
  const lower = word.toLowerCase();
  if (![...lower].some((c) => c in LATIN)) return null;
  return [...lower].map((c) => LATIN[c] ?? c).join('');
}
