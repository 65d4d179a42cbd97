// /robots.txt (issue 12): what crawlers may visit, tracking parameters folded (Yandex's Clean-param), and
// where the sitemap is — from SITE_URL at run time.
import type { APIRoute } from 'astro';
import { robotsTxt } from '~/features/discovery/discovery.ts';
import { listingFilters } from '~/features/discovery/discovery.server.ts';
import { env } from '~/lib/env.ts';
import { CRAWLER_FILE } from '~/lib/http/cache.ts';

export const GET: APIRoute = () =>
  new Response(robotsTxt(env().SITE_URL, listingFilters()), { headers: { 'content-type': 'text/plain; charset=utf-8', ...CRAWLER_FILE } });
