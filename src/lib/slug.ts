// Latin slugs for Russian names: URLs stay readable and ASCII (e.g. 'Платье миди' → 'plate-midi').
const MAP: Record<string, string> = {
  а: 'a',
  б: 'b',
  в: 'v',
  г: 'g',
  д: 'd',
  е: 'e',
  ё: 'e',
  ж: 'zh',
  з: 'z',
  и: 'i',
  й: 'y',
  к: 'k',
  л: 'l',
  м: 'm',
  н: 'n',
  о: 'o',
  п: 'p',
  р: 'r',
  с: 's',
  т: 't',
  у: 'u',
  ф: 'f',
  х: 'h',
  ц: 'ts',
  ч: 'ch',
  ш: 'sh',
  щ: 'shch',
  ъ: '',
  ы: 'y',
  ь: '',
  э: 'e',
  ю: 'yu',
  я: 'ya',
};

export function slugify(text: string): string {
  // Cyrillic first: NFKD would split й and ё into a base letter and a mark and lose them.
  const latin = [...text.toLowerCase()]
    .map((ch) => MAP[ch] ?? ch)
    .join('')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();
  return latin
    .replace(/&/g, ' and ')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80);
}

/**
 * A slug pattern as the shop's settings write it (`*-obuv`: `*` for any letters) as a RegExp matching a whole
 * slug. Only slug characters and `*` are expected: the settings' own patterns allow nothing else.
 */
export function slugGlob(pattern: string): RegExp {
  return new RegExp(`^${pattern.replace(/-/g, '\\-').replace(/\*/g, '.*')}$`);
}
