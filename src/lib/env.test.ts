import { describe, expect, it } from 'vitest';
import { parseEnv } from './env.ts';

describe('parseEnv', () => {
  it('fills defaults for a bare machine', () => {
    const env = parseEnv({});
    expect(env.DATA_DIR).toBe('./data');
    expect(env.SEED_PRODUCTS).toBe(2000);
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.AUTO_MIGRATE).toBe(true);
  });
  it('treats empty strings as unset', () => {
    expect(parseEnv({ DATABASE_URL: '' }).DATABASE_URL).toBeUndefined();
  });
  it('rejects a malformed DATABASE_URL with the variable named', () => {
    expect(() => parseEnv({ DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL/);
  });
  it('refuses to run in production without a payment secret', () => {
    expect(() => parseEnv({ NODE_ENV: 'production' })).toThrow(/PAYMENT_SECRET/);
    expect(parseEnv({ NODE_ENV: 'production', PAYMENT_SECRET: 'x'.repeat(32) }).PAYMENT_SECRET).toHaveLength(32);
  });
});
