// Beyond the spec (docs/api.md): removes one of the customer's addresses; the oldest left becomes the default.
import { z } from '~/lib/zod.ts';
import { deleteAddress } from '~/features/account/account.server.ts';
import { requireCustomer } from '~/features/auth/auth.server.ts';
import { idSchema } from '~/features/catalog/listing.ts';
import { endpoint } from '~/lib/http/endpoint.ts';
import { ok } from '~/lib/http/envelope.ts';

export const POST = endpoint({
  summary: 'Deletes a saved address (404 when it is not one of yours)',
  response: z.object({ deleted: z.literal(true) }),
  params: z.object({ id: idSchema }),
  async handler({ request, params, t }) {
    const { customer } = await requireCustomer(request);
    await deleteAddress(customer.id, params.id);
    return ok({ deleted: true as const }, { message: t('account.address.deleted') });
  },
});
