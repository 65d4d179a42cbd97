// spec §7: GET customer/customer-email-reset-link — mails a reset link to the signed-in customer's own
// address. A GET by the spec's word; it needs the Bearer header, so no other site can set it off.
import { z } from '~/lib/zod.ts';
import { requireCustomer, sendOwnResetLink } from '~/features/auth/auth.server.ts';
import { endpoint } from '~/lib/http/endpoint.ts';
import { ok } from '~/lib/http/envelope.ts';

export const GET = endpoint({
  summary: "spec §7: mails a password reset link to the customer's own address (401 without a session)",
  // Three links an hour per customer (sendOwnResetLink), as forgot-password allows per address.
  failures: [429],
  response: z.object({ sent: z.literal(true) }),
  async handler({ request, t }) {
    const { customer } = await requireCustomer(request);
    await sendOwnResetLink(customer);
    return ok({ sent: true as const }, { message: t('auth.resetLinkSent') });
  },
});
