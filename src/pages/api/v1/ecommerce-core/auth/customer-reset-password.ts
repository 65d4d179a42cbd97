// spec §7: POST auth/customer-reset-password — the e-mailed token and the new password twice. The link
// works once; every session of the customer ends.
import { z } from '~/lib/zod.ts';
import { resetSchema } from '~/features/auth/auth.schema.ts';
import { resetPassword } from '~/features/auth/auth.server.ts';
import { endpoint } from '~/lib/http/endpoint.ts';
import { ok } from '~/lib/http/envelope.ts';

export const POST = endpoint({
  summary: 'spec §7: sets a new password from a reset link (422 when the link is spent, expired or unknown)',
  failures: [429],
  response: z.object({ reset: z.literal(true) }),
  body: resetSchema,
  async handler({ body, context, t }) {
    await resetPassword(body.token, body.password, context.clientAddress);
    return ok({ reset: true as const }, { message: t('auth.resetDone') });
  },
});
