// GET /ops/orders/BS-…/waybill.pdf (issue 38): the registered order's waybill, made by the carrier and
// passed through (its own address needs the shop's token). A manager's; audited in shipments.server.ts.
import type { APIRoute } from 'astro';
import { waybill } from '~/features/delivery/delivery.shipments.server.ts';
import { consoleSession } from '~/features/ops/ops.server.ts';
import { ORDER_CODE } from '~/features/orders/orders.ts';
import { HttpError } from '~/lib/http/errors.ts';
import { t } from '~/lib/i18n/index.ts';

export const GET: APIRoute = async ({ params, cookies, request, clientAddress, locals }) => {
  const session = await consoleSession({ cookies, request });
  if (session instanceof Response) return session;
  const code = params['code'] ?? '';
  if (!ORDER_CODE.test(code)) return new Response(null, { status: 404 });
  try {
    const pdf = await waybill(code, { operatorId: session.operator.id, name: session.operator.email, ip: clientAddress });
    return new Response(pdf, {
      headers: {
        'content-type': 'application/pdf',
        'content-disposition': `inline; filename="waybill-${code}.pdf"`,
        'cache-control': 'private, no-store',
      },
    });
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    const text = t(locals.locale, error.messageKey, Object.fromEntries(Object.entries(error.params ?? {}).map(([k, v]) => [k, String(v)])));
    return new Response(text, { status: error.status, headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'private, no-store' } });
  }
};
