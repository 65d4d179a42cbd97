// /sitemaps/pages.xml and /sitemaps/products-{n}.xml (issue 12): streamed from the database; a file that
// does not exist is the shop's 404.
import type { APIRoute } from 'astro';
import { parseSitemapFile } from '~/features/discovery/discovery.ts';
import { pagesSitemap, productsSitemap, siteOrigin, xmlAnswer } from '~/features/discovery/discovery.server.ts';

export const GET: APIRoute = async ({ params, request, rewrite }) => {
  const file = parseSitemapFile(params.name);
  const source = file?.kind === 'pages' ? pagesSitemap(siteOrigin()) : file ? await productsSitemap(siteOrigin(), file.part) : null;
  return source ? xmlAnswer(request, source) : rewrite('/404');
};
