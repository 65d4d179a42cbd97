import { expect, it } from 'vitest';
import { otherLayout } from './keyboard.ts';

it.each([
  ['ghflf', 'прада'],
  ['vjyrkth', 'монклер'],
  ['uexxb', 'гуччи'],
  ['ckfyws', 'сланцы'],
  ['прада', 'ghflf'],
  ['ещьыщт', 'tomson'],
  ['42', '42'],
])('%s typed in the other layout reads %s', (typed, meant) => expect(otherLayout(typed)).toBe(meant));
