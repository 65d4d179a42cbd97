// POST /ops/logout (issue 24): ends the operator's session; the session's CSRF token is required.
import type { APIRoute } from 'astro';
import { csrfMatches, OPS_SESSION_COOKIE, opsLogout, opsSession, opsSessionCookie, readForm } from '~/features/ops/ops.server.ts';

export const POST: APIRoute = async ({ request, cookies, clientAddress }) => {
  const session = await opsSession(cookies.get(OPS_SESSION_COOKIE)?.value);
  const form = await readForm(request);
  if (session && form && csrfMatches(session, form['_csrf'])) await opsLogout(session, clientAddress);
  else if (session) return new Response(null, { status: 403 });
  return new Response(null, { status: 303, headers: { location: '/ops/login', 'set-cookie': opsSessionCookie(null), 'cache-control': 'private, no-store' } });
};
