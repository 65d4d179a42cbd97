// Beyond the spec (docs/api.md): what an order would cost now — the checkout page's summary, recomputed
// by the server from the database at every change of delivery, points or balance. Writes nothing.
import { optionalCustomer } from '~/features/auth/auth.server.ts';
import { summaryResponse, summarySchema } from '~/features/checkout/checkout.schema.ts';
import { summarize } from '~/features/checkout/checkout.server.ts';
import { codReasonKey } from '~/features/payments/payments.on-delivery.ts';
import { env } from '~/lib/env.ts';
import { formatPrice } from '~/lib/format.ts';
import { endpoint } from '~/lib/http/endpoint.ts';
import { underGuessLimit } from '~/features/promotions/promotions.server.ts';
import { ok } from '~/lib/http/envelope.ts';
import { formatGiftCode } from '~/features/promotions/promotions.gifts.ts';

export const POST = endpoint({
  summary:
    "Prices a checkout: a guest's items or a customer's selected cart lines, delivery, promotions and a promo code (applied, or why not), points and balance, gift certificates (each one's share, or why not), and the payment chosen (payment on delivery: whether it is offered for this delivery and point, why not, and its fee); 409 short of stock or nothing selected",
  failures: [409, 429],
  response: summaryResponse,
  body: summarySchema,
  async handler({ body, request, context, t }) {
    // Any Authorization header that is not a live session is a 401, not a silent guest order.
    const auth = await optionalCustomer(request);
    const p = await underGuessLimit(
      context.clientAddress,
      body.promo_code ?? body.gift_codes?.[0],
      () => summarize(body, { customerId: auth?.customer.id ?? null }),
      (priced) =>
        (priced.promo_code?.answer.ok === false && priced.promo_code.answer.reason === 'promo.unknown') ||
        priced.certificates.some((c) => c.reason === 'gift.unknown'),
    );
    const { reason } = p.on_delivery;
    const { certificates, ...priced } = p;
    return ok({
      ...priced,
      on_delivery: {
        available: p.on_delivery.available,
        reason: reason ? t(codReasonKey(reason), { limit: formatPrice(env().COD_MAX_TOTAL * 100) }) : null,
      },
      promotions: p.promotions.map((a) => ({
        name: a.name,
        class: a.cls,
        amount: a.amount,
        code: p.promo_code?.answer.ok && p.promo_code.answer.promotion.id === a.promotionId ? p.promo_code.answer.code : null,
      })),
      promo_code: p.promo_code && {
        code: p.promo_code.code,
        applied: p.promo_code.answer.ok,
        reason: p.promo_code.answer.ok ? null : t(p.promo_code.answer.reason, p.promo_code.answer.params),
      },
      gift_certificates: certificates.map((c) => ({
        code: formatGiftCode(c.code),
        applied: c.applied,
        left: c.balance - c.applied,
        reason: c.reason ? t(c.reason) : null,
      })),
      lines: p.lines.map(({ variant: v, quantity, promo_discount }) => ({
        id: v.product_id,
        variant_code: v.code,
        name: v.name,
        brand: v.brand,
        variant: v.label,
        image: v.image,
        price: Number(v.price),
        price_old: v.price_old === null ? null : Number(v.price_old),
        quantity,
        promo_discount,
      })),
    });
  },
});
