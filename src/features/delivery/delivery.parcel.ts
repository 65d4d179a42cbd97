// Parcels (issue 38, docs/delivery.md "Parcels"): what a carrier prices and carries is a box of a weight and
// a size. Each product is one item of its own weight and size when the import brought them (YML <weight>
// and <dimensions>, 1C's "Вес" and "Габарит_*"), else its category's default from DELIVERY_PARCELS, else
// ITEM_PARCEL. An order's items are packed into one box: the weights add up, the box is as long and wide as
// its largest item and tall enough to hold the items' volume.
import { slugGlob } from '~/lib/slug.ts';
import type { Parcel } from './delivery.ts';

/** An item the shop knows nothing about: a pair of shoes in their box is about this. */
export const ITEM_PARCEL: Parcel = { weight: 1000, length: 30, width: 25, height: 10 };

/** The largest item and parcel the shop declares (CDEK's own limits for a parcel are of this order). */
export const MAX_WEIGHT_G = 100_000;
export const MAX_SIDE_CM = 300;

/**
 * Quoted weights are rounded up to this step: carriers price by the half-kilo or the kilo, and the tariffs
 * kept for 10 minutes are then shared by every cart of about that weight. Never under-declared.
 */
export const WEIGHT_STEP_G = 100;

/** One DELIVERY_PARCELS entry: `slug=grams:LxWxH`; `*` in the slug matches any run of letters. */
const ENTRY = /^([a-z0-9*_-]{1,100})=(\d{1,6}):(\d{1,3})x(\d{1,3})x(\d{1,3})$/;

export interface ParcelRule {
  pattern: RegExp;
  parcel: Parcel;
}

const sane = (p: Parcel): Parcel => ({
  weight: Math.min(MAX_WEIGHT_G, Math.max(1, Math.round(p.weight))),
  length: Math.min(MAX_SIDE_CM, Math.max(1, Math.ceil(p.length))),
  width: Math.min(MAX_SIDE_CM, Math.max(1, Math.ceil(p.width))),
  height: Math.min(MAX_SIDE_CM, Math.max(1, Math.ceil(p.height))),
});

/** DELIVERY_PARCELS as rules, in the order written (the first rule that names a category wins). */
export function parseParcelRules(text: string): ParcelRule[] {
  return text
    .split(/[,;]/)
    .map((entry) => entry.trim())
    .filter(Boolean)
    .flatMap((entry) => {
      const m = ENTRY.exec(entry);
      if (!m) return [];
      const [, slug = '', weight, length, width, height] = m;
      return [{ pattern: slugGlob(slug), parcel: sane({ weight: Number(weight), length: Number(length), width: Number(width), height: Number(height) }) }];
    });
}

/** The default parcel for a product whose category and its parents have these slugs, nearest first. */
export function categoryParcel(rules: readonly ParcelRule[], slugs: readonly string[]): Parcel {
  for (const slug of slugs) {
    const rule = rules.find((r) => r.pattern.test(slug));
    if (rule) return rule.parcel;
  }
  return ITEM_PARCEL;
}

/** What a product says of itself, any part of it missing. */
export interface OwnParcel {
  weight: number | null;
  length: number | null;
  width: number | null;
  height: number | null;
}

/** One item: the product's own weight, and its own size when it gives all three sides; the rest from the default. */
export function itemParcel(own: OwnParcel, fallback: Parcel): Parcel {
  const sized = own.length !== null && own.width !== null && own.height !== null;
  return sane({
    weight: own.weight ?? fallback.weight,
    length: sized ? (own.length ?? 0) : fallback.length,
    width: sized ? (own.width ?? 0) : fallback.width,
    height: sized ? (own.height ?? 0) : fallback.height,
  });
}

/**
 * One box for these items: their weights added up (rounded up to WEIGHT_STEP_G), as long and wide as the
 * largest item laid flat, and tall enough for the items' volume — never less than the tallest item.
 */
export function packParcel(items: readonly { parcel: Parcel; quantity: number }[]): Parcel {
  const all = items.filter((i) => i.quantity > 0);
  if (all.length === 0) return ITEM_PARCEL;
  let weight = 0;
  let length = 1;
  let width = 1;
  let tallest = 1;
  let volume = 0;
  for (const { parcel, quantity } of all) {
    // Laid flat: the longest side along the box, the shortest up.
    const [a = 1, b = 1, c = 1] = [parcel.length, parcel.width, parcel.height].sort((x, y) => y - x);
    weight += parcel.weight * quantity;
    length = Math.max(length, a);
    width = Math.max(width, b);
    tallest = Math.max(tallest, c);
    volume += a * b * c * quantity;
  }
  return sane({
    weight: Math.ceil(weight / WEIGHT_STEP_G) * WEIGHT_STEP_G,
    length,
    width,
    height: Math.max(tallest, Math.ceil(volume / (length * width))),
  });
}

/** A parcel as one short string: the tariffs' cache key, and what a sealed quote was priced for. */
export const parcelKey = (p: Parcel) => `${p.weight}:${p.length}x${p.width}x${p.height}`;
