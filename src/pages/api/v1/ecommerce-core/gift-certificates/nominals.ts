// Beyond the spec (docs/api.md, issue 56): the gift certificates' nominal values on sale, in kopecks.
import { giftNominals } from '~/features/checkout/checkout.gifts.server.ts';
import { endpoint } from '~/lib/http/endpoint.ts';
import { ok } from '~/lib/http/envelope.ts';
import { z } from '~/lib/zod.ts';

export const GET = endpoint({
  summary: "The gift certificates' nominal values on sale (kopecks, ascending), as the console keeps them",
  response: z.object({ nominals: z.array(z.number().int()) }),
  async handler() {
    return ok({ nominals: await giftNominals() });
  },
});
