// Beyond the spec (docs/api.md "Reviews", issue 57): a visitor finds an approved review useful — once per
// visitor: a signed-in customer by their account, anyone else by a random cookie this answer sets (HttpOnly,
// a year). Votes from one address are limited (429). A form posted without a script (Accept: text/html) is
// sent back to the review on its product's reviews page.
import { randomBytes } from 'node:crypto';
import { z } from '~/lib/zod.ts';
import { optionalCustomer, pageCustomer, tokenHash } from '~/features/auth/auth.server.ts';
import { voteUseful } from '~/features/reviews/reviews.server.ts';
import { endpoint } from '~/lib/http/endpoint.ts';
import { ok } from '~/lib/http/envelope.ts';
import { forbidden, notFound } from '~/lib/http/errors.ts';
import { enforce } from '~/lib/http/rate-limit.server.ts';

const VOTER_COOKIE = 'review_voter';

export const POST = endpoint({
  summary:
    'Marks an approved review useful, once per visitor (a customer by their session, anyone else by a cookie this answer sets); answers the review’s count (404 for no such approved review)',
  failures: [403, 429],
  response: z.object({ useful: z.number().int(), counted: z.boolean() }),
  params: z.object({ id: z.coerce.number().int().min(1).max(2_147_483_647) }),
  async handler({ params, request, context }) {
    if (request.headers.get('sec-fetch-site') === 'cross-site') throw forbidden();
    await enforce({ key: `vote:${context.clientAddress}`, max: 60, windowSeconds: 600 });
    const auth = (await pageCustomer(context.cookies)) ?? (await optionalCustomer(request));
    const cookie = context.cookies.get(VOTER_COOKIE)?.value;
    const visitor = cookie && /^[0-9a-f]{32}$/.test(cookie) ? cookie : randomBytes(16).toString('hex');
    const voted = await voteUseful(params.id, auth ? `c:${auth.customer.id}` : `v:${tokenHash(visitor)}`);
    if (!voted) throw notFound();
    const headers: Record<string, string> = {};
    if (!auth && visitor !== cookie)
      headers['set-cookie'] =
        `${VOTER_COOKIE}=${visitor}; Path=/api/v1/ecommerce-core/reviews; HttpOnly; SameSite=Lax; Max-Age=31536000${context.url.protocol === 'https:' ? '; Secure' : ''}`;
    if ((request.headers.get('accept') ?? '').includes('text/html'))
      return new Response(null, {
        status: 303,
        headers: { ...headers, location: `/p/${voted.productId}/reviews#review-${params.id}`, 'cache-control': 'private, no-store' },
      });
    return ok({ useful: voted.useful, counted: voted.counted }, { headers });
  },
});
