import { describe, expect, it } from 'vitest';
import { exchangeUrl } from '~/lib/http/edge.ts';
import { checkRoot, CmlFormatError, supportedVersion } from './commerceml.server.ts';
import { encodeCp1251 } from './cp1251.ts';

describe('windows-1251 answers', () => {
  it('encodes what 1C decodes back to the same text', () => {
    const text = 'success\nЗаказ BS-00000001: Ёлка «зелёная» — 1 500 ₽ № 5';
    const bytes = encodeCp1251(text, 'xml');
    expect(new TextDecoder('windows-1251').decode(bytes)).toBe('success\nЗаказ BS-00000001: Ёлка «зелёная» — 1 500 &#8381; № 5');
    expect(encodeCp1251('Ж')).toEqual(Uint8Array.of(0xc6));
    expect(new TextDecoder('windows-1251').decode(encodeCp1251('日本 ok'))).toBe('?? ok');
  });
});

describe('schema versions', () => {
  it.each([
    ['2.03', true],
    ['2.04', true],
    ['2.07', true],
    ['2.10', true],
    ['2.02', false],
    ['2.11', false],
    ['3.1', false],
    ['', false],
  ])('%s is read: %s', (version, read) => {
    expect(supportedVersion(version)).toBe(read);
  });

  it('refuses another root or a missing version with the reason', () => {
    expect(() => checkRoot('yml_catalog', '2.08')).toThrow(CmlFormatError);
    expect(() => checkRoot('КоммерческаяИнформация', '')).toThrow(/does not say its schema version/);
    expect(() => checkRoot('КоммерческаяИнформация', '3.1')).toThrow(/CommerceML 3.1 is not supported/);
  });
});

describe('the exchange path', () => {
  it('hands the configured path to the route, and the route under its own name only when it is the one configured', () => {
    expect(exchangeUrl('/exchange/1c?type=catalog&mode=init', '/exchange/1c')).toBe('/exchange/1c?type=catalog&mode=init');
    expect(exchangeUrl('/bitrix/admin/1c_exchange.php?type=sale&mode=query', '/bitrix/admin/1c_exchange.php')).toBe('/exchange/1c?type=sale&mode=query');
    expect(exchangeUrl('/exchange/1c?type=catalog', '/bitrix/admin/1c_exchange.php')).toBe('/exchange/1c-not-here');
    expect(exchangeUrl('/c/obuv?page=2', '/bitrix/admin/1c_exchange.php')).toBe('/c/obuv?page=2');
  });
});
