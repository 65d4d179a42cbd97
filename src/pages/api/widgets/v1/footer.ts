import { getFooter } from '~/features/content/content.server.ts';
import { PUBLIC_CONTENT } from '~/lib/http/cache.ts';
import { endpoint } from '~/lib/http/endpoint.ts';
import { ok } from '~/lib/http/envelope.ts';
import { footerSchema } from '~/features/content/content.schema.ts';

export const GET = endpoint({
  summary: "spec §7: the footer's menus and copyright",
  response: footerSchema,
  async handler() {
    return ok(await getFooter(), { headers: PUBLIC_CONTENT });
  },
});
