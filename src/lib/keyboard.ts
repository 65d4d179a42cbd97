// The two keyboard layouts a Russian shopper types in: the key under each Russian letter is the US
// layout's character. A scanner typing a marking code under the Russian layout, or a shopper typing
// «ghflf» for «прада» with the Latin layout on, are read back through the same table.

// eslint-disable-next-line shop/no-cyrillic-literal -- the keyboard's letters, matched, never shown
const RU = 'ёйцукенгшщзхъфывапролджэячсмитьбю.ЁЙЦУКЕНГШЩЗХЪФЫВАПРОЛДЖЭЯЧСМИТЬБЮ,"№;:?';
const US = '`qwertyuiop[]asdfghjkl;\'zxcvbnm,./~QWERTYUIOP{}ASDFGHJKL:"ZXCVBNM<>?@#$^&';

/** The US layout's character on the key of each Russian-layout character. */
export const RU_TO_US: Readonly<Record<string, string>> = Object.fromEntries([...RU].map((c, i) => [c, US[i] as string]));
/** The Russian letter on the key of each US-layout letter and punctuation mark that sits on a letter key. */
const US_TO_RU: Readonly<Record<string, string>> = Object.fromEntries([...US].map((c, i) => [c, RU[i] as string]));

/**
 * The text as it would read had it been typed with the other layout on: Latin keys become the Russian
 * letters on them and Russian letters the Latin keys. Characters on no letter key stay as they are.
 */
export function otherLayout(text: string): string {
  const russian = /[а-яё]/i.test(text);
  const map = russian ? RU_TO_US : US_TO_RU;
  return [...text].map((c) => map[c] ?? c).join('');
}
