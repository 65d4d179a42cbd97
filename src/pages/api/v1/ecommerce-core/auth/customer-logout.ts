// Beyond the spec (docs/api.md): ends the login the token belongs to, on every process at once.
import { z } from '~/lib/zod.ts';
import { authenticate, bearerToken, revokeFamily, sessionCookie } from '~/features/auth/auth.server.ts';
import { endpoint } from '~/lib/http/endpoint.ts';
import { ok } from '~/lib/http/envelope.ts';

export const POST = endpoint({
  summary: 'Logs out: the token and every token refreshed from the same login stop working; the cookie is cleared',
  response: z.object({ logged_out: z.literal(true) }),
  async handler({ request, context, t }) {
    // Logging out twice, or with a token that already ended, is still a logout.
    const auth = await authenticate(bearerToken(request));
    if (auth) await revokeFamily(auth.familyId);
    return ok({ logged_out: true as const }, { message: t('auth.loggedOut'), headers: { 'set-cookie': sessionCookie(context.url, null) } });
  },
});
