// Shoppers' personal data on request (152-ФЗ, issue 54) over real HTTP on the built server: consents
// recorded with the policy's version at registration, checkout, the buyout request and the newsletter; the
// data as a file (API and the dashboard's link); the account deleted with the password — and hostile tries
// (a wrong password, another's token, a replay, an order on its way) that erase nothing; marketing consent
// withdrawn from the dashboard and from a mail's footer (the signed link and the one-click POST); a guest's
// request through the console.
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/lib/db/client.ts';
import { env } from '../../src/lib/env.ts';
import { expectConforms } from '../support/api.ts';
import type { FreshDatabase } from '../support/fresh-database.ts';
import { inStock, type InStock } from '../support/in-stock.ts';
import { readOutbox, waitForMail } from '../support/mail.ts';
import { sendBuyoutRequest, signedInOperator, Visitor } from '../support/ops.ts';
import { seededDatabase } from '../support/seeded-database.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

const API = '/api/v1/ecommerce-core';
const PASSWORD = 'мои данные — мои правила';
let fresh: FreshDatabase;
let shop: TestServer;
let items: InStock[];
// What the tests leave for the last one to find in the database, read once the shop has stopped (PGlite is
// one process's database).
const later: { deleted?: { id: number; email: string; code: string; total: number }; consents?: { id: number; email: string; code: string; phone: string } } =
  {};

beforeAll(async () => {
  // The test's own database, left by the shop when it stops, so that the last test can read it.
  fresh = await seededDatabase('privacy', { seedProducts: 200, seed: env().SEED });
  shop = await startTestServer({ database: fresh, seedProducts: 200 });
  items = await inStock(shop.baseUrl, 3);
}, 120_000);
afterAll(async () => {
  await shop?.stop();
  await fresh?.drop();
});

async function call<T>(path: string, init: { method?: string; body?: unknown; token?: string; headers?: Record<string, string> } = {}) {
  const res = await fetch(shop.baseUrl + path, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers: {
      'accept-language': 'ru',
      ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
      ...init.headers,
    },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  const body = (await res.json()) as { success: boolean; data?: T; message?: string; errors?: Record<string, string[]> };
  await expectConforms(shop.baseUrl, init.method ?? (init.body === undefined ? 'GET' : 'POST'), path, res.status, body);
  return { status: res.status, body, headers: res.headers };
}

async function customer(label: string): Promise<{ token: string; email: string; id: number }> {
  const email = `${label}.${randomBytes(4).toString('hex')}@example.ru`;
  const res = await call<{ access_token: string; user: { id: number } }>(`${API}/auth/customer-registration`, {
    body: { email, phone: '+7 (921) 555-44-33', password: PASSWORD },
  });
  expect(res.status).toBe(201);
  return { token: res.body.data!.access_token, email, id: res.body.data!.user.id };
}

/** The console as an admin (signed in once). */
let adminVisitor: Visitor | undefined;
const admin = async () => (adminVisitor ??= (await signedInOperator(shop, `privacy.admin.${Date.now()}@shop.ru`, 'admin')).visitor);
/** What the console finds of an address (and a phone): its counts line by line. */
const lookup = async (email: string, phone = '') => (await (await admin()).go(`/ops/privacy?${new URLSearchParams({ email, phone })}`)).html;

/** A customer's order from the cart, placed (and not paid: it waits). */
async function order(token: string, item: InStock): Promise<string> {
  await call(`${API}/customer/cart/store-cart-item`, {
    token,
    body: { item: { id: item.id, variant_code: item.variant_code, quantity: 1, uid: randomUUID() } },
  });
  const placed = await call<{ code: string }>(`${API}/checkout/place-order`, {
    token,
    headers: { 'idempotency-key': randomUUID() },
    body: {
      contact: { name: 'Зоя Данных', email: 'zoya.data@example.ru', phone: '+7 (921) 555-44-33' },
      delivery: { method: 'courier', city: 'Казань', address: 'ул. Баумана, 7, кв. 3' },
      payment: 'card',
    },
  });
  expect(placed.status).toBe(201);
  return placed.body.data!.code;
}

describe('consents', () => {
  it('are recorded with the policy text’s version at registration, checkout, the buyout request and the newsletter', async () => {
    const { id, email, token } = await customer('consent');
    const code = await order(token, items[0]!);
    await call(`${API}/newsletter/subscribe`, { body: { email } });
    const phone = `+7 (999) ${String(100 + Math.floor(Math.random() * 800))}-11-22`;
    expect((await sendBuyoutRequest(shop.baseUrl, { phone, agreementPromo: true })).status).toBe(201);
    // As the customer's own file shows them.
    const mine = (
      await call<{ consents: { purpose: string; source: string; given: boolean; policy_version: string }[] }>(`${API}/customer/personal-data`, { token })
    ).body.data!.consents;
    expect(mine.map((c) => [c.purpose, c.source, c.given])).toEqual([
      ['personal_data', 'registration', true],
      ['personal_data', 'checkout', true],
      ['marketing', 'newsletter', true],
    ]);
    for (const c of mine) expect(c.policy_version).toMatch(/^sha256:[0-9a-f]{12}$/);
    // The buyout request's two boxes, found by its phone in the console.
    expect(await lookup(`nobody.${randomBytes(3).toString('hex')}@example.ru`, phone)).toContain('Записей о согласиях: 2');
    later.consents = { id, email, code, phone };
    // The checkout says what placing the order consents to.
    const page = await fetch(`${shop.baseUrl}/checkout`).then((r) => r.text());
    expect(page).toContain('Оформляя заказ, вы соглашаетесь с');
  });
});

describe('the data as a file', () => {
  it('gives the customer everything the shop holds about them — and only theirs', async () => {
    const me = await customer('export');
    const other = await customer('stranger');
    await call(`${API}/customer/addresses`, {
      token: me.token,
      body: { recipient: 'Зоя Данных', phone: '+7 (921) 555-44-33', city: 'Казань', street: 'ул. Баумана', house: '7', apartment: '3', postcode: '420111' },
    });
    await call(`${API}/customer/store-product-to-wishlist`, { token: me.token, body: { product_id: items[1]!.id } });
    const code = await order(me.token, items[0]!);
    await order(other.token, items[1]!);

    const answer = await call<Record<string, unknown>>(`${API}/customer/personal-data`, { token: me.token });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('cache-control')).toBe('private, no-store');
    const data = answer.body.data!;
    expect(data['profile']).toMatchObject({ email: me.email, phone: '+7 (921) 555-44-33' });
    expect(data['addresses']).toEqual([expect.objectContaining({ city: 'Казань', street: 'ул. Баумана', house: '7' })]);
    expect((data['orders'] as { code: string; lines: unknown[] }[]).map((o) => o.code)).toEqual([code]);
    expect((data['orders'] as { lines: unknown[] }[])[0]?.lines).toHaveLength(1);
    expect(data['wishlist']).toHaveLength(1);
    expect((data['consents'] as { source: string }[]).map((c) => c.source)).toEqual(['registration', 'checkout']);
    expect(JSON.stringify(data)).not.toContain(other.email);

    // The dashboard's link: the same, as a file, by the session cookie; a guest is sent away.
    const file = await fetch(`${shop.baseUrl}/dashboard/personal-data`, { headers: { cookie: `bs_session=${me.token}` }, redirect: 'manual' });
    expect(file.status).toBe(200);
    expect(file.headers.get('content-disposition')).toMatch(/^attachment; filename="brandshop-personal-data-\d{4}-\d{2}-\d{2}\.json"$/);
    expect((JSON.parse(await file.text()) as { profile: { email: string } }).profile.email).toBe(me.email);
    expect((await fetch(`${shop.baseUrl}/dashboard/personal-data`, { redirect: 'manual' })).status).toBe(302);
    expect((await call(`${API}/customer/personal-data`)).status).toBe(401);
    expect((await call(`${API}/customer/personal-data`, { token: 'x'.repeat(43) })).status).toBe(401);
    // The profile page offers it, and the account's deletion.
    const profile = await fetch(`${shop.baseUrl}/dashboard/profile`, { headers: { cookie: `bs_session=${me.token}` } }).then((r) => r.text());
    expect(profile).toContain('href="/dashboard/personal-data"');
    expect(profile).toContain('Удалить аккаунт');
  });
});

describe('deleting the account', () => {
  const remove = (token: string | undefined, body: unknown) => call<{ deleted: true }>(`${API}/customer/delete-account`, { ...(token ? { token } : {}), body });
  const stillThere = async (me: { token: string; email: string }) => {
    const info = await call<{ email: string }>(`${API}/customer/customer-basic-info`, { token: me.token });
    expect(info.status).toBe(200);
    expect(info.body.data?.email).toBe(me.email);
  };

  it.each([
    ['a wrong password', { password: 'не тот пароль' }],
    ['no password', {}],
    ['a password of 10 KB', { password: 'я'.repeat(10_000) }],
    ['a password with a NUL', { password: `${PASSWORD}\u0000` }],
    ['a password as a number', { password: 12345678 }],
  ])('%s: 422 with the reason, and nothing is erased', async (_name, body) => {
    const me = await customer('hostile');
    const answer = await remove(me.token, body);
    expect(answer.status).toBe(422);
    expect(answer.body.success).toBe(false);
    expect(answer.body.message).toMatch(/[а-я]/);
    await stillThere(me);
  });

  it('says a wrong password in the field, and stops guessing after five tries (429)', async () => {
    const me = await customer('guess');
    const first = await remove(me.token, { password: 'не тот пароль' });
    expect(first.body.errors?.['password']).toEqual(['Неверный пароль']);
    for (let i = 0; i < 4; i++) await remove(me.token, { password: `неверно ${i}` });
    expect((await remove(me.token, { password: PASSWORD })).status).toBe(429);
    await stillThere(me);
  });

  it('without a Bearer token (a cookie alone) is a 401, and another customer’s token deletes only that customer', async () => {
    const me = await customer('cookie');
    const res = await fetch(`${shop.baseUrl}${API}/customer/delete-account`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: `bs_session=${me.token}` },
      body: JSON.stringify({ password: PASSWORD }),
    });
    expect(res.status).toBe(401);
    await stillThere(me);
    // A stranger's token with my password: the stranger's account is asked, and my password is not theirs.
    const stranger = await customer('cookie-stranger');
    expect((await remove(stranger.token, { password: `${PASSWORD}!` })).status).toBe(422);
    await stillThere(me);
    await stillThere(stranger);
  });

  it('waits while an order is on its way (409), then erases the person and keeps the orders for accounting without them', async () => {
    const me = await customer('leaving');
    await call(`${API}/customer/addresses`, {
      token: me.token,
      body: { recipient: 'Зоя Данных', phone: '+7 (921) 555-44-33', city: 'Казань', street: 'ул. Баумана', house: '7', postcode: '420111' },
    });
    await call(`${API}/newsletter/subscribe`, { body: { email: me.email } });
    await call(`${API}/customer/store-product-to-wishlist`, { token: me.token, body: { product_id: items[2]!.id } });
    const code = await order(me.token, items[0]!);
    const open = await remove(me.token, { password: PASSWORD });
    expect(open.status).toBe(409);
    expect(open.body.message).toContain('Пока заказ в пути');
    await stillThere(me);
    // Cancelled (nothing left to deliver): now it may go.
    expect((await call(`${API}/customer/orders/${code}/cancel`, { token: me.token, body: {} })).status).toBe(200);
    const total = (await call<{ total: number }>(`${API}/customer/orders/${code}`, { token: me.token })).body.data!.total;

    const done = await remove(me.token, { password: PASSWORD });
    expect(done.status).toBe(200);
    expect(done.body.message).toBe('Аккаунт удалён');
    expect(done.headers.get('set-cookie')).toMatch(/^bs_session=; Path=\/; Max-Age=0/);
    later.deleted = { id: me.id, email: me.email, code, total };

    // A replay, the old token, the old password: nothing.
    expect((await remove(me.token, { password: PASSWORD })).status).toBe(401);
    expect((await call(`${API}/customer/customer-basic-info`, { token: me.token })).status).toBe(401);
    expect((await call(`${API}/auth/customer-login`, { body: { email: me.email, password: PASSWORD } })).status).toBe(401);
    // The console sees the order without the person, and the newsletter without the address.
    const page = await (await admin()).go(`/ops/orders/${code}`);
    expect(page.status).toBe(200);
    expect(page.html).not.toContain(me.email);
    expect(page.html).not.toContain('Зоя Данных');
    expect(await lookup(me.email)).toContain('Подписок на рассылку: 0');
    // The address is free: the person may come back as a new customer.
    expect((await call(`${API}/auth/customer-registration`, { body: { email: me.email, phone: '+7 (921) 555-44-33', password: PASSWORD } })).status).toBe(201);
  });
});

describe('marketing consent', () => {
  it('is given and withdrawn from the dashboard, once each however many times it is asked', async () => {
    const me = await customer('letters');
    for (const subscribed of [true, true, false, false]) {
      const answer = await call<{ subscribed: boolean }>(`${API}/customer/marketing`, { token: me.token, body: { subscribed } });
      expect(answer.body.data).toEqual({ subscribed });
    }
    const consents = (await call<{ consents: { purpose: string; given: boolean; source: string }[] }>(`${API}/customer/personal-data`, { token: me.token }))
      .body.data!.consents;
    expect(consents.filter((c) => c.purpose === 'marketing').map((c) => [c.given, c.source])).toEqual([
      [true, 'dashboard'],
      [false, 'dashboard'],
    ]);
    expect((await call(`${API}/customer/marketing`, { token: me.token, body: { subscribed: 'maybe' } })).status).toBe(422);
    expect((await call(`${API}/customer/marketing`, { body: { subscribed: true } })).status).toBe(401);
  });

  it('is withdrawn by the signed link in every mail’s footer: the page asks, the form withdraws, a forged link changes nothing', async () => {
    const me = await customer('footer');
    await call(`${API}/newsletter/subscribe`, { body: { email: me.email } });
    // The welcome mail ends with the link, and names it for mail programs (RFC 8058).
    const mail = await waitForMail(shop.database.dataDir, me.email);
    const link = /https?:\/\/[^\s"<>]+\/unsubscribe\?email=[^\s"<>]+/.exec(mail.body)?.[0]?.replace(/&amp;/g, '&') ?? '';
    // (The outbox reader decodes the mail's quoted-printable text, %40 included.)
    expect(new URL(link || 'http://x').searchParams.get('email')).toBe(me.email);
    expect(mail.raw).toMatch(/^List-Unsubscribe:\s+<http[^>]+\/api\/v1\/ecommerce-core\/newsletter\/unsubscribe\?email=/m);
    expect(mail.raw).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click/m);
    const url = new URL(link);
    const signature = url.searchParams.get('s') ?? '';

    // A forged signature, another's address with this signature, none, a NUL: the page says so; the API refuses.
    for (const [email, s] of [
      [me.email, 'A'.repeat(32)],
      [`x${me.email}`, signature],
      [me.email, ''],
      [`${me.email}\u0000`, signature],
    ] as const) {
      const page = await fetch(`${shop.baseUrl}/unsubscribe?${new URLSearchParams({ email, s })}`);
      expect([400, 403, 422]).toContain(page.status);
      const api = await fetch(`${shop.baseUrl}${API}/newsletter/unsubscribe?${new URLSearchParams({ email, s })}`, { method: 'POST' });
      expect([403, 422]).toContain(api.status);
    }
    const subscriptions = async () =>
      (await call<{ newsletter: unknown[] }>(`${API}/customer/personal-data`, { token: me.token })).body.data!.newsletter.length;
    expect(await subscriptions()).toBe(1);

    const page = await fetch(`${shop.baseUrl}${url.pathname}?${new URLSearchParams({ email: me.email, s: signature })}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('cache-control')).toBe('private, no-store');
    expect(await page.text()).toContain(`Больше не присылать письма о новинках и акциях на ${me.email}?`);
    // The page's own form, as a browser without scripts sends it.
    const sent = await fetch(`${shop.baseUrl}${API}/newsletter/unsubscribe`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ email: me.email, s: signature }).toString(),
      redirect: 'manual',
    });
    expect(sent.status).toBe(303);
    expect(sent.headers.get('location')).toBe('/unsubscribe?done=1');
    expect(await fetch(`${shop.baseUrl}/unsubscribe?done=1`).then((r) => r.text())).toContain('Готово: писем о новинках и акциях больше не будет.');
    expect(await subscriptions()).toBe(0);
    // A mail program's one-click POST, again: changes nothing more.
    const again = await fetch(`${shop.baseUrl}${API}/newsletter/unsubscribe?${new URLSearchParams({ email: me.email, s: signature })}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(again.status).toBe(200);
    const consents = (await call<{ consents: { purpose: string; given: boolean; source: string }[] }>(`${API}/customer/personal-data`, { token: me.token }))
      .body.data!.consents;
    expect(consents.filter((c) => c.purpose === 'marketing').map((c) => [c.given, c.source])).toEqual([
      [true, 'newsletter'],
      [false, 'mail'],
    ]);
    // The managers' own mail carries no such footer.
    const managers = readOutbox(shop.database.dataDir).filter((m) => m.to.includes('managers@'));
    expect(managers.length).toBeGreaterThan(0);
    for (const m of managers) expect(m.body).not.toContain('/unsubscribe?');
  });
});

describe('a guest’s request through the console', () => {
  it('finds, gives as a file and erases a guest’s data; refuses a customer’s address, a wrong confirmation and managers', async () => {
    const visitor = await admin();
    const email = `guest.${randomBytes(4).toString('hex')}@example.ru`;
    const placed = await call<{ code: string }>(`${API}/checkout/place-order`, {
      headers: { 'idempotency-key': randomUUID() },
      body: {
        items: [{ id: items[0]!.id, quantity: 1, variant_code: items[0]!.variant_code }],
        contact: { name: 'Гостья Запросова', email, phone: '+7 (921) 555-00-11' },
        delivery: { method: 'courier', city: 'Казань', address: 'ул. Пушкина, 1' },
        payment: 'card',
      },
    });
    const code = placed.body.data!.code;
    await call(`${API}/newsletter/subscribe`, { body: { email } });

    const found = await visitor.go(`/ops/privacy?email=${encodeURIComponent(email)}`);
    expect(found.status).toBe(200);
    expect(found.html).toContain('Заказов: 1, из них в работе: 1');
    expect(found.html).toContain('Подписок на рассылку: 1');
    const file = await visitor.go(`/ops/privacy/export?email=${encodeURIComponent(email)}`);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-disposition')).toBe('attachment; filename="personal-data.json"');
    expect((JSON.parse(file.html) as { orders: { code: string; contact_name: string }[] }).orders).toEqual([
      expect.objectContaining({ code, contact_name: 'Гостья Запросова' }),
    ]);

    const form = (confirm: string, address = email) => ({ _csrf: Visitor.formToken(found.html), action: 'erase', email: address, phone: '', confirm });
    // The order waits for its payment: its contacts are still needed.
    const early = await visitor.go('/ops/privacy', form(email));
    expect(early.status).toBe(409);
    // The guest's order runs out of time (the manager cancels it).
    const orderPage = await visitor.go(`/ops/orders/${code}`);
    expect((await visitor.go(`/ops/orders/${code}`, { _csrf: Visitor.formToken(orderPage.html), action: 'move', status: 'cancelled' })).status).toBe(303);
    const mismatch = await visitor.go('/ops/privacy', form('someone@example.ru'));
    expect(mismatch.status).toBe(422);
    expect(mismatch.html).toContain('E-mail для подтверждения не совпадает');
    expect(await lookup(email)).toContain('Подписок на рассылку: 1');
    // Junk in the form: refused, nothing erased.
    expect((await visitor.go('/ops/privacy', { ...form(email), email: 'не адрес' })).status).toBe(422);
    expect((await visitor.go('/ops/privacy', { ...form(email), phone: '<script>' })).status).toBe(422);

    const erased = await visitor.go('/ops/privacy', form(email.toUpperCase()));
    expect(erased.status).toBe(303);
    const after = await visitor.go(`/ops/orders/${code}`);
    expect(after.html).not.toContain('Гостья Запросова');
    expect(after.html).not.toContain(email);
    expect(await lookup(email)).toContain('Подписок на рассылку: 0');
    // Audited without the address.
    const log = await visitor.go('/ops/audit?object=privacy');
    expect(log.html).toContain('privacy.erase');
    expect(log.html).not.toContain(email);

    // A customer's address is theirs to delete.
    const registered = await customer('registered');
    expect(await lookup(registered.email)).toContain('Это адрес зарегистрированного покупателя');
    expect((await visitor.go('/ops/privacy', form(registered.email, registered.email))).status).toBe(409);
    const manager = (await signedInOperator(shop, `privacy.manager.${Date.now()}@shop.ru`, 'manager')).visitor;
    expect((await manager.go('/ops/privacy')).status).toBe(403);
    expect((await manager.go(`/ops/privacy/export?email=${encodeURIComponent(email)}`)).status).toBe(403);
  });
});

describe('what the database keeps (read once the shop has stopped)', () => {
  let db: Database | undefined;
  afterAll(async () => {
    await db?.close();
  });

  it('a deleted customer: nothing personal in the row, the sessions, addresses, cart, wishlist, newsletter and mail gone, the order and the consents kept without the person', async () => {
    await shop.stop();
    db = await openDatabase({ databaseUrl: fresh.databaseUrl, dataDir: fresh.dataDir });
    const rows = async <T = Record<string, unknown>>(text: string, params: unknown[] = []) => (await db!.query(text, params)).rows as T[];
    const gone = later.deleted!;
    const [row] = await rows('SELECT email, phone, name, surname, patronymic, password_hash, deleted_at IS NOT NULL AS deleted FROM customers WHERE id = $1', [
      gone.id,
    ]);
    expect(row).toEqual({ email: `deleted-${gone.id}@deleted.invalid`, phone: '', name: '', surname: '', patronymic: '', password_hash: '!', deleted: true });
    for (const table of ['customer_addresses', 'sessions', 'wishlist_items', 'carts', 'password_resets'])
      expect(await rows(`SELECT 1 FROM ${table} WHERE customer_id = $1`, [gone.id]), table).toEqual([]);
    expect(
      await rows(`SELECT 1 FROM mail_outbox WHERE lower("to") = $1 AND created_at < (SELECT deleted_at FROM customers WHERE id = $2)`, [gone.email, gone.id]),
    ).toEqual([]);
    const [kept] = await rows('SELECT contact_name, contact_email, contact_phone, delivery_address, total FROM orders WHERE code = $1', [gone.code]);
    expect(kept).toEqual({
      contact_name: '',
      contact_email: '',
      contact_phone: '',
      delivery_address: { city: '', address: '', postcode: '', comment: '' },
      total: gone.total,
    });
    const consents = await rows<{ purpose: string; given: boolean; email: string | null; phone: string | null }>(
      'SELECT purpose, given, email, phone FROM consents WHERE customer_id = $1 ORDER BY id',
      [gone.id],
    );
    expect(consents.map((c) => [c.purpose, c.given])).toEqual([
      ['personal_data', true],
      ['personal_data', true],
      ['personal_data', false],
      ['marketing', false],
    ]);
    expect(consents.every((c) => c.email === null && c.phone === null)).toBe(true);
    // A consent given at checkout names its order, and every row the policy's version.
    const given = later.consents!;
    const [checkout] = await rows<{ code: string; policy_version: string }>(
      `SELECT o.code, c.policy_version FROM consents c JOIN orders o ON o.id = c.order_id WHERE c.customer_id = $1 AND c.source = 'checkout'`,
      [given.id],
    );
    expect(checkout?.code).toBe(given.code);
    expect(checkout?.policy_version).toMatch(/^sha256:[0-9a-f]{12}$/);
    const buyout = await rows<{ purpose: string; given: boolean }>(`SELECT purpose, given FROM consents WHERE phone = $1 AND source = 'buyout' ORDER BY id`, [
      given.phone,
    ]);
    expect(buyout).toEqual([
      { purpose: 'personal_data', given: true },
      { purpose: 'marketing', given: true },
    ]);
  });
});
