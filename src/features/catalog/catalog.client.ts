// The category tree for the header's catalogue panel, read from the mega-categories call when the
// shopper shows intent (hover, focus, touch, open) instead of being embedded in every page: pages stay
// smaller and cheaper to render, and prerendered pages show today's catalogue without a rebuild.
import { api } from '~/lib/api.client.ts';
import type { MegaCategory } from './catalog.ts';

export const MEGA_CATEGORIES_PATH = '/api/v1/ecommerce-core/mega-categories';

let pending: Promise<MegaCategory[]> | undefined;

/** One request per page view; a failure is forgotten so the next intent tries again. */
export function loadMegaCategories(): Promise<MegaCategory[]> {
  pending ??= api<MegaCategory[]>(MEGA_CATEGORIES_PATH).catch((error: unknown) => {
    pending = undefined;
    throw error;
  });
  return pending;
}
