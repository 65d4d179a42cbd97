import { describe, expect, it } from 'vitest';
import { z } from '../zod.ts';
import { fieldErrors, nestedDeeperThan } from './endpoint.ts';
import { searchParamsToObject } from './search-params.ts';

describe('fieldErrors', () => {
  it('groups messages by dotted path, with "_" for the root', () => {
    const schema = z.object({ name: z.string().min(2, 'short'), address: z.object({ city: z.string() }) });
    const result = schema.safeParse({ name: 'a', address: { city: 5 } });
    expect(result.success).toBe(false);
    if (!result.success) {
      const errors = fieldErrors(result.error);
      expect(errors['name']).toEqual(['short']);
      expect(errors['address.city']).toHaveLength(1);
    }
    const root = z.string().safeParse(1);
    if (!root.success) expect(Object.keys(fieldErrors(root.error))).toEqual(['_']);
  });
});

it('searchParamsToObject keeps single values as strings and repeated ones as arrays', () => {
  expect(searchParamsToObject(new URLSearchParams('a=1&b=2&b=3'))).toEqual({ a: '1', b: ['2', '3'] });
});

it('nestedDeeperThan counts levels of arrays and objects, without recursing', () => {
  expect(nestedDeeperThan({ a: [{ b: 1 }] }, 3)).toBe(false);
  expect(nestedDeeperThan({ a: [{ b: [] }] }, 3)).toBe(true);
  expect(nestedDeeperThan('text', 0)).toBe(false);
  const deep = JSON.parse('['.repeat(100_000) + ']'.repeat(100_000)) as unknown;
  expect(nestedDeeperThan(deep, 32)).toBe(true);
});
