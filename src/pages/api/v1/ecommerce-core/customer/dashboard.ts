// Beyond the spec (docs/api.md): the account home — the dashboard summary and the latest orders.
import { z } from '~/lib/zod.ts';
import { recentOrders } from '~/features/account/account.server.ts';
import { dashboardContentSchema } from '~/features/auth/auth.schema.ts';
import { dashboardContent, requireCustomer } from '~/features/auth/auth.server.ts';
import { getMetaData } from '~/features/content/content.server.ts';
import { endpoint } from '~/lib/http/endpoint.ts';
import { ok, trail } from '~/lib/http/envelope.ts';

export const GET = endpoint({
  summary: 'The dashboard summary (balance, bonus and its until-date, kopecks) and the five latest orders',
  response: dashboardContentSchema.extend({
    recent_orders: z.array(z.object({ code: z.string(), status: z.string(), status_label: z.string(), total: z.number().int(), created_at: z.string() })),
  }),
  async handler({ request, locale, t }) {
    const { customer } = await requireCustomer(request);
    const [summary, orders, meta] = await Promise.all([dashboardContent(customer.id), recentOrders(customer.id, locale), getMetaData('dashboard')]);
    return ok({ ...summary, recent_orders: orders }, { meta_data: meta, breadcrumbs: trail(locale, { name: t('account.menu.dashboard') }) });
  },
});
