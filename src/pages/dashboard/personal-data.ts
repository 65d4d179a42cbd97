// /dashboard/personal-data (152-ФЗ, issue 54): the signed-in customer's data as a JSON file, from a plain
// link on the profile page (the session cookie; it changes nothing, so a cookie is enough). A guest is sent
// to /, as from every dashboard page.
import type { APIRoute } from 'astro';
import { customerData } from '~/features/account/account.privacy.server.ts';
import { pageCustomer } from '~/features/auth/auth.server.ts';

export const GET: APIRoute = async ({ cookies, redirect }) => {
  const auth = await pageCustomer(cookies);
  if (!auth) return redirect('/', 302);
  const day = new Date().toISOString().slice(0, 10);
  return new Response(`${JSON.stringify(await customerData(auth.customer.id), null, 2)}\n`, {
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'content-disposition': `attachment; filename="brandshop-personal-data-${day}.json"`,
      'cache-control': 'private, no-store',
    },
  });
};
