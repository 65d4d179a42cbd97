import { describe, expect, it } from 'vitest';
import { cardDigits, cardScheme, expiryValid, luhnValid, TEST_CARDS } from './payments.ts';
import { apportion, receiptLines, receiptTotal, settlementLines } from './receipt.ts';
import { receiptItem, toKopecks, toValue } from './yookassa.server.ts';

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

describe('the settlement receipt of marked goods (issue 39)', () => {
  const GS = '\u001d';
  const code = (serial: string) => `010460123456789321${serial}${GS}91EE06${GS}92${'A'.repeat(44)}`;
  const source = (deducted: number) => ({
    lines: [
      { id: 7, name: 'Shoes', brand: 'B', variant: '38', unit_price: 3_333_33, quantity: 3 },
      { id: 8, name: 'Scarf', brand: 'B', variant: 'One', unit_price: 1_000_00, quantity: 2 },
    ],
    delivery_price: 390_00,
    delivery_label: 'Delivery',
    deducted,
  });
  const codes = new Map([[7, [code('AAAAAAAAAAAA1'), code('AAAAAAAAAAAA2'), code('AAAAAAAAAAAA3')]]]);

  it('settles the same money as the payment, a marked unit a line with its own code, the rest as paid', () => {
    for (const deducted of [0, 1, 2_500_00, 9_000_00]) {
      const paid = receiptLines(source(deducted));
      const settled = settlementLines(source(deducted), codes);
      expect(receiptTotal(settled)).toBe(receiptTotal(paid));
      const marked = settled.filter((l) => l.subject === 'marked');
      expect(marked.map((l) => l.mark)).toEqual(codes.get(7));
      expect(marked.every((l) => l.quantity === 1 && l.description === 'B, Shoes, 38')).toBe(true);
      // The unmarked line and delivery stay as the payment's receipt had them.
      expect(settled.filter((l) => l.subject !== 'marked')).toEqual(paid.filter((l) => !l.description.includes('Shoes')));
    }
    // 99 999.99 over three units: the kopeck of remainder on the first.
    expect(
      settlementLines(source(0), codes)
        .filter((l) => l.subject === 'marked')
        .map((l) => l.unit),
    ).toEqual([3_333_33, 3_333_33, 3_333_33]);
    expect(
      settlementLines(source(1), codes)
        .filter((l) => l.subject === 'marked')
        .map((l) => l.unit),
    ).toEqual([3_333_33, 3_333_33, 3_333_32]);
  });

  it('goes to YooKassa as a piece in full payment with mark_mode 0 and its code in GS1.M base64; a prepayment carries no code', () => {
    const [unit] = settlementLines(source(0), codes);
    const item = receiptItem(unit!, 'full_payment', 4);
    expect(item).toMatchObject({
      payment_subject: 'marked',
      payment_mode: 'full_payment',
      measure: 'piece',
      mark_mode: '0',
      quantity: '1.00',
      amount: { value: '3333.33' },
    });
    expect(Buffer.from(item.mark_code_info?.gs_1m ?? '', 'base64').toString('utf8')).toBe(code('AAAAAAAAAAAA1'));
    const prepaid = receiptItem(unit!, 'full_prepayment', 4);
    expect(prepaid).toMatchObject({ payment_subject: 'commodity', payment_mode: 'full_prepayment' });
    expect(prepaid).not.toHaveProperty('mark_code_info');
    expect(receiptItem({ description: 'Delivery', quantity: 1, unit: 390_00, subject: 'service' }, 'full_payment', 4)).not.toHaveProperty('mark_mode');
  });
});

describe('a gift certificate sold (issue 56)', () => {
  it('goes to YooKassa as an advance whose subject is a payment (54-FZ tags 1214 = 3, 1212 = 10)', () => {
    const item = receiptItem({ description: 'Подарочный сертификат на 5 000 ₽', quantity: 1, unit: 5_000_00, subject: 'payment' }, 'advance', 1);
    expect(item).toEqual({
      description: 'Подарочный сертификат на 5 000 ₽',
      quantity: '1.00',
      amount: { value: '5000.00', currency: 'RUB' },
      vat_code: 1,
      payment_subject: 'payment',
      payment_mode: 'advance',
    });
  });
});
