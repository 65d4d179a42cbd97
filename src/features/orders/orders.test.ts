import { describe, expect, it } from 'vitest';
import { canCancel, canReturn, ORDER_FLOW, ORDER_STATUSES, RETURN_DAYS, statusLabelKey } from './orders.ts';

describe('order rules', () => {
  it('an order can be cancelled until the shop has bought it', () => {
    expect(ORDER_FLOW.filter(canCancel)).toEqual(['pending', 'processing']);
    expect(canCancel('cancelled')).toBe(false);
  });

  it(`a delivered order can be returned for ${RETURN_DAYS} days`, () => {
    const delivered = new Date('2026-11-01T12:00:00Z');
    expect(canReturn('delivered', delivered, new Date('2026-11-15T12:00:00Z'))).toBe(true);
    expect(canReturn('delivered', delivered, new Date('2026-11-15T12:00:01Z'))).toBe(false);
    expect(canReturn('shipped', delivered, new Date('2026-11-02T00:00:00Z'))).toBe(false);
    expect(canReturn('delivered', null)).toBe(false);
  });

  it('every status has its label', () => {
    expect(new Set(ORDER_STATUSES.map(statusLabelKey)).size).toBe(ORDER_STATUSES.length);
  });
});
