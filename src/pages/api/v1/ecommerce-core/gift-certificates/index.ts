// Beyond the spec (docs/api.md, issue 56): buys a gift certificate — an order of its own whose payment is an
// advance — and creates its payment; the Idempotency-Key header makes a retry answer the same purchase.
import { optionalCustomer } from '~/features/auth/auth.server.ts';
import { idempotencyKeySchema } from '~/features/checkout/checkout.schema.ts';
import { giftPurchasedResponse, giftPurchaseSchema } from '~/features/promotions/promotions.gifts.schema.ts';
import { buyCertificate } from '~/features/checkout/checkout.gifts.server.ts';
import { resultPath } from '~/features/orders/orders.server.ts';
import { paymentPageFor } from '~/features/payments/payments.server.ts';
import { noteOrderConsent } from '~/features/account/account.privacy.server.ts';
import { endpoint } from '~/lib/http/endpoint.ts';
import { fail, ok } from '~/lib/http/envelope.ts';
import { enforce } from '~/lib/http/rate-limit.server.ts';

export const POST = endpoint({
  summary:
    'Buys a gift certificate of one of the nominal values on sale and creates its payment (201; 200 for a repeated Idempotency-Key; 422 for an amount not on sale; 502 when the payment provider cannot be reached — repeat with the same key)',
  failures: [409, 429],
  response: giftPurchasedResponse,
  statuses: [201],
  body: giftPurchaseSchema,
  async handler({ body, request, context, t }) {
    const key = idempotencyKeySchema.safeParse(request.headers.get('idempotency-key') ?? '');
    if (!key.success) return fail(400, t('checkout.keyRequired'));
    const auth = await optionalCustomer(request);
    await enforce({ key: `checkout:${context.clientAddress}`, max: 200, windowSeconds: 600 });
    const bought = await buyCertificate(body, auth?.customer.id ?? null, key.data);
    if (bought.created) await noteOrderConsent(bought.code, auth?.customer.id ?? null, body.contact);
    const paymentUrl = await paymentPageFor(bought.code, request.headers.get('user-agent'));
    return ok({ code: bought.code, result_url: await resultPath(bought.code), payment_url: paymentUrl }, { status: bought.created ? 201 : 200 });
  },
});
