// /feeds/yandex.yml (issue 12): the product feed in Yandex Market Language, served from the gzip file
// discovery.server.ts keeps renewed (FEED_REFRESH_MINUTES).
import type { APIRoute } from 'astro';
import { feedFile, openFeed, siteOrigin, xmlAnswer } from '~/features/discovery/discovery.server.ts';

export const GET: APIRoute = async ({ request }) => {
  const file = await feedFile(siteOrigin());
  return xmlAnswer(request, openFeed(file.path), { 'last-modified': file.modified.toUTCString() }, true);
};
