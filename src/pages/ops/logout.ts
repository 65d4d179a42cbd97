// POST /ops/logout (issue 24): ends the operator's session; the session's CSRF token is required.
import type { APIRoute } from 'astro';
import { checkedForm, OPS_SESSION_COOKIE, opsLogout, opsSession, opsSessionCookie } from '~/features/ops/ops.server.ts';

export const POST: APIRoute = async ({ request, cookies, clientAddress }) => {
  const session = await opsSession(cookies.get(OPS_SESSION_COOKIE)?.value);
  if (session) {
    if (!('fields' in (await checkedForm(request, session.csrf)))) return new Response(null, { status: 403 });
    await opsLogout(session, clientAddress);
  }
  return new Response(null, { status: 303, headers: { location: '/ops/login', 'set-cookie': opsSessionCookie(null), 'cache-control': 'private, no-store' } });
};
