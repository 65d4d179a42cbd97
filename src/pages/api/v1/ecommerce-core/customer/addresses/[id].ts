// Beyond the spec (docs/api.md): edits one of the customer's addresses; another customer's is not found.
import { z } from '~/lib/zod.ts';
import { addressSchema, savedAddressSchema } from '~/features/account/account.schema.ts';
import { saveAddress } from '~/features/account/account.server.ts';
import { requireCustomer } from '~/features/auth/auth.server.ts';
import { idSchema } from '~/features/catalog/listing.ts';
import { endpoint } from '~/lib/http/endpoint.ts';
import { ok } from '~/lib/http/envelope.ts';
import { notFound } from '~/lib/http/errors.ts';

export const POST = endpoint({
  summary: 'Edits a saved address (404 when it is not one of yours)',
  response: savedAddressSchema,
  params: z.object({ id: idSchema }),
  body: addressSchema,
  async handler({ request, params, body, t }) {
    const { customer } = await requireCustomer(request);
    const saved = await saveAddress(customer.id, body, params.id);
    // Editing never meets the bound on how many addresses there are.
    if (saved === 'limit') throw notFound();
    return ok(saved, { message: t('account.address.saved') });
  },
});
