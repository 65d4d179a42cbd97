// The public forms' endpoints (issue 3): buyout request and newsletter, over real HTTP.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { shared } from '../support/shared-shop.ts';
import { api } from '../support/api.ts';
import { rawRequest } from '../support/http.ts';

const BUYOUT = '/api/v1/ecommerce-core/redemption-request/';
const valid = {
  name: 'Анна Смирнова',
  phone: '+7 (999) 123-45-67',
  messenger: 'whatsApp',
  description: 'Сумка Jackie 1961, <script>alert("x")</script> цвет чёрный',
  product_url: 'https://example.com/bag',
  agreementPersonal: true,
  agreementPromo: true,
};
const json = (body: unknown) => ({ method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });

function outbox(): { name: string; text: string }[] {
  const dir = join(shared().dataDir, 'outbox');
  try {
    return readdirSync(dir)
      .sort()
      .map((name) => ({ name, text: readFileSync(join(dir, name), 'utf8') }));
  } catch {
    return [];
  }
}

describe('POST /api/v1/ecommerce-core/redemption-request/', () => {
  it('stores a valid request and e-mails the managers, with the visitor’s HTML escaped', async () => {
    const before = outbox().length;
    const { status, body } = await api<{ id: number }>(BUYOUT, json(valid));
    expect(status).toBe(201);
    expect(body.success).toBe(true);
    expect(body.data?.id).toBeGreaterThan(0);
    const mails = outbox();
    expect(mails.length).toBe(before + 1);
    const mail = mails.at(-1)!.text;
    expect(mail).toContain('To: managers@brandshop.local');
    expect(mail).toMatch(/Subject: =\?UTF-8\?|Subject: Заявка на выкуп/);
    expect(mail).toContain('&lt;script&gt;');
    expect(mail).not.toMatch(/<td>[^<]*<script>/);
  });

  it('accepts a form post with the phone typed without the mask', async () => {
    const form = new URLSearchParams({ name: 'Иван', phone: '8 916 555 44 33', agreementPersonal: 'true', agreementPromo: 'on' });
    const { status } = await api(BUYOUT, { method: 'POST', body: form });
    expect(status).toBe(201);
  });

  it('puts field errors under data.data (spec §7) and under errors', async () => {
    const { status, body } = await api<{ data: Record<string, string[]> }>(BUYOUT, json({ ...valid, name: 'А', phone: '+7 (999) 12' }));
    expect(status).toBe(422);
    expect(body.success).toBe(false);
    expect(body.data?.data['name']).toEqual(['Имя должно содержать минимум 2 буквы']);
    expect(body.data?.data['phone']).toEqual(['Введите номер телефона полностью']);
    expect(body.errors?.['name']).toEqual(['Имя должно содержать минимум 2 буквы']);
  });

  it.each([
    ['missing name and phone', {}],
    ['wrong types', { name: 42, phone: true, messenger: 'icq', agreementPersonal: 'maybe' }],
    ['a huge description', { ...valid, description: 'я'.repeat(6000) }],
    ['an agreement not given', { ...valid, agreementPersonal: false }],
    ['images that are not urls', { ...valid, images: [{ url: 'javascript:alert(1)' }] }],
  ])('answers 422, never 500, for %s', async (_label, payload) => {
    const { status, body } = await api(BUYOUT, json(payload));
    expect(status).toBe(422);
    expect(body.success).toBe(false);
  });

  it('answers 400 for a body that is not JSON and 413 for one over 1 MB', async () => {
    expect((await api(BUYOUT, { method: 'POST', body: '{"name":', headers: { 'content-type': 'application/json' } })).status).toBe(400);
    // Declared over the limit: refused before the body is read, and the connection closed (a raw request,
    // since fetch may still be writing the body when the answer comes and fail with EPIPE).
    const big = await rawRequest('POST', BUYOUT, { headers: { 'content-type': 'application/json', 'content-length': '1100000' }, body: '{}' });
    expect(big.status).toBe(413);
  });

  it('quietly drops a request whose honeypot is filled', async () => {
    const before = outbox().length;
    const { status, body } = await api<{ id: number | null }>(BUYOUT, json({ ...valid, website: 'http://spam' }));
    expect(status).toBe(201);
    expect(body.data?.id).toBeNull();
    expect(outbox().length).toBe(before);
  });

  it('limits requests per IP with a 429 and Retry-After', async () => {
    let last = await api(BUYOUT, json(valid));
    for (let i = 0; i < 6 && last.status !== 429; i++) last = await api(BUYOUT, json(valid));
    expect(last.status).toBe(429);
    expect(last.body.message).toBe('Слишком много запросов. Попробуйте позже');
    expect(Number(last.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});

describe('POST /api/v1/ecommerce-core/newsletter/subscribe', () => {
  const url = '/api/v1/ecommerce-core/newsletter/subscribe';
  it('subscribes once; the same address in another case is not a second subscriber', async () => {
    const first = await api<{ email: string; created: boolean }>(url, json({ email: 'Olga@Example.ru' }));
    expect(first.status).toBe(201);
    expect(first.body.data).toEqual({ email: 'Olga@Example.ru', subscribed: true, created: true });
    const again = await api<{ created: boolean }>(url, json({ email: 'olga@example.ru' }));
    expect(again.status).toBe(200);
    expect(again.body.data?.created).toBe(false);
  });

  it.each([
    ['', 'Обязательное поле'],
    ['not-an-email', 'Email не валиден'],
    [`${'a'.repeat(300)}@x.ru`, 'Email не валиден'],
  ])('rejects %j with %s', async (email, message) => {
    const { status, body } = await api(url, json({ email }));
    expect(status).toBe(422);
    expect(body.errors?.['email']).toEqual([message]);
  });

  it('answers 422 for a wrong type', async () => {
    expect((await api(url, json({ email: ['a@b.ru'] }))).status).toBe(422);
  });
});

describe('validation messages come from one place, in the caller’s language', () => {
  const post = (body: unknown, language = 'ru') =>
    api<{ data: Record<string, string[]> }>(BUYOUT, { ...json(body), headers: { 'content-type': 'application/json', 'accept-language': language } });

  it('a missing field is required, a wrong type says what was expected', async () => {
    const { status, body } = await post({ name: 123, phone: ['+7 999 123 45 67'], messenger: 'telegram', agreementPersonal: 'maybe' });
    expect(status).toBe(422);
    expect(body.errors).toMatchObject({ name: ['Ожидается текст'], phone: ['Ожидается текст'], agreementPromo: ['Обязательное поле'] });
    expect(JSON.stringify(body.errors)).not.toMatch(/string|undefined|number/);
  });

  it('an English client reads the same in English', async () => {
    const { body } = await post({ name: 123 }, 'en');
    expect(body.errors).toMatchObject({ name: ['Text expected'], phone: ['Field is required'] });
  });

  it.each([
    ['+1 202 555 0100', 'Введите российский мобильный номер: +7 (9XX) XXX-XX-XX'],
    ['00000000000', 'Введите российский мобильный номер: +7 (9XX) XXX-XX-XX'],
    ['+7 (495) 123-45-67', 'Введите российский мобильный номер: +7 (9XX) XXX-XX-XX'],
    ['+7 (999) 12', 'Введите номер телефона полностью'],
  ])('the phone %j is refused: %s', async (phone, message) => {
    const { status, body } = await post({ ...valid, phone });
    expect(status).toBe(422);
    expect(body.errors?.['phone']).toEqual([message]);
  });

  it.each(['😀😀', 'А\u0301\u0301'])('a name %j without two letters is refused', async (name) => {
    const { body } = await post({ ...valid, name });
    expect(body.errors?.['name']).toEqual(['Имя должно содержать минимум 2 буквы']);
  });
});
