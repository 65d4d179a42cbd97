import { blogPostCrumbs, blogPostMeta, getBlogPost } from '~/features/content/content.server.ts';
import { pageIdParams } from '~/features/content/content.ts';
import { PUBLIC_CONTENT } from '~/lib/http/cache.ts';
import { endpoint } from '~/lib/http/endpoint.ts';
import { ok } from '~/lib/http/envelope.ts';
import { notFound } from '~/lib/http/errors.ts';
import { blogPostSchema } from '~/features/content/content.schema.ts';

export const GET = endpoint({
  summary: 'A blog post by id',
  failures: [404],
  response: blogPostSchema,
  params: pageIdParams,
  async handler({ params, locale }) {
    const post = await getBlogPost(params.id);
    if (!post) throw notFound();
    return ok(post, { meta_data: blogPostMeta(post), breadcrumbs: blogPostCrumbs(locale, post), headers: PUBLIC_CONTENT });
  },
});
