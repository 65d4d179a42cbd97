// The preamble every public catalogue page shares (DESIGN §9: params in, one feature call, 404 or
// redirect on a miss, markup out): an unknown id or a page number past the last shows /404, a wrong or
// missing slug answers 301 to the canonical address with the query kept, and what remains is the same
// for every visitor, so shared caches may keep it.
import type { AstroGlobal } from 'astro';
import { PUBLIC_PAGE } from './cache.ts';

interface Resolvable {
  url: string;
  slug: string;
  outOfRange?: boolean;
}

export function resolvePublicPage<T extends Resolvable>(astro: AstroGlobal, view: T | null, slug: string | undefined): T | Response {
  if (!view || view.outOfRange) return astro.redirect('/404', 302);
  if (slug !== view.slug) return astro.redirect(`${view.url}${astro.url.search}`, 301);
  astro.response.headers.set('cache-control', PUBLIC_PAGE['cache-control']);
  return view;
}
