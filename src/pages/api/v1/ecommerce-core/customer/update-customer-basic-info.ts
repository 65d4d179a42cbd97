// spec §7: POST customer/update-customer-basic-info (multipart) — an `id` in the body is ignored: the
// session says whose profile it is.
import { profileSchema } from '~/features/account/account.schema.ts';
import { updateProfile } from '~/features/account/account.server.ts';
import { userSchema } from '~/features/auth/auth.schema.ts';
import { requireCustomer } from '~/features/auth/auth.server.ts';
import { endpoint } from '~/lib/http/endpoint.ts';
import { ok } from '~/lib/http/envelope.ts';

export const POST = endpoint({
  summary: "spec §7: updates the signed-in customer's profile; answers the customer (422 with field errors)",
  response: userSchema,
  body: profileSchema,
  async handler({ body, request, t }) {
    const { customer } = await requireCustomer(request);
    return ok(await updateProfile(customer.id, body), { message: t('account.profile.saved') });
  },
});
