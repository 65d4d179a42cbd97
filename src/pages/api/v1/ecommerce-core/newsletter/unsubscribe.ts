// Beyond the spec (152-ФЗ, issue 54): the link in every mail's footer withdraws the address's marketing
// consent — from /unsubscribe's form (answered with a 303 back to it), or a mail program's one-click POST
// (RFC 8058, the List-Unsubscribe header; the address and signature in the query). A wrong signature is a
// 403 and changes nothing; a second time changes nothing either.
import { unsubscribeSchema } from '~/features/account/account.schema.ts';
import { setMarketing } from '~/features/account/account.privacy.server.ts';
import { endpoint } from '~/lib/http/endpoint.ts';
import { fail, ok } from '~/lib/http/envelope.ts';
import { enforce } from '~/lib/http/rate-limit.server.ts';
import { verifyUnsubscribe } from '~/lib/unsubscribe.server.ts';
import { z } from '~/lib/zod.ts';

export const POST = endpoint({
  summary: "Withdraws an address's consent to news and offers by e-mail, by the signed link of a mail's footer",
  response: z.object({ subscribed: z.literal(false) }),
  failures: [403, 429],
  statuses: [303],
  query: unsubscribeSchema.partial(),
  body: unsubscribeSchema.partial(),
  async handler({ query, body, request, context, t }) {
    await enforce({ key: `unsubscribe:${context.clientAddress}`, max: 30, windowSeconds: 600 });
    const email = body.email ?? query.email;
    const signature = body.s ?? query.s;
    if (!email || !signature || !(await verifyUnsubscribe(email, signature))) return fail(403, t('account.privacy.badLink'));
    await setMarketing(email, false, 'mail');
    // The page's own form: back to the page, which says it is done.
    if ((request.headers.get('content-type') ?? '').startsWith('application/x-www-form-urlencoded') && body.email)
      return new Response(null, { status: 303, headers: { location: `/unsubscribe?done=1` } });
    return ok({ subscribed: false as const }, { message: t('account.privacy.unsubscribed') });
  },
});
