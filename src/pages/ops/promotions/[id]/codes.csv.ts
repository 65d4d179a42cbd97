// /ops/promotions/N/codes.csv (issue 56, managers): every code of a promotion as a CSV download (code, limit,
// uses, when made), to hand a batch to a mailing or a printer.
import type { APIRoute } from 'astro';
import { consoleSession, pathId } from '~/features/ops/ops.server.ts';
import { promotionCodesCsv } from '~/features/console/console.promotions.server.ts';

export const GET: APIRoute = async ({ cookies, params, request }) => {
  const session = await consoleSession({ cookies, request }, 'manager');
  if (session instanceof Response) return session;
  const id = pathId(params['id']);
  const csv = id === null ? null : await promotionCodesCsv(id);
  if (csv === null) return new Response(null, { status: 404, headers: { 'cache-control': 'private, no-store' } });
  return new Response(csv, {
    headers: {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': `attachment; filename="promotion-${id}-codes.csv"`,
      'cache-control': 'private, no-store',
    },
  });
};
