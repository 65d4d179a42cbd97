// The promotion engine (issue 56): worked examples of each rule and of stacking (docs/promotions.md). The
// 100,000 generated carts whose receipts must add up are src/features/payments/receipt.promotions.property.test.ts.
import { describe, expect, it } from 'vitest';
import { applyPromotions, pricesShown, unitSale, type PricedCartLine, type PromotionRule } from './promotions.ts';
import { ALL, promo } from '../../../tests/support/promotions.ts';

const line = (productId: number, unitPrice: number, quantity = 1, extra: Partial<PricedCartLine> = {}): PricedCartLine => ({
  productId,
  categoryIds: [10],
  brandId: 1,
  unitPrice,
  quantity,
  ...extra,
});
const NO_DELIVERY = { price: 0, method: 'courier' };

describe('promotions, rule by rule', () => {
  it('−20 % on shoes takes 20 % off the shoes only', () => {
    const shoes = { all: false, productIds: [], categoryIds: [7], brandIds: [] };
    const r = applyPromotions(
      [line(1, 10_000_00, 1, { categoryIds: [7] }), line(2, 5_000_00)],
      [promo(1, { kind: 'percent', percent: 20 }, { target: shoes })],
      NO_DELIVERY,
    );
    expect(r.lines.map((l) => l.amount)).toEqual([8_000_00, 5_000_00]);
    expect(r.applied).toEqual([{ promotionId: 1, name: 'P1', cls: 'item', amount: 2_000_00 }]);
  });

  it('a sale of the end sizes takes off only the sizes it names, whatever case they are typed in; a card shows no such price', () => {
    const ends = promo(1, { kind: 'percent', percent: 30 }, { target: { ...ALL, sizes: ['XS', 'XXL'] } });
    const r = applyPromotions(
      [line(1, 10_000_00, 1, { size: 'xs' }), line(1, 10_000_00, 1, { size: 'M' }), line(2, 4_000_00, 2, { size: 'XXL ' })],
      [ends],
      NO_DELIVERY,
    );
    expect(r.lines.map((l) => l.amount)).toEqual([7_000_00, 10_000_00, 5_600_00]);
    // One price a card for all its sizes: a size-bound promotion is the cart's.
    expect(unitSale(line(1, 10_000_00), [ends])).toEqual({ off: 0, promotion: null });
  });

  it('a fixed amount off each unit never takes a unit below zero', () => {
    const r = applyPromotions([line(1, 300_00, 2)], [promo(1, { kind: 'amount', amount: 500_00 })], NO_DELIVERY);
    expect(r.lines[0]?.amount).toBe(0);
  });

  it('"3 for 2": of three units the cheapest is free, whatever order the lines come in', () => {
    const lines = [line(1, 1_000_00), line(2, 3_000_00), line(3, 2_000_00)];
    const rule: PromotionRule = { kind: 'buy_get', buy: 2, get: 1, percent: 100 };
    const r = applyPromotions(lines, [promo(1, rule)], NO_DELIVERY);
    expect(r.lines.map((l) => l.amount)).toEqual([0, 3_000_00, 2_000_00]);
    const reversed = applyPromotions([...lines].reverse(), [promo(1, rule)], NO_DELIVERY);
    expect(reversed.goodsAfter).toBe(r.goodsAfter);
    // Five units make one group: the two left over pay in full.
    const five = applyPromotions([line(1, 1_000_00, 5)], [promo(1, rule)], NO_DELIVERY);
    expect(five.goodsAfter).toBe(4_000_00);
  });

  it('a cap holds: −15 % up to 3,000 ₽, spread over the lines exactly', () => {
    const r = applyPromotions([line(1, 15_000_00), line(2, 9_999_99, 3)], [promo(1, { kind: 'percent', percent: 15 }, { cap: 3_000_00 })], NO_DELIVERY);
    expect(r.goodsBefore - r.goodsAfter).toBe(3_000_00);
    expect(r.lines.reduce((s, l) => s + l.amount, 0)).toBe(r.goodsAfter);
  });

  it('an order discount starts at its threshold, counted after item promotions', () => {
    const order = promo(2, { kind: 'order_amount', amount: 1_000_00, threshold: 10_000_00 });
    expect(applyPromotions([line(1, 10_000_00)], [order], NO_DELIVERY).goodsAfter).toBe(9_000_00);
    // −10 % on the item first leaves 9,000 ₽: under the threshold.
    const item = promo(1, { kind: 'percent', percent: 10 });
    expect(applyPromotions([line(1, 10_000_00)], [order, item], NO_DELIVERY).goodsAfter).toBe(9_000_00);
  });

  it('an order discount is spread over its lines by largest remainder, to the kopeck', () => {
    const r = applyPromotions([line(1, 1_00), line(2, 1_00), line(3, 1_00)], [promo(1, { kind: 'order_amount', amount: 1_00, threshold: 0 })], NO_DELIVERY);
    // 1 ₽ over three lines of 1 ₽: 34 + 33 + 33 kopecks, the extra one on the first line.
    expect(r.lines.map((l) => l.amount)).toEqual([66, 67, 67]);
    expect(r.goodsAfter).toBe(2_00);
  });

  it('free delivery from 10,000 ₽, for the ways it names', () => {
    const free = promo(1, { kind: 'delivery', percent: 100, threshold: 10_000_00, methods: ['courier'] });
    expect(applyPromotions([line(1, 10_000_00)], [free], { price: 350_00, method: 'courier' }).deliveryAfter).toBe(0);
    expect(applyPromotions([line(1, 9_999_99)], [free], { price: 350_00, method: 'courier' }).deliveryAfter).toBe(350_00);
    expect(applyPromotions([line(1, 10_000_00)], [free], { price: 350_00, method: 'pickup' }).deliveryAfter).toBe(350_00);
  });
});

describe('stacking', () => {
  it('one item promotion a unit: the one that takes the most applies, the other on the units left', () => {
    const gucci = { all: false, productIds: [], categoryIds: [], brandIds: [5] };
    const lines = [line(1, 10_000_00, 1, { brandId: 5 }), line(2, 4_000_00)];
    const r = applyPromotions(lines, [promo(1, { kind: 'percent', percent: 10 }), promo(2, { kind: 'percent', percent: 30 }, { target: gucci })], NO_DELIVERY);
    expect(r.lines.map((l) => l.discounts)).toEqual([[{ promotionId: 2, amount: 3_000_00 }], [{ promotionId: 1, amount: 400_00 }]]);
  });

  it('of two order promotions the better one for the shopper applies, and item, order and delivery combine', () => {
    const lines = [line(1, 20_000_00)];
    const r = applyPromotions(
      lines,
      [
        promo(1, { kind: 'percent', percent: 10 }),
        promo(2, { kind: 'order_percent', percent: 5, threshold: 0 }),
        promo(3, { kind: 'order_amount', amount: 2_000_00, threshold: 15_000_00 }),
        promo(4, { kind: 'delivery', percent: 100, threshold: 0, methods: [] }),
      ],
      { price: 500_00, method: 'pickup' },
    );
    expect(r.applied.map((a) => [a.promotionId, a.amount])).toEqual([
      [1, 2_000_00],
      [3, 2_000_00],
      [4, 500_00],
    ]);
    expect(r.goodsAfter).toBe(16_000_00);
    expect(r.deliveryAfter).toBe(0);
  });
});

describe('the price a card shows', () => {
  it('is what the checkout takes off one unit alone, over 10,000 generated products and promotions', () => {
    let seed = 56;
    const rand = (n: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed % n;
    };
    for (let run = 0; run < 10_000; run++) {
      const promotions = Array.from({ length: 1 + rand(6) }, (_, k) => {
        const rule: PromotionRule =
          rand(3) === 0
            ? { kind: 'amount', amount: 1 + rand(500_000) }
            : rand(5) === 0
              ? { kind: 'buy_get', buy: 1, get: 1, percent: 100 }
              : { kind: 'percent', percent: 1 + rand(100) };
        const target = rand(2) === 0 ? ALL : { all: false, productIds: [], categoryIds: [1 + rand(4)], brandIds: rand(2) ? [1 + rand(3)] : [] };
        return promo(k + 1, rule, { target, cap: rand(3) === 0 ? 1 + rand(300_000) : null, needsCode: rand(8) === 0 });
      });
      const product = { productId: 1, categoryIds: [1 + rand(4), 5], brandId: 1 + rand(3), unitPrice: 1 + rand(5_000_000) };
      const shown = pricesShown(promotions);
      const sale = unitSale(product, shown);
      const checkout = applyPromotions([{ ...product, quantity: 1 }], shown, NO_DELIVERY);
      expect(product.unitPrice - sale.off, JSON.stringify({ promotions, product })).toBe(checkout.lines[0]?.amount);
      expect(sale.promotion?.id ?? null).toBe(checkout.applied[0]?.promotionId ?? null);
    }
  });

  it('leaves out promotions by code and those that need more than one unit', () => {
    const shown = pricesShown([
      promo(1, { kind: 'percent', percent: 50 }, { needsCode: true }),
      promo(2, { kind: 'buy_get', buy: 2, get: 1, percent: 100 }),
      promo(3, { kind: 'order_percent', percent: 10, threshold: 0 }),
      promo(4, { kind: 'percent', percent: 15 }, { cap: 1_000_00 }),
    ]);
    expect(shown.map((p) => p.id)).toEqual([4]);
    expect(unitSale({ productId: 1, categoryIds: [], brandId: 1, unitPrice: 20_000_00 }, shown)).toEqual({ off: 1_000_00, promotion: shown[0] });
  });
});
