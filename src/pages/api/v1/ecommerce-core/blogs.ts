import { blogCrumbs, getMetaData, listBlogPosts } from '~/features/content/content.server.ts';
import { blogListQuery } from '~/features/content/content.ts';
import { PUBLIC_CONTENT } from '~/lib/http/cache.ts';
import { endpoint } from '~/lib/http/endpoint.ts';
import { ok } from '~/lib/http/envelope.ts';
import { blogListSchema } from '~/features/content/content.schema.ts';

export const GET = endpoint({
  summary: 'The blog, newest first, a page at a time',
  response: blogListSchema,
  query: blogListQuery,
  async handler({ query, locale }) {
    const [list, meta] = await Promise.all([listBlogPosts(query.page), getMetaData('blog')]);
    return ok(list, { meta_data: meta, breadcrumbs: blogCrumbs(locale), headers: PUBLIC_CONTENT });
  },
});
