// The pool of generated product images. Products point into the pool by kind, colour and view,
// so the catalogue can grow to 100k products without 100k image files.
import { COLORS, IMAGE_KINDS, type ImageKind } from './vocabulary.ts';

export const IMAGE_WIDTHS = [360, 720] as const;
export const IMAGE_SIZE = { width: 720, height: 960 } as const;
export const IMAGE_VIEWS = [1, 2] as const;
export const IMAGE_BASE_URL = '/img/p';

const METAL_KINDS: ReadonlySet<ImageKind> = new Set(['ring', 'earrings', 'bracelet', 'necklace', 'watch']);

export function isMetalKind(kind: ImageKind): boolean {
  return METAL_KINDS.has(kind);
}

/** Colours a kind is drawn in: metals for jewellery and watches, fabrics and leather otherwise. */
export function colorsFor(kind: ImageKind) {
  return COLORS.filter((c) => Boolean(c.metal) === isMetalKind(kind));
}

export function imageName(kind: ImageKind, colorSlug: string, view: number): string {
  return `${kind}-${colorSlug}-${view}`;
}

export function imageUrlTemplate(kind: ImageKind, colorSlug: string, view: number): string {
  return `${IMAGE_BASE_URL}/${imageName(kind, colorSlug, view)}-w{w}.webp`;
}

export function imageUrl(template: string, width: number): string {
  return template.replace('{w}', String(width));
}

export interface PoolImage {
  kind: ImageKind;
  color: (typeof COLORS)[number];
  view: number;
}

export function imagePool(): PoolImage[] {
  return IMAGE_KINDS.flatMap((kind) => colorsFor(kind).flatMap((color) => IMAGE_VIEWS.map((view) => ({ kind, color, view }))));
}
