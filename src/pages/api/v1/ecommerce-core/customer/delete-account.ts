// Beyond the spec (152-ФЗ, issue 54): the customer deletes the account with the password again — the
// person's name, contacts and addresses erased, orders kept for accounting without them, sessions ended,
// the newsletter dropped. 422 for a wrong password (nothing erased), 409 while an order is on its way,
// 429 after five tries in 15 minutes; a replay finds no session (401).
import { deleteAccountSchema } from '~/features/account/account.schema.ts';
import { deleteAccount } from '~/features/account/account.privacy.server.ts';
import { requireCustomer, sessionCookie } from '~/features/auth/auth.server.ts';
import { endpoint } from '~/lib/http/endpoint.ts';
import { ok } from '~/lib/http/envelope.ts';
import { z } from '~/lib/zod.ts';

export const POST = endpoint({
  summary: "Deletes the signed-in customer's account after the password is entered again (152-FZ)",
  response: z.object({ deleted: z.literal(true) }),
  failures: [409, 429],
  body: deleteAccountSchema,
  async handler({ body, request, context, t }) {
    const { customer } = await requireCustomer(request);
    await deleteAccount(customer.id, body.password);
    return ok({ deleted: true as const }, { message: t('account.delete.done'), headers: { 'set-cookie': sessionCookie(context.url, null) } });
  },
});
