// Beyond the spec (docs/api.md): the balance and bonus ledger, newest first, 20 a page.
import { z } from '~/lib/zod.ts';
import { ledgerEntrySchema, ledgerQuerySchema } from '~/features/account/account.schema.ts';
import { ledger } from '~/features/account/account.server.ts';
import { requireCustomer } from '~/features/auth/auth.server.ts';
import { endpoint } from '~/lib/http/endpoint.ts';
import { ok } from '~/lib/http/envelope.ts';

export const GET = endpoint({
  summary: 'Movements of the balance and bonus points (?kind=balance|bonus, ?page=), amounts in kopecks',
  response: z.object({ entries: z.array(ledgerEntrySchema), total: z.number().int(), page: z.number().int(), last_page: z.number().int() }),
  query: ledgerQuerySchema,
  async handler({ request, query, locale }) {
    const { customer } = await requireCustomer(request);
    return ok(await ledger(customer.id, query, locale));
  },
});
