// spec §7: GET customer/customer-basic-info — the signed-in customer's name, surname, patronymic, e-mail, phone, id.
import { userSchema } from '~/features/auth/auth.schema.ts';
import { requireCustomer, toUser } from '~/features/auth/auth.server.ts';
import { endpoint } from '~/lib/http/endpoint.ts';
import { ok } from '~/lib/http/envelope.ts';

export const GET = endpoint({
  summary: "spec §7: the signed-in customer's basic info (401 without a session)",
  response: userSchema,
  async handler({ request }) {
    const { customer } = await requireCustomer(request);
    return ok(toUser(customer));
  },
});
