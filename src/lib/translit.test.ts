import { expect, it } from 'vitest';
import { toLatin } from './translit.ts';

it.each([
  ['прада', 'prada'],
  ['гучи', 'guchi'],
  ['балансиага', 'balansiaga'],
  ['монклер', 'monkler'],
  ['Шанель', 'shanel'],
  ['prada', null],
])('%s → %s', (word, latin) => expect(toLatin(word)).toBe(latin));
