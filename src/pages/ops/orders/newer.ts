// GET /ops/orders/newer?since=<cursor>&<the list's filters> (issue 24): how many orders came after the
// newest one the list shows, for the notice that offers to show them (polled by the list's script).
import type { APIRoute } from 'astro';
import { consoleSession } from '~/features/ops/ops.server.ts';
import { consoleOrdersQuerySchema, cursorField, newerOrders } from '~/features/console/console.orders.server.ts';
import { searchParamsToObject } from '~/lib/http/search-params.ts';

const PRIVATE = { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'private, no-store' };

export const GET: APIRoute = async ({ url, cookies, request }) => {
  const session = await consoleSession({ cookies, request });
  if (session instanceof Response) return new Response(JSON.stringify({ count: 0 }), { status: 401, headers: PRIVATE });
  const since = cursorField.safeParse(url.searchParams.get('since'));
  if (!since.success) return new Response(JSON.stringify({ count: 0 }), { status: 400, headers: PRIVATE });
  const count = await newerOrders(consoleOrdersQuerySchema.parse(searchParamsToObject(url.searchParams)), since.data);
  return new Response(JSON.stringify({ count }), { headers: PRIVATE });
};
