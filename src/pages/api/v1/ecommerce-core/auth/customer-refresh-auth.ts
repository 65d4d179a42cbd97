// spec §7: GET auth/customer-refresh-auth — a new token for the same login (the old one keeps working for
// a minute); answered as login. A token already rotated out answers without access_token (the client keeps its own).
import { authAnswerSchema } from '~/features/auth/auth.schema.ts';
import { authAnswer, bearerToken, rotateSession, sessionCookie } from '~/features/auth/auth.server.ts';
import { endpoint } from '~/lib/http/endpoint.ts';
import { ok } from '~/lib/http/envelope.ts';
import { unauthorized } from '~/lib/http/errors.ts';

export const GET = endpoint({
  summary: 'spec §7: rotates the session token (401 when it is expired, revoked or unknown)',
  response: authAnswerSchema,
  async handler({ request, context }) {
    const rotated = await rotateSession(bearerToken(request));
    if (!rotated) throw unauthorized();
    const { auth, issued } = rotated;
    return ok(await authAnswer(auth.customer, issued), issued ? { headers: { 'set-cookie': sessionCookie(context.url, issued) } } : {});
  },
});
