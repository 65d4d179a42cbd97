import { getTopLeftMenu } from '~/features/content/content.server.ts';
import { PUBLIC_CONTENT } from '~/lib/http/cache.ts';
import { endpoint } from '~/lib/http/endpoint.ts';
import { ok } from '~/lib/http/envelope.ts';
import { topMenusSchema } from '~/features/content/content.schema.ts';

export const GET = endpoint({
  summary: "spec §7: the header's top-left menu",
  response: topMenusSchema,
  async handler() {
    return ok({ header_top_left_menus: { menus: await getTopLeftMenu() } }, { headers: PUBLIC_CONTENT });
  },
});
