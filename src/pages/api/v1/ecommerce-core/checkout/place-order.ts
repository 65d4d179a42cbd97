// Beyond the spec (docs/api.md): places an order from a guest's items or a customer's selected cart
// lines, in one transaction, and creates its payment; the Idempotency-Key header makes a retry answer
// the first order and the same payment.
import { optionalCustomer } from '~/features/auth/auth.server.ts';
import { idempotencyKeySchema, placedResponse, placeOrderSchema } from '~/features/checkout/checkout.schema.ts';
import { placeOrder } from '~/features/checkout/checkout.server.ts';
import { resultPath } from '~/features/orders/orders.server.ts';
import { paymentPageFor } from '~/features/payments/payments.server.ts';
import { settleCertificatesOf } from '~/features/payments/payments.receipts.server.ts';
import { noteOrderConsent } from '~/features/account/account.privacy.server.ts';
import { endpoint } from '~/lib/http/endpoint.ts';
import { fail, ok } from '~/lib/http/envelope.ts';
import { enforce } from '~/lib/http/rate-limit.server.ts';
import { underGuessLimit } from '~/features/promotions/promotions.server.ts';

export const POST = endpoint({
  summary:
    'Places an order and creates its payment (201; 200 with the same order and payment for a repeated Idempotency-Key; 409 short of stock or an empty selection; 502 when the payment provider cannot be reached — the order stands, repeat with the same key)',
  failures: [409, 429],
  response: placedResponse,
  statuses: [201],
  body: placeOrderSchema,
  async handler({ body, request, context, t }) {
    const key = idempotencyKeySchema.safeParse(request.headers.get('idempotency-key') ?? '');
    if (!key.success) return fail(400, t('checkout.keyRequired'));
    // Any Authorization header that is not a live session is a 401, not a silent guest order.
    const auth = await optionalCustomer(request);
    await enforce({ key: `checkout:${context.clientAddress}`, max: 200, windowSeconds: 600 });
    const order = await underGuessLimit(context.clientAddress, body.promo_code ?? body.gift_codes?.[0], () =>
      placeOrder(body, { customerId: auth?.customer.id ?? null }, key.data),
    );
    // Checkout says placing the order is consenting to the personal data policy (152-ФЗ): recorded once per order.
    if (order.created) await noteOrderConsent(order.code, auth?.customer.id ?? null, body.contact);
    // Paid wholly with points, balance and gift certificates: the certificates' receipts go now (issue 56).
    if (order.created && order.payment_status === 'paid') void settleCertificatesOf(order.code);
    const paymentUrl = await paymentPageFor(order.code, request.headers.get('user-agent'));
    const answer = { ...order, payment_url: paymentUrl, result_url: await resultPath(order.code) };
    return ok(answer, { status: order.created ? 201 : 200, message: t('checkout.placed', { code: order.code }) });
  },
});
