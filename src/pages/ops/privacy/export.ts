// /ops/privacy/export (152-ФЗ, issue 54, admins): a guest's personal data as a JSON file, for answering
// their request; audited (without the address).
import type { APIRoute } from 'astro';
import { guestExport, privacyLookupSchema } from '~/features/account/account.privacy.server.ts';
import { consoleSession } from '~/features/ops/ops.server.ts';
import { searchParamsToObject } from '~/lib/http/search-params.ts';

export const GET: APIRoute = async ({ cookies, request, url, clientAddress }) => {
  const session = await consoleSession({ cookies, request }, 'admin');
  if (session instanceof Response) return session;
  const query = privacyLookupSchema.parse(searchParamsToObject(url.searchParams));
  if (!query.email) return new Response(null, { status: 404, headers: { 'cache-control': 'private, no-store' } });
  const data = await guestExport(query.email, query.phone ?? '', { operatorId: session.operator.id, name: session.operator.email, ip: clientAddress });
  return new Response(`${JSON.stringify(data, null, 2)}\n`, {
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'content-disposition': 'attachment; filename="personal-data.json"',
      'cache-control': 'private, no-store',
    },
  });
};
