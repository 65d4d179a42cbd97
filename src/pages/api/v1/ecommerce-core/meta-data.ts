import { getMetaData } from '~/features/content/content.server.ts';
import { metaDataQuery } from '~/features/content/content.ts';
import { PUBLIC_CONTENT } from '~/lib/http/cache.ts';
import { endpoint } from '~/lib/http/endpoint.ts';
import { ok } from '~/lib/http/envelope.ts';
import { metaDataSchema } from '~/lib/http/envelope.schema.ts';

export const GET = endpoint({
  summary: "spec §7: a page type's title and description",
  response: metaDataSchema,
  query: metaDataQuery,
  async handler({ query }) {
    const meta = await getMetaData(query.type);
    return ok(meta, { meta_data: meta, headers: PUBLIC_CONTENT });
  },
});
