// spec §7: POST auth/customer-login — e-mail and password; the token, the user and the dashboard summary.
import { loginSchema, authAnswerSchema } from '~/features/auth/auth.schema.ts';
import { authAnswer, issueSession, login, sessionCookie } from '~/features/auth/auth.server.ts';
import { cartItemSchema } from '~/features/cart/cart.schema.ts';
import { mergeGuestItems } from '~/features/cart/cart.server.ts';
import { endpoint } from '~/lib/http/endpoint.ts';
import { fail, ok } from '~/lib/http/envelope.ts';

export const POST = endpoint({
  summary: 'spec §7: logs a customer in (401 with one message for an unknown e-mail or a wrong password; 429 when throttled)',
  failures: [401, 429],
  response: authAnswerSchema,
  body: loginSchema,
  async handler({ body, context, t }) {
    const customer = await login(body.email, body.password, context.clientAddress);
    if (!customer) return fail(401, t('auth.invalidCredentials'));
    // spec §4: the guest's lines join the server cart, checked and within their limits; ones that do
    // not parse are left out rather than failing the login.
    const items = (body.cart_items ?? []).flatMap((raw) => {
      const item = cartItemSchema.safeParse(raw);
      return item.success ? [item.data] : [];
    });
    await mergeGuestItems(customer.id, items);
    const issued = await issueSession(customer.id);
    return ok(await authAnswer(customer, issued), { headers: { 'set-cookie': sessionCookie(context.url, issued) } });
  },
});
