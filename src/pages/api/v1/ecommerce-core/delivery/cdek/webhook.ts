// Beyond the spec (docs/api.md "Delivery by carriers", docs/delivery.md "Tracking"): CDEK's ORDER_STATUS
// webhook. CDEK signs nothing, so the body is trusted only to name an order — its uuid, and the shop's
// number — that the shop registered; the order's statuses are then read from CDEK's API and applied
// forward only. An unknown or mismatched order is a 404 and changes nothing; so is anything but
// ORDER_STATUS. With CDEK_WEBHOOK_TOKEN set, the subscribed address carries it as `?token=`.
import { z } from '~/lib/zod.ts';
import { carrierNotified } from '~/features/delivery/delivery.shipments.server.ts';
import { env } from '~/lib/env.ts';
import { endpoint } from '~/lib/http/endpoint.ts';
import { fail, ok } from '~/lib/http/envelope.ts';
import { enforce } from '~/lib/http/rate-limit.server.ts';
import { sameSecret } from '~/lib/same-secret.ts';

export const POST = endpoint({
  summary: "CDEK's ORDER_STATUS webhook: the named order's statuses are read back from CDEK and applied forward only",
  failures: [403, 404, 429, 503],
  response: z.object({ status: z.string(), moved: z.boolean() }),
  query: z.object({ token: z.string().max(200).optional() }),
  body: z.looseObject({
    type: z.literal('ORDER_STATUS'),
    uuid: z.string().regex(/^[\w-]{1,100}$/),
    attributes: z.looseObject({ number: z.string().max(40).optional() }),
  }),
  async handler({ body, query, context, t }) {
    await enforce({ key: `carrier-hook:${context.clientAddress}`, max: 600, windowSeconds: 60 });
    const expected = env().CDEK_WEBHOOK_TOKEN;
    if (expected && !(query.token && sameSecret(expected, query.token))) return fail(403, t('delivery.webhook.forbidden'));
    return ok(await carrierNotified('cdek', { uuid: body.uuid, number: body.attributes.number }));
  },
});
