// Beyond the spec (docs/api.md): a visitor arrived through a referral link (?ref=). Sent by the page's
// script, so the page itself stays the same for everyone and cacheable.
import { z } from '~/lib/zod.ts';
import { cleanReferralCode } from '~/features/partners/partners.ts';
import { recordVisit } from '~/features/partners/partners.server.ts';
import { endpoint } from '~/lib/http/endpoint.ts';
import { ok } from '~/lib/http/envelope.ts';
import { enforce } from '~/lib/http/rate-limit.server.ts';

export const POST = endpoint({
  summary: 'Counts a visit through a referral link, once per visitor and day; unknown codes count nothing',
  failures: [429],
  response: z.object({ counted: z.boolean() }),
  body: z.object({ code: z.string().max(64), landing: z.string().max(2000).default('') }),
  async handler({ body, context }) {
    await enforce({ key: `ref-visit:${context.clientAddress}`, max: 30, windowSeconds: 3600 });
    const code = cleanReferralCode(body.code);
    const path = body.landing.startsWith('/') ? (body.landing.split('?')[0] ?? '/') : '/';
    return ok({ counted: code ? await recordVisit(code, context.clientAddress, path) : false });
  },
});
