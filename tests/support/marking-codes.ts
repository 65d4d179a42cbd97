// Marking codes as tests make and type them (issue 39): barcodes with a true check digit, and what a
// scanner set to the Russian keyboard layout types for a code.

/** An EAN-13 with its GS1 check digit. */
export function ean13(twelve: string): string {
  const sum = [...twelve].reduce((s, d, i) => s + Number(d) * (i % 2 === 0 ? 1 : 3), 0);
  return `${twelve}${(10 - (sum % 10)) % 10}`;
}

/** What a scanner under the Russian layout types for text typed on US keys (key by key). */
export function typedInRussian(text: string): string {
  const us = '`qwertyuiop[]asdfghjkl;\'zxcvbnm,./~QWERTYUIOP{}ASDFGHJKL:"ZXCVBNM<>?@#$^&';
  const ru = 'ёйцукенгшщзхъфывапролджэячсмитьбю.ЁЙЦУКЕНГШЩЗХЪФЫВАПРОЛДЖЭЯЧСМИТЬБЮ,"№;:?';
  return [...text].map((c) => (us.includes(c) ? ru[us.indexOf(c)] : c)).join('');
}
