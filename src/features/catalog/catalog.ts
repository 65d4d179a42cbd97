// Catalogue shapes shared by pages, the API and islands (types from catalog.schema.ts, erased at build).
import type { categories } from '~/lib/db/schema.ts';
import type { MegaCategory, ProductImage } from './catalog.schema.ts';
import { ID_PATTERN, MAX_ID } from './ids.ts';

export { ID_PATTERN, MAX_ID };

export type { MegaCategory, ProductCard, ProductImage } from './catalog.schema.ts';

/** A category row as the schema types it (what the tree and the read model are built from). */
export type CategoryRecord = Pick<typeof categories.$inferSelect, 'id' | 'parentId' | 'name' | 'slug' | 'icon' | 'level' | 'sort'>;

export function categoryUrl(id: number, slug: string): string {
  return `/c/${id}/${slug}`;
}

export function categoryIconUrl(icon: string | null): string | null {
  return icon ? `/icons/categories/${icon}.svg` : null;
}

/** Builds the tree from flat rows; children follow their sort order, orphans are dropped. */
export function buildCategoryTree(rows: readonly CategoryRecord[]): MegaCategory[] {
  const nodes = new Map<number, MegaCategory>();
  const sorted = [...rows].sort((a, b) => a.level - b.level || a.sort - b.sort || a.id - b.id);
  for (const r of sorted) {
    nodes.set(r.id, {
      id: r.id,
      name: r.name,
      slug: r.slug,
      url: categoryUrl(r.id, r.slug),
      icon: categoryIconUrl(r.icon),
      level: r.level,
      parent_id: r.parentId,
      childs: { data: [] },
    });
  }
  const roots: MegaCategory[] = [];
  for (const r of sorted) {
    const node = nodes.get(r.id) as MegaCategory;
    if (r.parentId === null) roots.push(node);
    else nodes.get(r.parentId)?.childs.data.push(node);
  }
  return roots;
}

export function productUrl(id: number, slug: string): string {
  return `/p/${id}/${slug}`;
}

export function brandUrl(id: number, slug: string): string {
  return `/m/${id}/${slug}`;
}

/** The search page of a text (spec §4). */
export function searchUrl(text: string): string {
  return `/product/search/${encodeURIComponent(text.trim())}`;
}

/** Levels per channel of the placeholder colours the stylesheet has (uno.config.ts): 5³ = 125 classes. */
export const PLACEHOLDER_LEVELS = 5;

/**
 * The class that paints a photo's placeholder colour (its average, stored when it was imported) until the
 * photo arrives. The policy allows no style attribute, so the colour is rounded to one of the sheet's
 * classes: `ph-RGB`, each digit a level 0–4.
 */
export function placeholderClass(hex: string | null | undefined): string | null {
  const match = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex ?? '');
  if (!match) return null;
  const level = (channel: string) => Math.round((parseInt(channel, 16) / 255) * (PLACEHOLDER_LEVELS - 1));
  return `ph-${level(match[1] as string)}${level(match[2] as string)}${level(match[3] as string)}`;
}

export function imageFromTemplate(
  template: string,
  widths: readonly number[],
  width: number,
  height: number,
  alt: string,
  color: string | null = null,
): ProductImage {
  const largest = Math.max(...widths);
  return {
    src: template.replace('{w}', String(largest)),
    srcset: widths.map((w) => `${template.replace('{w}', String(w))} ${w}w`).join(', '),
    width,
    height,
    alt,
    placeholder: placeholderClass(color),
  };
}

const LETTER_SIZES = ['XXS', 'XS', 'S', 'M', 'L', 'XL', 'XXL', 'XXXL'];

/** Sizes in the order shoppers read them: letters XXS…XXXL, then numbers (16,5 as 16.5), then the rest. */
export function compareSizes(a: string, b: string): number {
  const rank = (s: string): [number, number, string] => {
    const letter = LETTER_SIZES.indexOf(s.toUpperCase());
    if (letter >= 0) return [0, letter, s];
    const n = Number(s.replace(',', '.'));
    return Number.isFinite(n) ? [1, n, s] : [2, 0, s];
  };
  const [ga, na, sa] = rank(a);
  const [gb, nb, sb] = rank(b);
  return ga - gb || na - nb || sa.localeCompare(sb, 'ru');
}

/** A positive id as written in a path: digits only, no leading zero, within int4. */
export function parsePathId(raw: string | undefined): number | null {
  if (!raw || !ID_PATTERN.test(raw)) return null;
  const id = Number(raw);
  return id <= MAX_ID ? id : null;
}
