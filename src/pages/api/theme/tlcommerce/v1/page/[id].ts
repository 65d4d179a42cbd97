import { infoPageCrumbs, infoPageMeta, getInfoPage } from '~/features/content/content.server.ts';
import { pageIdParams } from '~/features/content/content.ts';
import { PUBLIC_CONTENT } from '~/lib/http/cache.ts';
import { endpoint } from '~/lib/http/endpoint.ts';
import { ok } from '~/lib/http/envelope.ts';
import { notFound } from '~/lib/http/errors.ts';
import { infoPageSchema } from '~/features/content/content.schema.ts';

export const GET = endpoint({
  summary: 'spec §7: an info page by id, with meta_data and breadcrumbs',
  failures: [404],
  response: infoPageSchema,
  params: pageIdParams,
  invalidParams: { status: 404, message: 'error.pageNotFound' },
  async handler({ params, locale }) {
    const page = await getInfoPage(params.id);
    if (!page) throw notFound('error.pageNotFound');
    return ok(page, { meta_data: infoPageMeta(page), breadcrumbs: infoPageCrumbs(locale, page), headers: PUBLIC_CONTENT });
  },
});
