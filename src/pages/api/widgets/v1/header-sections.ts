import { getHeaderTags } from '~/features/content/content.server.ts';
import { PUBLIC_CONTENT } from '~/lib/http/cache.ts';
import { endpoint } from '~/lib/http/endpoint.ts';
import { ok } from '~/lib/http/envelope.ts';
import { headerSectionsSchema } from '~/features/content/content.schema.ts';

// spec §7: the tags sit at data[0].properties.tags.
export const GET = endpoint({
  summary: "spec §7: the header's tag links at data[0].properties.tags",
  response: headerSectionsSchema,
  async handler() {
    return ok([{ id: 1, type: 'tags', properties: { tags: await getHeaderTags() } }], { headers: PUBLIC_CONTENT });
  },
});
