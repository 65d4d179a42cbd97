// One allocation rule for the receipt and for what a carrier collects at the door (issue 55): over 100,000
// generated orders — lines, quantities, prices, points and balance, delivery, the fee for payment on
// delivery — the amounts add up to the order's total to the kopeck, are never negative, never more than
// a line's price, and say the same of each line as the receipt does.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { codFee } from './payments.on-delivery.ts';
import { collectedAmounts, paidAmounts, receiptLines, receiptTotal, type ReceiptSource } from './receipt.ts';

const line = fc.record({
  id: fc.integer({ min: 1, max: 1_000_000 }),
  name: fc.constant('Кроссовки'),
  brand: fc.constant('Nike'),
  variant: fc.constant('42'),
  unit_price: fc.integer({ min: 1, max: 50_000_000 }),
  quantity: fc.integer({ min: 1, max: 7 }),
});

const order = fc
  .record({
    lines: fc.array(line, { minLength: 1, maxLength: 8 }),
    delivery_price: fc.integer({ min: 0, max: 200_000 }),
    deductedShare: fc.double({ min: 0, max: 1, noNaN: true }),
    feePercent: fc.constantFrom(0, 1.5, 2, 3, 3.5),
  })
  .map(({ lines, delivery_price, deductedShare, feePercent }): { source: ReceiptSource; total: number } => {
    const goods = lines.reduce((s, l) => s + l.unit_price * l.quantity, 0);
    // Points and balance: any share of what is owed, up to all of it.
    const deducted = Math.floor((goods + delivery_price) * deductedShare);
    const cod_fee = codFee(goods + delivery_price - deducted, feePercent);
    return {
      source: { lines, delivery_price, delivery_label: 'Доставка', deducted, cod_fee, cod_fee_label: 'Комиссия' },
      total: goods + delivery_price - deducted + cod_fee,
    };
  });

describe('what is collected at the door and what the receipt says', () => {
  it('add up to the order’s total to the kopeck, per line the same, never negative (100,000 orders)', () => {
    // Plain comparisons inside the property (fast-check reports the first order where one is false).
    fc.assert(
      fc.property(order, ({ source, total }) => {
        const collected = collectedAmounts(source);
        const paid = paidAmounts(source);
        let sum = collected.delivery;
        const linesRight = source.lines.every((l, i) => {
          const units = collected.lines[i] ?? [];
          const amount = units.reduce((s, u) => s + u.unit * u.quantity, 0);
          sum += amount;
          return (
            units.reduce((n, u) => n + u.quantity, 0) === l.quantity && amount === paid.goods[i] && units.every((u) => u.unit >= 0 && u.unit <= l.unit_price)
          );
        });
        return linesRight && collected.delivery >= 0 && sum === total && receiptTotal(receiptLines(source)) === total;
      }),
      { numRuns: 100_000 },
    );
  }, 300_000);

  it('splits a line whose kopecks do not divide into one amount for most units and a kopeck more for the rest', () => {
    const source: ReceiptSource = {
      lines: [{ id: 1, name: 'Футболка', brand: 'A', variant: 'M', unit_price: 100_000, quantity: 3 }],
      delivery_price: 50_000,
      delivery_label: 'Доставка',
      deducted: 1_000,
      cod_fee: 3_470,
      cod_fee_label: 'Комиссия',
    };
    // 300,000 − 1,000 = 299,000 over three units: 99,667 + 99,667 + 99,666.
    expect(collectedAmounts(source)).toEqual({
      lines: [
        [
          { quantity: 2, unit: 99_667 },
          { quantity: 1, unit: 99_666 },
        ],
      ],
      delivery: 53_470,
    });
    expect(codFee(346_333, 1)).toBe(3_463);
    expect(codFee(0, 3)).toBe(0);
  });
});
