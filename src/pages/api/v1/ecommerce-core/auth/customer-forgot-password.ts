// spec §7: POST auth/customer-forgot-password — the same answer whether or not the address has an account.
import { z } from '~/lib/zod.ts';
import { forgotSchema } from '~/features/auth/auth.schema.ts';
import { requestPasswordReset } from '~/features/auth/auth.server.ts';
import { endpoint } from '~/lib/http/endpoint.ts';
import { ok } from '~/lib/http/envelope.ts';

export const POST = endpoint({
  summary: 'spec §7: mails a reset link when the address has an account; answers alike either way (429 when throttled)',
  failures: [429],
  response: z.object({ sent: z.literal(true) }),
  body: forgotSchema,
  async handler({ body, context, t }) {
    if (!body.website) await requestPasswordReset(body.email, context.clientAddress);
    return ok({ sent: true as const }, { message: t('auth.resetLinkSent') });
  },
});
