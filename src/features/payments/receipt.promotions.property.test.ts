// Promotions on the receipts (issue 56): 100,000 generated carts — percent, fixed, buy N get M, order
// thresholds, caps, free delivery, points and balance — whose receipt lines add up to the payment to the
// kopeck, every line ≥ 0, each line's discounts adding up to what it lost, and each line's unit shares (what
// a partial return refunds, one unit at a time) adding up to what the line was paid.
import fc from 'fast-check';
import { describe, it } from 'vitest';
import { applyPromotions, type PromotionRule } from '~/features/promotions/promotions.ts';
import { apportion, certificateLines, certificateShares, paidAmounts, receiptLines, receiptTotal, type ReceiptSource } from './receipt.ts';
import { ALL, promo } from '../../../tests/support/promotions.ts';

const target = fc.oneof(
  fc.constant(ALL),
  fc.record({
    all: fc.constant(false),
    productIds: fc.array(fc.integer({ min: 1, max: 8 }), { maxLength: 3 }),
    categoryIds: fc.constant([]),
    brandIds: fc.array(fc.integer({ min: 1, max: 3 }), { maxLength: 2 }),
  }),
);
const rule: fc.Arbitrary<PromotionRule> = fc.oneof(
  fc.record({ kind: fc.constant('percent' as const), percent: fc.integer({ min: 1, max: 100 }) }),
  fc.record({ kind: fc.constant('amount' as const), amount: fc.integer({ min: 1, max: 5_000_000 }) }),
  fc.record({
    kind: fc.constant('buy_get' as const),
    buy: fc.integer({ min: 1, max: 3 }),
    get: fc.integer({ min: 1, max: 2 }),
    percent: fc.integer({ min: 1, max: 100 }),
  }),
  fc.record({ kind: fc.constant('order_percent' as const), percent: fc.integer({ min: 1, max: 100 }), threshold: fc.integer({ min: 0, max: 10_000_000 }) }),
  fc.record({
    kind: fc.constant('order_amount' as const),
    amount: fc.integer({ min: 1, max: 10_000_000 }),
    threshold: fc.integer({ min: 0, max: 10_000_000 }),
  }),
  fc.record({
    kind: fc.constant('delivery' as const),
    percent: fc.integer({ min: 1, max: 100 }),
    threshold: fc.integer({ min: 0, max: 10_000_000 }),
    methods: fc.constant([]),
  }),
);
const cart = fc.record({
  lines: fc.array(
    fc.record({
      productId: fc.integer({ min: 1, max: 8 }),
      categoryIds: fc.constant([1]),
      brandId: fc.integer({ min: 1, max: 3 }),
      unitPrice: fc.integer({ min: 1, max: 50_000_000 }),
      quantity: fc.integer({ min: 1, max: 6 }),
    }),
    { minLength: 1, maxLength: 7 },
  ),
  promotions: fc.array(fc.record({ rule, target, cap: fc.option(fc.integer({ min: 1, max: 5_000_000 }), { nil: null }) }), { maxLength: 5 }),
  delivery: fc.integer({ min: 0, max: 100_000 }),
  deductedShare: fc.double({ min: 0, max: 1, noNaN: true }),
});

describe('100,000 carts', () => {
  it('receipt lines add up to the payment to the kopeck, none negative; returned unit by unit, each line refunds exactly what it was paid', () => {
    fc.assert(
      fc.property(cart, ({ lines, promotions, delivery, deductedShare }) => {
        const promos = promotions.map((p, i) => promo(i + 1, p.rule, { target: p.target, cap: p.cap }));
        const r = applyPromotions(lines, promos, { price: delivery, method: 'courier' });
        // The engine's own books: every line between 0 and its price, discounts adding up.
        for (const [i, l] of r.lines.entries()) {
          const full = (lines[i]?.unitPrice ?? 0) * (lines[i]?.quantity ?? 0);
          if (l.amount < 0 || l.amount > full) return false;
          if (full - l.discounts.reduce((s, d) => s + d.amount, 0) !== l.amount) return false;
        }
        if (r.applied.reduce((s, a) => s + a.amount, 0) !== r.goodsBefore - r.goodsAfter + (r.deliveryBefore - r.deliveryAfter)) return false;
        if (r.deliveryAfter < 0 || r.deliveryAfter > delivery) return false;
        // Points and balance: any share of what is left to pay.
        const deducted = Math.floor((r.goodsAfter + r.deliveryAfter) * deductedShare);
        const source: ReceiptSource = {
          lines: lines.map((l, i) => ({
            id: i + 1,
            name: 'Платье',
            brand: 'Gucci',
            variant: 'M',
            unit_price: l.unitPrice,
            quantity: l.quantity,
            discount: l.unitPrice * l.quantity - (r.lines[i]?.amount ?? 0),
          })),
          delivery_price: r.deliveryAfter,
          delivery_label: 'Доставка',
          deducted,
        };
        const payment = r.goodsAfter + r.deliveryAfter - deducted;
        const receipt = receiptLines(source);
        if (receiptTotal(receipt) !== payment) return false;
        if (receipt.some((l) => l.unit < 0 || l.quantity <= 0)) return false;
        const paid = paidAmounts(source);
        for (const [i, l] of lines.entries()) {
          const units = apportion(
            paid.goods[i] ?? 0,
            Array.from({ length: l.quantity }, () => 1),
          );
          if (units.reduce((s, x) => s + x, 0) !== (paid.goods[i] ?? 0) || units.some((u) => u < 0)) return false;
        }
        return true;
      }),
      { numRuns: 100_000, seed: 20261202 },
    );
  }, 300_000);
});

const certificates = fc.record({
  lines: fc.array(
    fc.record({ unitPrice: fc.integer({ min: 1, max: 50_000_000 }), quantity: fc.integer({ min: 1, max: 6 }), discount: fc.integer({ min: 0, max: 100 }) }),
    {
      minLength: 1,
      maxLength: 7,
    },
  ),
  delivery: fc.integer({ min: 0, max: 100_000 }),
  pointsShare: fc.double({ min: 0, max: 0.3, noNaN: true }),
  // Each certificate's share of what is left after points, in the order applied.
  uses: fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 1, maxLength: 5 }),
});

describe('gift certificates on the receipts (issue 56)', () => {
  it('over 100,000 orders, the card and each certificate split every line to the kopeck: none negative, each certificate its use', () => {
    fc.assert(
      fc.property(certificates, ({ lines, delivery, pointsShare, uses }) => {
        const goods = lines.map((l) => l.unitPrice * l.quantity - Math.min(l.discount, l.unitPrice * l.quantity));
        const total = goods.reduce((s, g) => s + g, 0) + delivery;
        const points = Math.floor(total * pointsShare);
        let rest = total - points;
        const amounts = uses.map((share) => {
          const used = Math.floor(rest * share);
          rest -= used;
          return used;
        });
        const certificateUsed = amounts.reduce((s, x) => s + x, 0);
        const source: ReceiptSource = {
          lines: lines.map((l, i) => ({
            id: i + 1,
            name: 'Пальто',
            brand: 'Max Mara',
            variant: 'M',
            unit_price: l.unitPrice,
            quantity: l.quantity,
            discount: l.unitPrice * l.quantity - (goods[i] ?? 0),
          })),
          delivery_price: delivery,
          delivery_label: 'Доставка',
          deducted: points + certificateUsed,
          certificates: amounts,
        };
        // The card's receipt: what is left after points and every certificate.
        if (receiptTotal(receiptLines(source)) !== total - points - certificateUsed) return false;
        const card = paidAmounts(source);
        const shares = amounts.map((_, i) => certificateShares(source, i));
        for (const [i, use] of amounts.entries()) {
          const lines = certificateLines(source, i);
          if (receiptTotal(lines) !== use || lines.some((l) => l.unit < 0 || l.quantity <= 0)) return false;
        }
        // Line by line, the card's part and the certificates' add up to what points left of it.
        const afterPoints = paidAmounts({ ...source, deducted: points, certificates: [] });
        for (const [i] of lines.entries()) {
          const sum = (card.goods[i] ?? 0) + shares.reduce((s, x) => s + (x.goods[i] ?? 0), 0);
          if (sum !== afterPoints.goods[i] || shares.some((x) => (x.goods[i] ?? 0) < 0)) return false;
        }
        return card.delivery + shares.reduce((s, x) => s + x.delivery, 0) === afterPoints.delivery;
      }),
      { numRuns: 100_000, seed: 20261203 },
    );
  }, 300_000);
});
