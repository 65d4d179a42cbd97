import { getTopLeftMenu } from '~/features/content/content.server.ts';
import { PUBLIC_CONTENT } from '~/lib/http/cache.ts';
import { endpoint } from '~/lib/http/endpoint.ts';
import { ok } from '~/lib/http/envelope.ts';

export const GET = endpoint({
  async handler() {
    return ok({ header_top_left_menus: { menus: await getTopLeftMenu() } }, { headers: PUBLIC_CONTENT });
  },
});
