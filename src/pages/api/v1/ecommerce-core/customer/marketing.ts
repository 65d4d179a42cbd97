// Beyond the spec (152-ФЗ, issue 54): the signed-in customer gives or withdraws consent to the shop's news
// and offers by e-mail (the newsletter); recorded with the policy's version.
import { marketingSchema } from '~/features/account/account.schema.ts';
import { setMarketing } from '~/features/account/account.privacy.server.ts';
import { requireCustomer } from '~/features/auth/auth.server.ts';
import { endpoint } from '~/lib/http/endpoint.ts';
import { ok } from '~/lib/http/envelope.ts';
import { z } from '~/lib/zod.ts';

export const POST = endpoint({
  summary: "Gives or withdraws the signed-in customer's consent to news and offers by e-mail",
  response: z.object({ subscribed: z.boolean() }),
  body: marketingSchema,
  async handler({ body, request, context, t }) {
    const { customer } = await requireCustomer(request);
    const subscribed = await setMarketing(customer.email, body.subscribed, 'dashboard', customer.id, context.clientAddress);
    return ok({ subscribed }, { message: t(subscribed ? 'account.privacy.marketingOn' : 'account.privacy.marketingOff') });
  },
});
