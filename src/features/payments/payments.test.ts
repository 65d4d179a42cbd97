import { describe, expect, it } from 'vitest';
import { cardDigits, cardScheme, expiryValid, luhnValid, TEST_CARDS } from './payments.ts';
import { apportion, receiptLines } from './receipt.ts';
import { toKopecks, toValue } from './yookassa.server.ts';

describe('test cards and card checks', () => {
  it('every listed test card passes the Luhn check and belongs to its scheme', () => {
    for (const card of TEST_CARDS) {
      expect(luhnValid(card.number)).toBe(true);
      expect(cardScheme(card.number)).toBe(card.scheme);
    }
  });

  it.each([
    ['4242 4242 4242 4241', false],
    ['4242-4242-4242-4242', true],
    ['1234', false],
    ['42424242424242424242', false],
  ])('Luhn %s → %s', (number, valid) => expect(luhnValid(cardDigits(number))).toBe(valid));

  it('knows Mir, Visa and both Mastercard ranges, and nothing else', () => {
    expect(cardScheme('2200000000000004')).toBe('mir');
    expect(cardScheme('2221000000000009')).toBe('mastercard');
    expect(cardScheme('5105105105105100')).toBe('mastercard');
    expect(cardScheme('378282246310005')).toBeNull();
    expect(cardScheme('6011111111111117')).toBeNull();
  });

  it('an expiry is good through the last day of its month', () => {
    const now = new Date(2026, 10, 23);
    expect(expiryValid('11/26', now)).toBe(true);
    expect(expiryValid('10/26', now)).toBe(false);
    expect(expiryValid('13/30', now)).toBe(false);
    expect(expiryValid('1230', now)).toBe(false);
  });
});

describe('54-FZ receipt lines', () => {
  const line = (name: string, unit: number, quantity: number) => ({ name, brand: 'B', variant: 'M', unit_price: unit, quantity });
  const total = (lines: ReturnType<typeof receiptLines>) => lines.reduce((s, l) => s + l.unit * l.quantity, 0);

  it('lists the goods at their price and delivery as a service of its own', () => {
    expect(receiptLines({ lines: [line('Coat', 1_000_00, 2)], delivery_price: 500_00, delivery_label: 'Delivery', deducted: 0 })).toEqual([
      { description: 'B, Coat, M', quantity: 2, unit: 1_000_00, subject: 'commodity' },
      { description: 'Delivery', quantity: 1, unit: 500_00, subject: 'service' },
    ]);
  });

  it('takes points and balance off the goods in proportion, to the kopeck, and the lines add up to what the card pays', () => {
    const lines = [line('Coat', 12_345_67, 1), line('Scarf', 3_333_33, 3)];
    for (const deducted of [1, 99, 3_703_70, 5_000_00, 22_345_00]) {
      const receipt = receiptLines({ lines, delivery_price: 500_00, delivery_label: 'Delivery', deducted });
      expect(total(receipt)).toBe(12_345_67 + 3 * 3_333_33 + 500_00 - deducted);
      expect(receipt.every((l) => l.unit > 0 && Number.isInteger(l.unit))).toBe(true);
      // Every unit is still there (a line's remainder goes on one unit of its own).
      expect(receipt.filter((l) => l.subject === 'commodity').reduce((s, l) => s + l.quantity, 0)).toBe(4);
    }
  });

  it('points beyond the goods are taken off delivery; a fully paid order has no lines', () => {
    const receipt = receiptLines({ lines: [line('Coat', 100_00, 1)], delivery_price: 500_00, delivery_label: 'Delivery', deducted: 300_00 });
    expect(receipt).toEqual([{ description: 'Delivery', quantity: 1, unit: 300_00, subject: 'service' }]);
    expect(receiptLines({ lines: [line('Coat', 100_00, 1)], delivery_price: 0, delivery_label: 'Delivery', deducted: 100_00 })).toEqual([]);
  });

  it('keeps descriptions within 128 characters', () => {
    const [first] = receiptLines({ lines: [line('x'.repeat(300), 100, 1)], delivery_price: 0, delivery_label: 'D', deducted: 0 });
    expect(first!.description).toHaveLength(128);
  });

  it('apportion splits exactly, the remainders to the largest fractions', () => {
    expect(apportion(10, [1, 1, 1])).toEqual([4, 3, 3]);
    expect(apportion(0, [5, 5])).toEqual([0, 0]);
    expect(apportion(7, [0, 0])).toEqual([0, 0]);
  });

  it('money travels to YooKassa as strings of roubles', () => {
    expect(toValue(123_45)).toBe('123.45');
    expect(toValue(5)).toBe('0.05');
    expect(toKopecks('123.4')).toBe(123_40);
    expect(toKopecks('100')).toBe(100_00);
  });
});
