import { expect, it } from 'vitest';
import { badgeText } from './badge.ts';

it('shows the count, 9+ from ten on, nothing for zero', () => {
  expect(badgeText(0)).toBe('');
  expect(badgeText(1)).toBe('1');
  expect(badgeText(9)).toBe('9');
  expect(badgeText(10)).toBe('9+');
  expect(badgeText(250)).toBe('9+');
});
