import { describe, expect, it } from 'vitest';
import { localeFromHeader, t } from './index.ts';
import { en } from './en.ts';
import { ru } from './ru.ts';

describe('localeFromHeader', () => {
  it('defaults to Russian', () => {
    expect(localeFromHeader(null)).toBe('ru');
    expect(localeFromHeader('')).toBe('ru');
    expect(localeFromHeader('de-DE,fr;q=0.8')).toBe('ru');
    expect(localeFromHeader('ru')).toBe('ru');
  });
  it('picks English only when preferred over Russian', () => {
    expect(localeFromHeader('en-US,en;q=0.9')).toBe('en');
    expect(localeFromHeader('ru;q=0.5,en;q=0.9')).toBe('en');
    expect(localeFromHeader('ru,en;q=0.9')).toBe('ru');
    expect(localeFromHeader('en;q=abc,ru;q=0.1')).toBe('ru');
  });
});

describe('t', () => {
  it('translates, falling back to Russian for keys English lacks', () => {
    expect(t('ru', 'nav.cart')).toBe('Корзина');
    expect(t('en', 'nav.cart')).toBe('Cart');
    expect(t('en', 'meta.siteName')).toBe(ru['meta.siteName']);
  });
  it('every English key exists in Russian', () => {
    for (const key of Object.keys(en)) expect(Object.hasOwn(ru, key)).toBe(true);
  });
});
