// Gift certificates (issue 56, docs/promotions.md "Gift certificates") against a server of its own: bought on
// a page that needs no script, its payment an advance, mailed with its code when paid; spent in part or in
// full, several on one order, each refusal with its reason; never below zero under concurrent orders (on
// PostgreSQL from two processes); given back once by an unpaid order's release and by a return's share;
// the console's list, nominal values and voiding; 1C's document; the receipts through YooKassa's stand-in
// (the sale an advance whose subject is a payment, each order's part a settlement of that prepayment).
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/lib/db/client.ts';
import type { CheckoutSummary, PlacedAnswer } from '../../src/features/checkout/checkout.schema.ts';
import { formatPrice } from '../../src/lib/format.ts';
import { expectConforms } from '../support/api.ts';
import { makeBrand, makeCategory, makeProduct, type MadeProduct } from '../support/factories.ts';
import { readOutbox, type OutboxMail } from '../support/mail.ts';
import { OneC } from '../support/one-c.ts';
import { operatorToken, signedInOperator, Visitor } from '../support/ops.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { startYookassaStandin, type Standin } from '../support/yookassa-standin.ts';

interface Prepared {
  coat: MadeProduct;
  scarf: MadeProduct;
}

const API = '/api/v1/ecommerce-core';
const postgres = Boolean(process.env['DATABASE_URL']);
const contact = { name: 'Анна Иванова', email: 'anna.gift@example.ru', phone: '+7 (999) 123-45-67' };
const delivery = { method: 'courier', city: 'Москва', address: 'Тверская, 7, кв. 12' };

let made = 0;
/** A certificate made straight in the database (the ones no purchase could make: expired, voided, spent). */
async function certificate(db: Database['db'], code: string, values: { balance: number; status?: string; expires?: string }): Promise<void> {
  const order = (await db.execute(
    sql`INSERT INTO orders (code, status, kind, contact_name, contact_phone, contact_email, delivery_address, items_total, total, payment_status, delivery_method)
        VALUES (${`BS-9${String(++made).padStart(7, '0')}`}, 'delivered', 'certificate', 'Тест', '+79991234567', 'made@example.ru', '{}'::jsonb,
                1000000, 1000000, 'paid', 'email')
        RETURNING id`,
  )) as unknown as { rows: { id: number }[] };
  await db.execute(
    sql`INSERT INTO gift_certificates (code, order_id, nominal, balance, status, recipient_email, expires_at, activated_at)
        VALUES (${code}, ${order.rows[0]!.id}, 1000000, ${values.balance}, ${values.status ?? 'active'}, 'made@example.ru',
                ${values.expires ?? '2099-01-01T00:00:00Z'}, now())`,
  );
}

function shop(server: () => TestServer) {
  let shoppers = 0;
  /** Each shopper from an address of their own, as behind a proxy: the per-address limits are not what this file tests. */
  const address = () => {
    const n = ++shoppers;
    return `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
  };
  async function call<T>(
    path: string,
    init: RequestInit = {},
    base = server().baseUrl,
  ): Promise<{ status: number; body: { success: boolean; data?: T; message?: string; errors?: Record<string, string[]> } }> {
    const res = await fetch(new URL(path, base), { redirect: 'manual', ...init });
    const body = (await res.json()) as { success: boolean; data?: T; message?: string; errors?: Record<string, string[]> };
    await expectConforms(server().baseUrl, init.method ?? 'GET', path, res.status, body);
    return { status: res.status, body };
  }
  const json = (body: unknown, headers: Record<string, string> = {}): RequestInit => ({
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': address(), ...headers },
    body: JSON.stringify(body),
  });
  const purchase = (over: Record<string, unknown> = {}) => ({
    nominal: 500_000,
    recipient: { email: 'maria.gift@example.ru', name: 'Мария' },
    from: 'Анна',
    message: 'С днём рождения!',
    contact,
    ...over,
  });
  const buy = (over: Record<string, unknown> = {}) =>
    call<{ code: string; result_url: string; payment_url: string | null }>(
      `${API}/gift-certificates`,
      json(purchase(over), { 'idempotency-key': randomUUID() }),
    );
  const summary = (body: object) => call<CheckoutSummary>(`${API}/checkout/summary`, json({ delivery: { method: 'courier' }, ...body }));
  const place = (body: object, base?: string) =>
    call<PlacedAnswer>(`${API}/checkout/place-order`, json({ contact, delivery, ...body }, { 'idempotency-key': randomUUID() }), base);
  /** The mail to `to` that matches, looked for up to 5 s (it is written after the answer). */
  const mailTo = async (to: string, match: (mail: OutboxMail) => boolean = () => true): Promise<OutboxMail> => {
    for (let i = 0; i < 50; i++) {
      const found = readOutbox(server().database.env['DATA_DIR']!).find((m) => m.to.includes(to) && match(m));
      if (found) return found;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`no mail to ${to}`);
  };
  return { call, json, buy, summary, place, mailTo, address };
}

const codeIn = (mail: OutboxMail) => /Код сертификата: ([A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4})/.exec(mail.body)?.[1] ?? '';

describe('gift certificates with the test provider', () => {
  let server: TestServer & { prepared: Prepared | undefined };
  let second: TestServer | undefined;
  const fx = () => server.prepared!;
  const { call, json, buy, summary, place, mailTo } = shop(() => server);
  const item = (p: MadeProduct, quantity = 1) => ({ id: p.id, quantity, variant_code: p.variants[0]!.code });
  const payCard = (paymentUrl: string) =>
    call<{ status: string; redirect: string }>(
      `${API}/payments/test/${paymentUrl.split('/').pop()}`,
      json({ action: 'card', card_number: '2200 0000 0000 0004', expiry: '12/34', cvc: '123' }),
    );
  /** A certificate bought and paid: its code as the recipient's mail has it. */
  const paidCertificate = async (nominal: number, recipient: string) => {
    const bought = await buy({ nominal, recipient: { email: recipient, name: '' } });
    expect(bought.status).toBe(201);
    expect((await payCard(bought.body.data!.payment_url!)).body.data!.status).toBe('succeeded');
    return codeIn(await mailTo(recipient, (m) => m.body.includes('Код сертификата')));
  };
  let delivery = 0;
  let manager: Visitor;

  beforeAll(async () => {
    server = await startTestServer<Prepared>({
      label: 'gifts',
      seedProducts: 10,
      env: { PAYMENT_TIMEOUT_MINUTES: '0.1', TRUST_PROXY: '127.0.0.1,::1', EXCHANGE_LOGIN: 'onec', EXCHANGE_PASSWORD: 'сертификаты-в-1с' },
      prepare: async ({ db }: Database) => {
        const category = await makeCategory(db, { name: 'Подарки', slug: 'podarki-gift' });
        const brand = await makeBrand(db, { name: 'Giftest', nameRu: 'Гифтест', slug: 'giftest' });
        const coat = await makeProduct(db, { name: 'Пальто', slug: 'palto-gift', brand, category, price: 3_000, sizes: [{ label: 'M', stock: 500, max: 10 }] });
        const scarf = await makeProduct(db, {
          name: 'Шарф',
          slug: 'sharf-gift',
          brand,
          category,
          price: 700,
          sizes: [{ label: 'Единый', stock: 500, max: 10 }],
        });
        await certificate(db, 'EXPRDAAAAAAAAAAA', { balance: 500_000, expires: '2020-01-01T00:00:00Z' });
        await certificate(db, 'VOIDAAAAAAAAAAAA', { balance: 500_000, status: 'void' });
        await certificate(db, 'EMPTYAAAAAAAAAAA', { balance: 0 });
        await certificate(db, 'RUSHAAAAAAAAAAAA', { balance: 1_000_000 });
        await certificate(db, 'SPAREAAAAAAAAAAA', { balance: 500_000 });
        return { coat, scarf };
      },
    });
    if (postgres)
      second = await startTestServer({
        label: 'gifts-second',
        database: server.database,
        env: { AUTO_MIGRATE: 'false', PAYMENT_TIMEOUT_MINUTES: '0.1', TRUST_PROXY: '127.0.0.1,::1' },
      });
    delivery = (await summary({ items: [item(fx().scarf)] })).body.data!.delivery_price;
    manager = (await signedInOperator(server, 'gifts.manager@example.ru', 'manager')).visitor;
  }, 120_000);
  afterAll(async () => {
    await second?.stop();
    await server?.stop();
  });

  it('is bought on its page without a script: the form, the payment, the certificate mailed to its recipient and its buyer', async () => {
    const page = await fetch(`${server.baseUrl}/gift-certificate`).then(async (r) => ({
      status: r.status,
      html: await r.text(),
      cache: r.headers.get('cache-control'),
    }));
    expect(page.status).toBe(200);
    expect(page.cache).toContain('private');
    for (const amount of [3_000, 5_000, 10_000, 20_000, 30_000]) expect(page.html).toContain(`value="${amount * 100}"`);
    const key = /name="key" value="([\w-]+)"/.exec(page.html)?.[1] ?? '';
    const form = {
      key,
      nominal: '1000000',
      recipient_email: 'olga.gift@example.ru',
      recipient_name: 'Ольга',
      from: 'Пётр',
      message: 'С Новым годом!\r\n<b>Твой</b> Пётр',
      name: 'Пётр Сидоров',
      email: 'petr.gift@example.ru',
      phone: '+7 (999) 222-33-44',
      payment: 'card',
    };
    const post = (body: Record<string, string>, headers: Record<string, string> = {}) =>
      fetch(`${server.baseUrl}/gift-certificate`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': '10.200.0.1', ...headers },
        body: new URLSearchParams(body).toString(),
      });
    // Another site's form may not start it.
    expect((await post(form, { 'sec-fetch-site': 'cross-site' })).status).toBe(403);
    const sent = await post(form);
    expect(sent.status).toBe(303);
    const paymentUrl = sent.headers.get('location') ?? '';
    expect(paymentUrl).toMatch(/^\/test-payment\/tp_[0-9a-f]{24}$/);
    // The same form sent twice is one purchase, with one payment.
    expect((await post(form)).headers.get('location')).toBe(paymentUrl);
    const paid = await payCard(paymentUrl);
    expect(paid.body.data!.status).toBe('succeeded');

    const gift = await mailTo('olga.gift@example.ru');
    expect(gift.body).toContain(`Подарочный сертификат на ${formatPrice(1_000_000)}`);
    expect(gift.body).toContain('Здравствуйте, Ольга!');
    expect(gift.body).toContain('Пётр дарит вам сертификат магазина Brandshop.');
    expect(gift.body).toContain('«С Новым годом!');
    expect(gift.body).toMatch(/Действует до \d{1,2} [а-я]+ \d{4}/);
    const code = codeIn(gift);
    expect(code).toMatch(/^[A-HJKMNP-Z2-9]{4}(-[A-HJKMNP-Z2-9]{4}){3}$/);
    // Written into the mail's HTML as text, never as markup.
    expect(gift.body).toContain('&lt;b&gt;Твой&lt;/b&gt;');
    const buyer = await mailTo('petr.gift@example.ru');
    expect(buyer.body).toContain(`Сертификат на ${formatPrice(1_000_000)} оплачен`);
    expect(buyer.body).toContain('olga.gift@example.ru');
    expect(codeIn(buyer)).toBe(code);

    // The result page: where it went, the advance's receipt; no goods, no delivery.
    const result = await fetch(new URL(paid.body.data!.redirect, server.baseUrl)).then((r) => r.text());
    expect(result).toContain(`Подарочный сертификат на ${formatPrice(1_000_000)}`);
    expect(result).toContain('Сертификат отправлен на olga.gift@example.ru');
    expect(result).toContain('Чек аванса (сертификат)');
    // The code is good for its whole nominal at once.
    const s = await summary({ items: [item(fx().scarf)], gift_codes: [code.toLowerCase()] });
    expect(s.body.data!.gift_certificates).toEqual([{ code, applied: 700_00 + delivery, left: 1_000_000 - 700_00 - delivery, reason: null }]);
    expect(s.body.data!.total).toBe(0);
  });

  it("a customer's purchase is in their orders: the certificate, no goods, no return to ask for", async () => {
    const reg = await call<{ access_token: string }>(
      `${API}/auth/customer-registration`,
      json({ email: 'gift.customer@example.ru', phone: '+7 (999) 765-43-21', password: 'подарок для мамы на праздник' }),
    );
    const auth = { authorization: `Bearer ${reg.body.data!.access_token}` };
    const bought = await call<{ code: string; payment_url: string }>(
      `${API}/gift-certificates`,
      json(
        { nominal: 300_000, recipient: { email: 'mama.gift@example.ru' }, contact: { ...contact, email: 'gift.customer@example.ru' } },
        { ...auth, 'idempotency-key': randomUUID() },
      ),
    );
    expect(bought.status).toBe(201);
    await payCard(bought.body.data!.payment_url);
    const mine = await call<{ code: string }[]>(`${API}/customer/orders`, { headers: auth });
    expect(mine.body.data!.map((o) => o.code)).toContain(bought.body.data!.code);
    const detail = await call<{ status: string; can_return: number; can_cancel: number; lines: unknown[] }>(
      `${API}/customer/orders/${bought.body.data!.code}`,
      {
        headers: auth,
      },
    );
    expect(detail.body.data).toMatchObject({ status: 'delivered', can_return: 0, can_cancel: 0, lines: [] });
    expect((await call(`${API}/customer/orders/${bought.body.data!.code}/return`, json({}, auth))).status).toBe(409);
  });

  it.each([
    ['an amount not on sale', { nominal: 123_400 }, 'nominal', 'Выберите номинал из списка'],
    ['a 10 KB message', { message: 'я'.repeat(10_240) }, 'message', 'Слишком длинный текст'],
    ['a NUL in the name', { recipient: { email: 'x@example.ru', name: 'Ма\u0000рия' } }, 'recipient.name', null],
    ['a bad e-mail', { recipient: { email: 'не почта', name: '' } }, 'recipient.email', null],
    ['no buyer', { contact: { name: '', email: '', phone: '' } }, 'contact.name', null],
  ])('a purchase with %s is a 422 naming the field', async (_, over, field, message) => {
    const answer = await buy(over);
    expect(answer.status).toBe(422);
    expect(Object.keys(answer.body.errors ?? {})).toContain(field);
    if (message) expect(answer.body.errors?.[field]).toEqual([message]);
  });

  it('the form refused shows its messages and keeps what was typed', async () => {
    const html = await fetch(`${server.baseUrl}/gift-certificate`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': '10.200.0.2' },
      body: new URLSearchParams({
        key: randomUUID(),
        nominal: '500000',
        recipient_email: 'не почта',
        name: 'Пётр Сидоров',
        email: 'petr@example.ru',
        phone: '+79992223344',
      }),
    }).then(async (r) => ({ status: r.status, text: await r.text() }));
    expect(html.status).toBe(422);
    expect(html.text).toMatch(/id="gift-recipient_email-error"[^>]*>\s*Email не валиден/);
    expect(html.text).toContain('value="Пётр Сидоров"');
  });

  it('pays in part, then the rest with a second certificate and the card; each certificate has its receipt and keeps the rest', async () => {
    const first = await paidCertificate(500_000, 'first.gift@example.ru');
    const small = await paidCertificate(300_000, 'small.gift@example.ru');
    // All of a scarf and its delivery from the first: nothing left to pay, so the order is paid at once.
    const scarf = await place({ items: [item(fx().scarf)], gift_codes: [first] });
    expect(scarf.status).toBe(201);
    expect(scarf.body.data).toMatchObject({ total: 0, payment_status: 'paid', payment_url: null });
    const left = 500_000 - 700_00 - delivery;
    // Three coats (9,000 ₽) with what is left on the first and all of the small one: the card pays the rest.
    const both = await summary({ items: [item(fx().coat, 3)], gift_codes: [first, small.replaceAll('-', ' ')] });
    expect(both.body.data!.gift_certificates.map((g) => [g.applied, g.left, g.reason])).toEqual([
      [left, 0, null],
      [300_000, 0, null],
    ]);
    const card = 9_000_00 + both.body.data!.delivery_price - left - 300_000;
    expect(both.body.data!.certificate_used).toBe(left + 300_000);
    expect(both.body.data!.total).toBe(card);
    const coats = await place({ items: [item(fx().coat, 3)], gift_codes: [first, small] });
    expect(coats.status).toBe(201);
    expect(coats.body.data!.total).toBe(card);
    expect((await payCard(coats.body.data!.payment_url!)).body.data!.status).toBe('succeeded');
    // The page: each certificate's part, the card's receipt and one settlement of each certificate's advance.
    await expect
      .poll(async () => {
        const html = await fetch(new URL(coats.body.data!.result_url, server.baseUrl)).then((r) => r.text());
        return (html.match(/data-receipt="certificate"/g) ?? []).length;
      })
      .toBe(2);
    const html = await fetch(new URL(coats.body.data!.result_url, server.baseUrl)).then((r) => r.text());
    expect(html.match(/data-testid="order-certificate"/g)).toHaveLength(2);
    expect(html).toContain(`−${formatPrice(left)}`);
    expect(html).toContain('Чек зачёта аванса (сертификат)');
    expect(html).toContain(formatPrice(card));
    // Both are spent now: refused with the reason.
    const again = await summary({ items: [item(fx().scarf)], gift_codes: [first] });
    expect(again.body.data!.gift_certificates[0]!.reason).toBe('На сертификате не осталось денег');
  });

  it.each([
    ['ABCD-EFGH-JKMN-PQRS', 'Такого сертификата нет'],
    ['EXPRDAAAAAAAAAAA', 'Срок действия сертификата истёк'],
    ['VOIDAAAAAAAAAAAA', 'Сертификат аннулирован'],
    ['EMPTYAAAAAAAAAAA', 'На сертификате не осталось денег'],
  ])('a certificate %s is refused in the summary with its reason, and at placement with a 409', async (code, reason) => {
    const s = await summary({ items: [item(fx().scarf)], gift_codes: [code] });
    expect(s.status).toBe(200);
    expect(s.body.data!.gift_certificates[0]!.reason).toBe(reason);
    expect(s.body.data!.certificate_used).toBe(0);
    const placed = await place({ items: [item(fx().scarf)], gift_codes: [code] });
    expect(placed.status).toBe(409);
    expect(placed.body.message).toBe(reason);
  });

  it('an order paid at the door takes no certificate, and one certificate that pays all leaves the next one unneeded', async () => {
    const atDoor = await summary({ items: [item(fx().scarf)], gift_codes: ['RUSHAAAAAAAAAAAA'], payment: 'on_delivery' });
    expect(atDoor.body.data!.gift_certificates[0]!.reason).toBe('Сертификатом можно оплатить только заказ, оплачиваемый онлайн');
    const two = await summary({ items: [item(fx().scarf)], gift_codes: ['RUSHAAAAAAAAAAAA', 'SPAREAAAAAAAAAAA'] });
    expect(two.body.data!.gift_certificates.map((g) => g.reason)).toEqual([null, 'Заказ уже оплачен другими сертификатами']);
  });

  it.each([
    ['a NUL', ['ABCD\u0000EFGH']],
    ['10 KB', ['A'.repeat(10_240)]],
    ['markup', ['<script>alert(1)</script>']],
    ['six codes', Array.from({ length: 6 }, (_, i) => `AAAA-AAAA-AAAA-AAA${i + 2}`)],
  ])('certificates with %s are a 422 naming the field', async (_, codes) => {
    const s = await summary({ items: [item(fx().scarf)], gift_codes: codes });
    expect(s.status).toBe(422);
    expect(Object.keys(s.body.errors ?? {}).every((k) => k.startsWith('gift_codes'))).toBe(true);
  });

  it('30 orders at once on one certificate of 10,000 ₽ take exactly its balance, never more', async () => {
    const each = 700_00 + delivery;
    const bases = second ? [server.baseUrl, second.baseUrl] : [server.baseUrl];
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, i) => place({ items: [item(fx().scarf)], gift_codes: ['RUSHAAAAAAAAAAAA'] }, bases[i % bases.length])),
    );
    const placed = results.filter((r) => r.status === 201).map((r) => r.body.data!);
    // The rest: refused (nothing left on it) or turned away by admission on a slow machine (503).
    expect(results.every((r) => r.status === 201 || r.status === 409 || r.status === 503)).toBe(true);
    const taken = placed.reduce((s, p) => s + (each - p.total), 0);
    expect(taken).toBe(1_000_000);
    expect(placed).toHaveLength(Math.ceil(1_000_000 / each));
    expect(results.find((r) => r.status === 409)?.body.message).toBe('На сертификате не осталось денег');
    const rush = (await manager.go('/ops/gift-certificates?q=RUSHAAAAAAAAAAAA')).html;
    expect(rush).toMatch(/data-testid="ops-gift-balance"[^>]*>\s*0\s*₽/);
  }, 120_000);

  it("an unpaid order's release gives its certificate back once", async () => {
    const code = await paidCertificate(300_000, 'release.gift@example.ru');
    const placed = await place({ items: [item(fx().coat)], gift_codes: [code] });
    expect(placed.body.data!.total).toBe(delivery);
    expect((await summary({ items: [item(fx().scarf)], gift_codes: [code] })).body.data!.gift_certificates[0]!.reason).toBe('На сертификате не осталось денег');
    // Its six seconds pass unpaid; the next placements release it — however often the release runs, once.
    await new Promise((done) => setTimeout(done, 6_500));
    await place({ items: [item(fx().scarf)] });
    await place({ items: [item(fx().scarf)] });
    const back = await summary({ items: [item(fx().scarf)], gift_codes: [code] });
    expect(back.body.data!.gift_certificates[0]).toMatchObject({ applied: 700_00 + delivery, left: 300_000 - 700_00 - delivery, reason: null });
    const row = (await manager.go(`/ops/gift-certificates?q=${code}`)).html;
    expect(row).toMatch(/data-testid="ops-gift-balance"[^>]*>\s*3\s*000\s*₽/);
    expect(row).toContain(`возвращено ${formatPrice(300_000)}`);
  }, 60_000);

  it('a paid order cancelled by the shop refunds the card its part and gives the certificate back its own', async () => {
    const code = await paidCertificate(300_000, 'cancel.gift@example.ru');
    const placed = await place({ items: [item(fx().coat, 2)], gift_codes: [code] });
    const card = placed.body.data!.total;
    expect(card).toBeGreaterThan(0);
    expect((await payCard(placed.body.data!.payment_url!)).body.data!.status).toBe('succeeded');
    const cancelled = await fetch(`${server.baseUrl}${API}/ops/orders/${placed.body.data!.code}`, {
      method: 'POST',
      headers: { 'x-operator-token': operatorToken(server), 'content-type': 'application/json' },
      body: JSON.stringify({ status: 'cancelled' }),
    });
    expect(cancelled.status).toBe(200);
    expect(((await cancelled.json()) as { data: { status: string; payment_status: string } }).data).toMatchObject({
      status: 'cancelled',
      payment_status: 'refunded',
    });
    const back = await summary({ items: [item(fx().scarf)], gift_codes: [code] });
    expect(back.body.data!.gift_certificates[0]).toMatchObject({ reason: null, left: 300_000 - 700_00 - delivery });
    // The card got back what it paid: the refund receipt is the card's part alone.
    const result = await fetch(new URL(placed.body.data!.result_url, server.baseUrl)).then((r) => r.text());
    expect(result).toMatch(new RegExp(`data-receipt="refund"[\\s\\S]*?${formatPrice(card).replace(/\s/g, '\\s')}`));
  });

  it('a returned unit of an order paid by a certificate gives that unit’s share back to the certificate', async () => {
    const code = await paidCertificate(500_000, 'return.gift@example.ru');
    const placed = await place({ items: [item(fx().scarf, 2)], gift_codes: [code] });
    expect(placed.body.data!.payment_status).toBe('paid');
    const token = operatorToken(server);
    const moved = await fetch(`${server.baseUrl}${API}/ops/orders/${placed.body.data!.code}`, {
      method: 'POST',
      headers: { 'x-operator-token': token, 'content-type': 'application/json' },
      body: JSON.stringify({ status: 'delivered' }),
    });
    expect(moved.status).toBe(200);
    const form = await manager.go(`/ops/orders/${placed.body.data!.code}/return`);
    const key = /name="return_key" value="([0-9a-f]+)"/.exec(form.html)?.[1] ?? '';
    const line = /name="(qty_\d+)"/.exec(form.html)?.[1] ?? '';
    const taken = await manager.go(`/ops/orders/${placed.body.data!.code}/return`, { _csrf: Visitor.formToken(form.html), return_key: key, [line]: '1' });
    expect(taken.status).toBe(303);
    // The same form again changes nothing.
    await manager.go(`/ops/orders/${placed.body.data!.code}/return`, { _csrf: Visitor.formToken(form.html), return_key: key, [line]: '1' });
    const row = (await manager.go(`/ops/gift-certificates?q=${code}`)).html;
    expect(row).toContain(`возвращено ${formatPrice(700_00)}`);
    expect(row).toMatch(new RegExp(`data-testid="ops-gift-balance"[^>]*>\\s*${formatPrice(500_000 - 700_00 - delivery).replace(/\s/g, '\\s')}`));
  });

  it('the console lists certificates, keeps the nominal values and voids one; every change audited', async () => {
    const list = await manager.go('/ops/gift-certificates');
    expect(list.status).toBe(200);
    expect(list.html).toContain('olga.gift@example.ru');
    expect(list.html).toMatch(/Продано на [\d\s ]+₽, остаток на всех/);
    const csrf = Visitor.formToken(list.html);
    expect((await manager.go('/ops/gift-certificates', { _csrf: csrf, action: 'add', roubles: '7000' })).status).toBe(303);
    expect(await fetch(`${server.baseUrl}/gift-certificate`).then((r) => r.text())).toContain('value="700000"');
    for (const roubles of ['abc', '50', '9999999', '']) {
      const refused = await manager.go('/ops/gift-certificates', { _csrf: csrf, action: 'add', roubles });
      expect(refused.status).toBe(422);
      expect(refused.html).toContain('Номинал — от 100 до 500');
    }
    expect((await manager.go('/ops/gift-certificates', { _csrf: csrf, action: 'remove', amount: '700000' })).status).toBe(303);
    expect(await fetch(`${server.baseUrl}/gift-certificate`).then((r) => r.text())).not.toContain('value="700000"');
    // Voided: the next order is refused it.
    const code = await paidCertificate(300_000, 'void.gift@example.ru');
    const found = await manager.go(`/ops/gift-certificates?q=${code}`);
    const id = /data-testid="ops-gift-(\d+)"/.exec(found.html)?.[1] ?? '';
    expect((await manager.go('/ops/gift-certificates', { _csrf: csrf, action: 'void', id })).status).toBe(303);
    expect((await summary({ items: [item(fx().scarf)], gift_codes: [code] })).body.data!.gift_certificates[0]!.reason).toBe('Сертификат аннулирован');
    const after = await manager.go('/ops/gift-certificates');
    expect(after.html).toContain('gift.void');
    expect(after.html).toContain('gift.nominal.add');
  });

  it("1C's document names what certificates paid as a payment, and leaves certificates' sales out", async () => {
    const code = await paidCertificate(300_000, 'onec.gift@example.ru');
    const placed = await place({ items: [item(fx().coat)], gift_codes: [code] });
    const xml = await new OneC(`${server.baseUrl}/exchange/1c`, 'onec', 'сертификаты-в-1с').takeOrders(false);
    const document = new RegExp(`<Документ><Ид>${placed.body.data!.code}</Ид>[\\s\\S]*?</Документ>`).exec(xml)?.[0] ?? '';
    expect(document).toContain(`<Сумма>${((3_000_00 + delivery) / 100).toFixed(2)}</Сумма>`);
    expect(document).toContain('<Наименование>Оплачено подарочным сертификатом</Наименование><Значение>3000.00</Значение>');
    expect(xml).not.toContain('<Наименование>Подарочный сертификат');
  });
});

describe('gift certificates through YooKassa', () => {
  let server: TestServer;
  let standin: Standin;
  const { call, json, buy, place, mailTo } = shop(() => server);
  let scarf: MadeProduct;

  beforeAll(async () => {
    standin = await startYookassaStandin('654321', 'gift_secret_key_7');
    server = await startTestServer({
      label: 'gifts-yookassa',
      seedProducts: 5,
      env: {
        PAYMENT_PROVIDER: 'yookassa',
        YOOKASSA_SHOP_ID: '654321',
        YOOKASSA_SECRET_KEY: 'gift_secret_key_7',
        YOOKASSA_API_URL: `${standin.url}/v3`,
        TRUST_PROXY: '127.0.0.1,::1',
      },
      prepare: async ({ db }: Database) => {
        const category = await makeCategory(db, { name: 'Подарки Ю', slug: 'podarki-yk' });
        const brand = await makeBrand(db, { name: 'Yookgift', nameRu: 'Юкгифт', slug: 'yookgift' });
        scarf = await makeProduct(db, { name: 'Шарф', slug: 'sharf-yk', brand, category, price: 700, sizes: [{ label: 'Единый', stock: 50, max: 10 }] });
        return undefined;
      },
    });
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    await standin?.close();
  });

  it('sells the certificate as an advance whose subject is a payment, and settles that prepayment for each order it pays', async () => {
    const bought = await buy({ nominal: 300_000, recipient: { email: 'yk.gift@example.ru', name: '' } });
    expect(bought.status).toBe(201);
    const sale = standin.creates.at(-1)!;
    expect(sale.body.amount.value).toBe('3000.00');
    expect(sale.body.receipt.items).toEqual([
      expect.objectContaining({
        description: `Подарочный сертификат на ${formatPrice(300_000)}`,
        quantity: '1.00',
        payment_subject: 'payment',
        payment_mode: 'advance',
      }),
    ]);
    const payment = [...standin.payments.values()].find((p) => bought.body.data!.payment_url?.endsWith(p.id)) ?? [...standin.payments.values()].at(-1)!;
    standin.settle(payment.id, 'succeeded');
    // The shopper comes back: the shop reads the payment from YooKassa and the certificate is mailed.
    await fetch(new URL(bought.body.data!.result_url, server.baseUrl)).then((r) => r.text());
    const code = codeIn(await mailTo('yk.gift@example.ru'));
    expect(code).not.toBe('');

    const items = [{ id: scarf.id, quantity: 1, variant_code: scarf.variants[0]!.code }];
    const used = 700_00 + (await call<CheckoutSummary>(`${API}/checkout/summary`, json({ delivery: { method: 'courier' }, items }))).body.data!.delivery_price;
    const placed = await place({ items, gift_codes: [code] });
    expect(placed.status).toBe(201);
    expect(placed.body.data!.total).toBe(0);
    await expect.poll(() => standin.receipts.length, { timeout: 10_000 }).toBeGreaterThan(0);
    const receipt = standin.receipts.at(-1)!.body;
    expect(receipt.type).toBe('payment');
    expect(receipt.payment_id).toBe(payment.id);
    expect(receipt.settlements).toEqual([{ type: 'prepayment', amount: { value: (used / 100).toFixed(2), currency: 'RUB' } }]);
    expect(receipt.items.every((i) => i.payment_mode === 'full_payment')).toBe(true);
    expect(receipt.items.reduce((s, i) => s + Math.round(Number(i.amount.value) * 100) * Number(i.quantity), 0)).toBe(used);
  });
});
