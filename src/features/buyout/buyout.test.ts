import { describe, expect, it } from 'vitest';
import { t } from '~/lib/i18n/index.ts';
import { buyoutSchema, isCompletePhone, maskPhone, messengerLink, russianMobile, safeProductLink } from './buyout.ts';

describe('maskPhone (+7 (###) ###-##-##)', () => {
  it.each([
    ['', ''],
    ['9', '+7 (9'],
    ['999', '+7 (999)'],
    ['9991', '+7 (999) 1'],
    ['9991234567', '+7 (999) 123-45-67'],
    ['89991234567', '+7 (999) 123-45-67'],
    ['+7 999 123 45 67', '+7 (999) 123-45-67'],
    ['+7 (999) 123-45-67', '+7 (999) 123-45-67'],
    ['79991234567999', '+7 (999) 123-45-67'],
    ['abc', ''],
  ])('%j → %j', (input, masked) => {
    expect(maskPhone(input)).toBe(masked);
  });
  it('knows a complete number', () => {
    expect(isCompletePhone('+7 (999) 123-45-67')).toBe(true);
    expect(isCompletePhone('+7 (999) 123-45')).toBe(false);
  });
});

describe('buyoutSchema (spec §5)', () => {
  const valid = { name: 'Анна', phone: '+7 (999) 123-45-67', agreementPersonal: true, agreementPromo: true };
  it('accepts the minimum and fills the defaults', () => {
    const r = buyoutSchema.parse(valid);
    expect(r).toMatchObject({ messenger: 'telegram', description: '', product_url: '', images: [], website: '' });
  });
  it('names the field and the spec message for a short name', () => {
    const r = buyoutSchema.safeParse({ ...valid, name: 'А' });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]).toMatchObject({ path: ['name'], message: 'validation.nameMin' });
    expect(t('ru', 'validation.nameMin')).toBe('Имя должно содержать минимум 2 буквы');
  });
  it('requires a complete phone and the two agreements', () => {
    const r = buyoutSchema.safeParse({ ...valid, phone: '+7 (999) 12', agreementPromo: 'false' });
    expect(r.success).toBe(false);
    expect(r.error?.issues.map((i) => i.path[0]).sort()).toEqual(['agreementPromo', 'phone']);
  });
  it('normalises a phone typed without the mask', () => {
    expect(buyoutSchema.parse({ ...valid, phone: '8 999 123 45 67' }).phone).toBe('+7 (999) 123-45-67');
  });
  it('rejects an unknown messenger', () => {
    expect(buyoutSchema.safeParse({ ...valid, messenger: 'icq' }).success).toBe(false);
  });
});

describe('russianMobile: the buyout phone is a Russian mobile, never cut to fit', () => {
  it.each([
    ['+7 (999) 123-45-67', '+7 (999) 123-45-67'],
    ['8 999 123 45 67', '+7 (999) 123-45-67'],
    ['79991234567', '+7 (999) 123-45-67'],
    ['9991234567', '+7 (999) 123-45-67'],
    ['+1 202 555 0100', null],
    ['00000000000', null],
    ['+7 (495) 123-45-67', null],
    ['+7 999 123 45 678', null],
    ['999123456', null],
    ['+79991234567999', null],
  ])('%j → %j', (typed, phone) => {
    expect(russianMobile(typed)).toBe(phone);
  });
});

describe('names need two letters (spec §5)', () => {
  const valid = { phone: '+7 (999) 123-45-67', agreementPersonal: true, agreementPromo: true };
  it.each([
    ['Ян', true],
    ['Li', true],
    ['😀😀', false],
    ['Я😀', false],
    ['\u0301\u0301', false],
    ['12', false],
  ])('%j passes: %s', (name, ok) => {
    expect(buyoutSchema.safeParse({ ...valid, name }).success).toBe(ok);
  });
});

describe('the console’s links (issue 24)', () => {
  it('open a chat with the phone in the chosen messenger', () => {
    expect(messengerLink('telegram', '+7 (912) 345-67-89')).toBe('https://t.me/+79123456789');
    expect(messengerLink('whatsApp', '+7 (912) 345-67-89')).toBe('https://wa.me/79123456789');
    expect(messengerLink('viber', '+7 (912) 345-67-89')).toBe('viber://chat?number=%2B79123456789');
    expect(messengerLink('telegram', '+7 (9')).toBeNull();
  });

  it('make a link of the visitor’s text only when a browser may open it safely', () => {
    expect(safeProductLink(' https://www.farfetch.com/item-1.aspx ')).toBe('https://www.farfetch.com/item-1.aspx');
    for (const text of ['javascript:alert(1)', 'data:text/html,<script>', 'vbscript:x', 'www.example.com', 'сумка гермес', 'file:///etc/passwd'])
      expect(safeProductLink(text), text).toBeNull();
  });
});
