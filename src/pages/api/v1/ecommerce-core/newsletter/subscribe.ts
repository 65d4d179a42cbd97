// Beyond the spec (issue 3): the footer form stores the subscription. Idempotent for the same e-mail.
import { newsletterSchema } from '~/features/newsletter/newsletter.schema.ts';
import { NEWSLETTER_LIMIT, subscribe } from '~/features/newsletter/newsletter.server.ts';
import { noteConsent } from '~/features/account/account.privacy.server.ts';
import { endpoint } from '~/lib/http/endpoint.ts';
import { ok } from '~/lib/http/envelope.ts';
import { enforce } from '~/lib/http/rate-limit.server.ts';
import { z } from '~/lib/zod.ts';

export const POST = endpoint({
  summary: 'Subscribes an e-mail to the newsletter (201 when new, 200 when already subscribed)',
  failures: [429],
  response: z.object({ email: z.string(), subscribed: z.literal(true), created: z.boolean() }),
  statuses: [201],
  body: newsletterSchema,
  async handler({ body, context }) {
    await enforce({ key: `newsletter:${context.clientAddress}`, ...NEWSLETTER_LIMIT });
    const created = body.website ? false : await subscribe(body.email, context.clientAddress);
    // Subscribing is the marketing consent (152-ФЗ): recorded with the policy's version, once per subscription.
    if (created) await noteConsent({ purpose: 'marketing', source: 'newsletter', given: true, email: body.email });
    return ok({ email: body.email, subscribed: true, created }, { status: created ? 201 : 200 });
  },
});
