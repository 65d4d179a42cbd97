import { describe, expect, it } from 'vitest';
import { cleanReferralCode, REFERRAL_STORAGE_KEY } from './partners.ts';
import { takeReferralCode } from './partners.store.ts';
import { memoryStorage } from '~/lib/memory-storage.ts';

describe('referral codes', () => {
  it('are letters and digits, 4 to 32, lower case', () => {
    expect(cleanReferralCode(' AbC123xy ')).toBe('abc123xy');
    for (const bad of ['', 'ab', 'a b c d', '<script>', 'x'.repeat(33), null, undefined]) expect(cleanReferralCode(bad)).toBeNull();
  });

  it('are sent with a registration within 30 days of the visit, once', () => {
    const storage = memoryStorage();
    const now = Date.UTC(2026, 10, 23);
    storage.setItem(REFERRAL_STORAGE_KEY, JSON.stringify({ code: 'abcd1234', at: now - 29 * 86_400_000 }));
    expect(takeReferralCode(storage, now)).toBe('abcd1234');
    expect(takeReferralCode(storage, now)).toBeNull();
    storage.setItem(REFERRAL_STORAGE_KEY, JSON.stringify({ code: 'abcd1234', at: now - 31 * 86_400_000 }));
    expect(takeReferralCode(storage, now)).toBeNull();
  });
});
