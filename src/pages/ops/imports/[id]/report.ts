// /ops/imports/N/report (issue 24, admins): the run's per-offer report as a CSV download.
import type { APIRoute } from 'astro';
import { consoleSession, pathId } from '~/features/ops/ops.server.ts';
import { importRun } from '~/features/import/import.runs.server.ts';

export const GET: APIRoute = async ({ cookies, params, request }) => {
  const session = await consoleSession({ cookies, request }, 'admin');
  if (session instanceof Response) return session;
  const id = pathId(params['id']);
  const run = id === null ? null : await importRun(id);
  if (!run?.report) return new Response(null, { status: 404, headers: { 'cache-control': 'private, no-store' } });
  return new Response(run.report, {
    headers: {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': `attachment; filename="import-${id}.csv"`,
      'cache-control': 'private, no-store',
    },
  });
};
