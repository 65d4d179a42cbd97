import { getMegaCategories } from '~/features/catalog/catalog.server.ts';
import { PUBLIC_CONTENT } from '~/lib/http/cache.ts';
import { endpoint } from '~/lib/http/endpoint.ts';
import { ok } from '~/lib/http/envelope.ts';

export const GET = endpoint({
  async handler() {
    return ok(await getMegaCategories(), { headers: PUBLIC_CONTENT });
  },
});
