// /sitemap.xml (issue 12): the sitemap index, read from the database on every request.
import type { APIRoute } from 'astro';
import { siteOrigin, sitemapIndex, xmlAnswer } from '~/features/discovery/discovery.server.ts';

export const GET: APIRoute = ({ request }) => xmlAnswer(request, sitemapIndex(siteOrigin()));
