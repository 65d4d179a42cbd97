// Beyond the spec (docs/api.md): makes one of the customer's addresses the default.
import { z } from '~/lib/zod.ts';
import { setDefaultAddress } from '~/features/account/account.server.ts';
import { requireCustomer } from '~/features/auth/auth.server.ts';
import { idSchema } from '~/features/catalog/listing.ts';
import { endpoint } from '~/lib/http/endpoint.ts';
import { ok } from '~/lib/http/envelope.ts';

export const POST = endpoint({
  summary: 'Makes a saved address the default (404 when it is not one of yours)',
  response: z.object({ default_id: z.number().int() }),
  params: z.object({ id: idSchema }),
  async handler({ request, params }) {
    const { customer } = await requireCustomer(request);
    await setDefaultAddress(customer.id, params.id);
    return ok({ default_id: params.id });
  },
});
