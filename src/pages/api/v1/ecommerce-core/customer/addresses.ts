// Beyond the spec (docs/api.md): the signed-in customer's saved delivery addresses (dashboard-address).
import { z } from '~/lib/zod.ts';
import { addressSchema, savedAddressSchema } from '~/features/account/account.schema.ts';
import { listAddresses, MAX_ADDRESSES, saveAddress } from '~/features/account/account.server.ts';
import { requireCustomer } from '~/features/auth/auth.server.ts';
import { endpoint } from '~/lib/http/endpoint.ts';
import { fail, ok } from '~/lib/http/envelope.ts';

export const GET = endpoint({
  summary: 'Saved delivery addresses, the default first',
  response: z.array(savedAddressSchema),
  async handler({ request }) {
    const { customer } = await requireCustomer(request);
    return ok(await listAddresses(customer.id));
  },
});

export const POST = endpoint({
  summary: `Saves a new address (201; the first one, or one marked is_default, becomes the default; 409 past ${MAX_ADDRESSES})`,
  failures: [404, 409],
  response: savedAddressSchema,
  statuses: [201],
  body: addressSchema,
  async handler({ request, body, t }) {
    const { customer } = await requireCustomer(request);
    const saved = await saveAddress(customer.id, body);
    if (saved === 'limit') return fail(409, t('account.address.limit', { max: MAX_ADDRESSES }));
    return ok(saved, { status: 201, message: t('account.address.saved') });
  },
});
