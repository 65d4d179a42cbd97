// Beyond the spec (152-ФЗ, issue 54): everything the shop holds about the signed-in customer — profile,
// addresses, orders, balance and points history, wishlist, cart, buyout requests, reviews, newsletter,
// partner programme, consents. The dashboard offers the same as a file (/dashboard/personal-data).
import { personalDataSchema } from '~/features/account/account.schema.ts';
import { customerData } from '~/features/account/account.privacy.server.ts';
import { requireCustomer } from '~/features/auth/auth.server.ts';
import { endpoint } from '~/lib/http/endpoint.ts';
import { ok } from '~/lib/http/envelope.ts';

export const GET = endpoint({
  summary: "The signed-in customer's personal data, all of it, as the shop holds it (152-FZ)",
  response: personalDataSchema,
  async handler({ request }) {
    const { customer } = await requireCustomer(request);
    return ok(await customerData(customer.id), { headers: { 'cache-control': 'private, no-store' } });
  },
});
