import { getMegaCategories } from '~/features/catalog/catalog.server.ts';
import { PUBLIC_CONTENT } from '~/lib/http/cache.ts';
import { endpoint } from '~/lib/http/endpoint.ts';
import { ok } from '~/lib/http/envelope.ts';
import { z } from '~/lib/zod.ts';
import { megaCategorySchema } from '~/features/catalog/catalog.schema.ts';

export const GET = endpoint({
  summary: 'spec §7: the category tree, children under childs.data',
  response: z.array(megaCategorySchema),
  async handler() {
    return ok(await getMegaCategories(), { headers: PUBLIC_CONTENT });
  },
});
