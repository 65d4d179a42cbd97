import { describe, expect, it } from 'vitest';
import { discountPercent, formatPrice } from './format.ts';

describe('formatPrice', () => {
  it('formats kopecks as whole roubles in ru-RU with the rouble sign', () => {
    expect(formatPrice(1_234_500).replace(/\s/g, ' ')).toBe('12 345 ₽');
    expect(formatPrice(99_900).replace(/\s/g, ' ')).toBe('999 ₽');
  });
  it('keeps kopecks when there are any', () => {
    expect(formatPrice(12_350).replace(/\s/g, ' ')).toBe('123,5 ₽');
  });
});

describe('discountPercent (spec §3)', () => {
  it('is the rounded percent between old and current price', () => {
    expect(discountPercent(7000, 10000)).toBe(30);
    expect(discountPercent(6667, 10000)).toBe(33);
  });
  it('is 0 without a positive old price, or when the old price is not higher', () => {
    expect(discountPercent(5000, null)).toBe(0);
    expect(discountPercent(5000, 0)).toBe(0);
    expect(discountPercent(5000, -10)).toBe(0);
    expect(discountPercent(5000, 4000)).toBe(0);
  });
});
