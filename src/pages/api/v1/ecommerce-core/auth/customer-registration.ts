// spec §7: POST auth/customer-registration — e-mail, phone, password; the new customer is logged in
// (spec §4), so the answer is login's. Field errors under `errors`.
import { authAnswerSchema, registerSchema } from '~/features/auth/auth.schema.ts';
import { authAnswer, issueSession, registerCustomer, sessionCookie } from '~/features/auth/auth.server.ts';
import { noteConsent } from '~/features/account/account.privacy.server.ts';
import { endpoint } from '~/lib/http/endpoint.ts';
import { fail, ok } from '~/lib/http/envelope.ts';

export const POST = endpoint({
  summary: 'spec §7: registers a customer and logs them in (201); 422 with field errors (address taken, breached password)',
  failures: [429],
  response: authAnswerSchema,
  statuses: [201],
  body: registerSchema,
  async handler({ body, context, t, locale }) {
    // A filled honeypot: the bot is told nothing useful and nothing is stored.
    if (body.website) return fail(422, t('error.validation'), { errors: { email: [t('validation.email')] } });
    const customer = await registerCustomer(body, context.clientAddress, locale);
    // The form says registering is consenting to the personal data policy (152-ФЗ): recorded with its version.
    await noteConsent({ purpose: 'personal_data', source: 'registration', given: true, customerId: customer.id, email: customer.email });
    const issued = await issueSession(customer.id);
    return ok(await authAnswer(customer, issued), {
      status: 201,
      message: t('auth.registered'),
      headers: { 'set-cookie': sessionCookie(context.url, issued) },
    });
  },
});
