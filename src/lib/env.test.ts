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
  it('reads where the server listens, and refuses a port that is not one', () => {
    expect(parseEnv({}).PORT).toBe(4321);
    expect(parseEnv({ HOST: '0.0.0.0', PORT: '8080' })).toMatchObject({ HOST: '0.0.0.0', PORT: 8080 });
    expect(() => parseEnv({ PORT: 'http' })).toThrow(/PORT/);
  });
  it('ignores variables it does not declare instead of pretending to use them', () => {
    expect(parseEnv({ REDIS_URL: 'redis://127.0.0.1:6379' })).not.toHaveProperty('REDIS_URL');
  });
});
