// The managers' console's accounts (issue 24): operators added by the operator's call (npm run operator),
// the one-time set-up page with its QR code, sign-in with password + TOTP (each code once), recovery codes,
// the session cookie and its CSRF token, throttling; on the built server, PGlite and PostgreSQL in CI.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.ts';
import { shopper } from '../support/shopper.ts';
import { codeAt, enrol as enrolOn, operatorCall as callOn, signedInOperator, Visitor } from '../support/ops.ts';

let server: TestServer;

const STATUSES = ['pending', 'processing', 'shipped', 'delivered', 'cancelled'] as const;
const PAYMENTS = ['unpaid', 'paid', 'paid', 'refund_due'] as const;
const DELIVERIES = ['courier', 'pickup', 'post'] as const;

beforeAll(async () => {
  // 120 orders, one an hour back from 2026-11-20 12:00 Moscow time: statuses, payments and deliveries in turn.
  server = await startTestServer({
    seedProducts: 10,
    label: 'ops',
    prepare: async (db) => {
      for (let i = 0; i < 120; i++)
        await db.query(
          `INSERT INTO orders (code, status, contact_name, contact_phone, contact_email, delivery_address, items_total, total, payment_status, delivery_method, created_at)
           VALUES ($1, $2, $3, $4, $5, '{}'::jsonb, 100000, 100000 + $6::int * 100, $7, $8, timestamptz '2026-11-20 12:00+03' - make_interval(hours => $6::int))`,
          [
            `BS-${String(10_000_000 + i)}`,
            STATUSES[i % 5],
            i === 7 ? 'Мария Склодовская' : `Покупатель ${i}`,
            `+7 (999) 000-${String(i).padStart(2, '0').slice(-2)}-${String(i).padStart(3, '0').slice(-2)}`,
            `buyer${i}@mail.ru`,
            i,
            PAYMENTS[i % 4],
            DELIVERIES[i % 3],
          ],
        );
    },
  });
}, 120_000);
afterAll(() => server?.stop());

const operatorCall = (body?: unknown, token?: string) => callOn(server, body, token);
const enrol = (email: string, role: 'manager' | 'admin') => enrolOn(server, email, role);

describe('operators', () => {
  it('are added only with the operator token, once per e-mail', async () => {
    expect((await operatorCall(undefined, 'wrong')).status).toBe(403);
    expect((await operatorCall({ action: 'add', email: 'x@shop.ru', role: 'admin' }, 'wrong')).status).toBe(403);
    const data = await enrol('Anna@Shop.ru', 'manager');
    expect(data.operator).toMatchObject({ role: 'manager', totp_confirmed: false });
    expect(data.setup_url).toMatch(new RegExp(`^${server.baseUrl}/ops/setup\\?token=[\\w-]{43}$`));
    expect(data.otpauth).toMatch(/^otpauth:\/\/totp\/.+:anna%40shop\.ru\?secret=[A-Z2-7]{32}&/);
    const again = await operatorCall({ action: 'add', email: 'anna@shop.ru', role: 'admin' });
    expect(again.status).toBe(409);
    expect(((await again.json()) as { message: string }).message).toBe('Оператор с таким email уже есть');
    const bad = await operatorCall({ action: 'add', email: 'not-an-email', role: 'owner' });
    expect(bad.status).toBe(422);
  });

  it('set a password and confirm the authenticator once through the link, then sign in with a code each time once', async () => {
    const { setup_url: link, otpauth } = await enrol('boris@shop.ru', 'admin');
    const secret = new URL(otpauth).searchParams.get('secret') as string;
    const visitor = new Visitor(server.baseUrl);
    const path = new URL(link).pathname + new URL(link).search;
    const page = await visitor.go(path);
    expect(page.status).toBe(200);
    expect(page.headers.get('cache-control')).toContain('no-store');
    expect(page.html).toContain('<meta name="robots" content="noindex, nofollow"');
    expect(page.html).toContain('<svg');
    expect(page.html).toContain(secret);
    const token = new URL(link).searchParams.get('token') as string;
    const fill = (html: string, over: Record<string, string> = {}) => ({
      _csrf: Visitor.formToken(html),
      token,
      password: 'лунная дорожка 42',
      password_confirmation: 'лунная дорожка 42',
      code: codeAt(secret),
      ...over,
    });
    // Wrong code, mismatched passwords: 422 with the field's message; the link still works.
    const wrong = await visitor.go('/ops/setup', fill(page.html, { code: codeAt(secret, -5) }));
    expect(wrong.status).toBe(422);
    expect(wrong.html).toContain('Код не подошёл');
    const mismatch = await visitor.go('/ops/setup', fill(wrong.html, { password_confirmation: 'другой пароль' }));
    expect(mismatch.status).toBe(422);
    expect(mismatch.html).toContain('Пароли должны совпадать');
    // Without the form's token: refused, nothing changes.
    expect((await visitor.go('/ops/setup', fill(mismatch.html, { _csrf: 'forged' }))).status).toBe(403);
    // The code the set-up spends, kept: recomputed later it would be another step's code once a 30 s step
    // boundary passed (the test then failed now and then, signing in with a "replayed" code that was new).
    const setupCode = codeAt(secret);
    const done = await visitor.go('/ops/setup', fill((await visitor.go(path)).html, { code: setupCode }));
    expect(done.status).toBe(200);
    const codes = [...done.html.matchAll(/<li>([0-9a-f]{5}-[0-9a-f]{5})<\/li>/g)].map((m) => m[1] as string);
    expect(codes).toHaveLength(10);
    // The link works once.
    expect((await visitor.go(path)).status).toBe(410);

    // Sign in: the code the set-up used is spent; the next step's code works, once.
    const login = async (who: Visitor, code: string, password = 'лунная дорожка 42') => {
      const form = await who.go('/ops/login');
      return who.go('/ops/login', { _csrf: Visitor.formToken(form.html), email: 'Boris@shop.ru', password, code });
    };
    const first = new Visitor(server.baseUrl);
    const replayed = await login(first, setupCode);
    expect(replayed.status).toBe(401);
    expect(replayed.html).toContain('Неверный email, пароль или код');
    const nextCode = codeAt(secret, 1);
    const signedIn = await login(first, nextCode);
    expect(signedIn.status).toBe(303);
    expect(signedIn.headers.get('location')).toBe('/ops');
    const cookie = signedIn.headers.getSetCookie().find((c) => c.startsWith('ops_session=')) ?? '';
    expect(cookie).toMatch(/; Path=\/ops; HttpOnly; SameSite=Strict; Max-Age=43200$/);
    expect((await first.go('/ops')).headers.get('location')).toBe('/ops/orders');
    const home = await first.go('/ops/orders');
    expect(home.status).toBe(200);
    expect(home.html).toContain('Вы вошли как boris@shop.ru (администратор)');
    // The same code again, from another browser: refused.
    expect((await login(new Visitor(server.baseUrl), nextCode)).status).toBe(401);
    // A recovery code works once.
    const second = new Visitor(server.baseUrl);
    expect((await login(second, codes[0] as string)).status).toBe(303);
    expect((await login(new Visitor(server.baseUrl), codes[0] as string)).status).toBe(401);

    // Signing out needs the session's own token: another session's is refused.
    const otherToken = Visitor.formToken((await second.go('/ops/orders')).html);
    expect((await first.go('/ops/logout', { _csrf: otherToken })).status).toBe(403);
    expect((await first.go('/ops/orders')).status).toBe(200);
    const out = await first.go('/ops/logout', { _csrf: Visitor.formToken(home.html) });
    expect(out.status).toBe(303);
    expect((await first.go('/ops')).headers.get('location')).toBe('/ops/login');
  });

  it('have no session without one: a customer cookie or a made-up one leads to the sign-in page', async () => {
    for (const cookie of ['', 'bs_session=abc', 'ops_session=' + 'a'.repeat(43), 'ops_session=' + 'x'.repeat(5000)]) {
      const res = await fetch(server.baseUrl + '/ops', { redirect: 'manual', headers: { cookie } });
      expect(res.status, cookie).toBe(303);
      expect(res.headers.get('location')).toBe('/ops/login');
    }
  });

  it('refuse NUL-laden and forged forms with 4xx, and throttle guessing per e-mail', async () => {
    const visitor = new Visitor(server.baseUrl);
    const form = await visitor.go('/ops/login');
    const csrf = Visitor.formToken(form.html);
    const nul = await visitor.go('/ops/login', { _csrf: csrf, email: 'a\u0000@shop.ru', password: 'x', code: '123456' });
    expect(nul.status).toBe(403);
    expect((await visitor.go('/ops/login', { email: 'a@shop.ru', password: 'x', code: '123456' })).status).toBe(403);
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) {
      const page = await visitor.go('/ops/login');
      const res = await visitor.go('/ops/login', { _csrf: Visitor.formToken(page.html), email: 'victim@shop.ru', password: 'guess', code: '000000' });
      statuses.push(res.status);
      if (res.status === 429) expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429]);
  });

  it('are listed and disabled by the operator token; a disabled operator cannot sign in', async () => {
    await enrol('vera@shop.ru', 'manager');
    const list = (await (await operatorCall()).json()) as { data: { email: string; role: string; disabled: boolean }[] };
    expect(list.data.map((o) => o.email)).toEqual(expect.arrayContaining(['anna@shop.ru', 'boris@shop.ru', 'vera@shop.ru']));
    const disabled = await operatorCall({ action: 'disable', email: 'vera@shop.ru' });
    expect(disabled.status).toBe(200);
    expect(((await disabled.json()) as { data: { disabled: boolean } }).data.disabled).toBe(true);
    expect((await operatorCall({ action: 'disable', email: 'nobody@shop.ru' })).status).toBe(404);
  });
});

describe('the list of orders', () => {
  let manager: Visitor;
  beforeAll(async () => {
    manager = (await signedInOperator(server, 'lena@shop.ru', 'manager')).visitor;
  });
  const codes = (html: string) => [...html.matchAll(/<a href="\/ops\/orders\/(BS-\d{8})">/g)].map((m) => m[1] as string);
  const tabCount = (html: string, status: string) => Number(new RegExp(`data-testid="ops-tab-${status}"[^>]*>[^<]*<span[^>]*>(\\d+)<`).exec(html)?.[1]);

  it('shows the newest 50 first, the next 50, then the last 20, each order once', async () => {
    const first = await manager.go('/ops/orders');
    expect(first.status).toBe(200);
    expect(first.headers.get('cache-control')).toContain('no-store');
    const one = codes(first.html);
    expect(one).toHaveLength(50);
    expect(one[0]).toBe('BS-10000000');
    const nextLink = (html: string) => /<a href="([^"]+)" rel="next">/.exec(html)?.[1]?.replace(/&amp;/g, '&');
    const second = await manager.go(nextLink(first.html) as string);
    const third = await manager.go(nextLink(second.html) as string);
    const all = [...one, ...codes(second.html), ...codes(third.html)];
    expect(all).toHaveLength(120);
    expect(new Set(all).size).toBe(120);
    expect(nextLink(third.html)).toBeUndefined();
  });

  it('counts per status under the other filters, and filters by status, payment, delivery and dates', async () => {
    const all = await manager.go('/ops/orders');
    expect(tabCount(all.html, 'pending')).toBe(24);
    expect(tabCount(all.html, 'shipped')).toBe(24);
    const refunds = await manager.go('/ops/orders?payment=refund_due');
    expect(codes(refunds.html)).toHaveLength(30);
    expect(refunds.html).toContain('Нужен возврат');
    // i % 4 = 3 and i % 5 = 0: i = 15, 35, 55, 75, 95, 115.
    expect(tabCount(refunds.html, 'pending')).toBe(6);
    const pendingRefunds = await manager.go('/ops/orders?payment=refund_due&status=pending');
    expect(codes(pendingRefunds.html)).toEqual(['BS-10000015', 'BS-10000035', 'BS-10000055', 'BS-10000075', 'BS-10000095', 'BS-10000115']);
    const post = await manager.go('/ops/orders?delivery=post&status=cancelled');
    // Post (i % 3 = 2) and cancelled (i % 5 = 4): i = 14, 29, … 119.
    expect(codes(post.html).map((c) => Number(c.slice(3)) - 10_000_000)).toEqual([14, 29, 44, 59, 74, 89, 104, 119]);
    // 2026-11-20 (Moscow): orders 0–12 (12:00 back to 00:00).
    const day = await manager.go('/ops/orders?from=2026-11-20&to=2026-11-20');
    expect(codes(day.html)).toHaveLength(13);
  });

  it('finds an order by its code, e-mail, phone digits or surname', async () => {
    for (const [q, expected] of [
      ['BS-10000042', ['BS-10000042']],
      ['bs10000042', ['BS-10000042']],
      ['buyer42@mail.ru', ['BS-10000042']],
      ['склодовская', ['BS-10000007']],
      ['000-42-42', ['BS-10000042']],
    ] as const) {
      const page = await manager.go(`/ops/orders?q=${encodeURIComponent(q)}`);
      expect(codes(page.html), q).toEqual(expected);
    }
    const none = await manager.go('/ops/orders?q=' + encodeURIComponent('нет такого%_'));
    expect(none.html).toContain('Заказов с такими условиями нет');
  });

  it('ignores filters that do not parse instead of failing', async () => {
    for (const query of [
      'status=lost',
      'payment=%00',
      'from=2026-13-45',
      'after=abc',
      'after=9223372036854775808.1',
      'after=1.99999999999',
      'q=%00bag',
      'q=' + 'x'.repeat(500),
      'status=pending&status=paid',
    ]) {
      const page = await manager.go(`/ops/orders?${query}`);
      expect(page.status, query).toBe(200);
    }
  });
  it("an order's page moves it by the rules, keeps notes and tracking, and shows the reason for a refused move", async () => {
    // Order 1: processing and paid.
    const page = await manager.go('/ops/orders/BS-10000001');
    expect(page.status).toBe(200);
    expect(page.html).toContain('Заказ BS-10000001');
    const csrf = Visitor.formToken(page.html);
    const moved = await manager.go('/ops/orders/BS-10000001', { _csrf: csrf, action: 'move', status: 'purchased', note: '' });
    expect(moved.status).toBe(303);
    expect(moved.headers.get('location')).toBe('/ops/orders/BS-10000001?done=update');
    const after = await manager.go('/ops/orders/BS-10000001?done=update');
    expect(after.html).toMatch(/data-testid="ops-order-status"[^>]*>Выкуплен</);
    expect(after.html).toContain('Готово: заказ обновлён');
    // Backwards, by a forged form: 409 with the rule's reason; nothing changes.
    const back = await manager.go('/ops/orders/BS-10000001', { _csrf: csrf, action: 'move', status: 'pending' });
    expect(back.status).toBe(409);
    expect(back.html).toContain('Нельзя перевести заказ из статуса Выкуплен в Ожидает оплаты');
    // Tracking: a bad number is a 422 with the field's rule; a good one is kept.
    const badTrack = await manager.go('/ops/orders/BS-10000001', { _csrf: csrf, action: 'tracking', tracking_id: 'RA 1' });
    expect(badTrack.status).toBe(422);
    expect(badTrack.html).toContain('Трек-номер — от 4 до 40 латинских букв, цифр или дефисов');
    expect((await manager.go('/ops/orders/BS-10000001', { _csrf: csrf, action: 'tracking', tracking_id: 'RA123456789RU' })).status).toBe(303);
    expect((await manager.go('/ops/orders/BS-10000001', { _csrf: csrf, action: 'note', note: 'Покупатель просил позвонить до 18:00' })).status).toBe(303);
    // Without the session's token: refused, nothing written.
    expect((await manager.go('/ops/orders/BS-10000001', { action: 'note', note: 'подделка' })).status).toBe(403);
    const final = await manager.go('/ops/orders/BS-10000001');
    expect(final.html).toContain('value="RA123456789RU"');
    expect(final.html).toContain('Покупатель просил позвонить до 18:00');
    expect(final.html).not.toContain('подделка');
    // The audit lines name the manager: the move, the tracking number, the note.
    expect(final.html.match(/lena@shop\.ru<\/span>/g)).toHaveLength(3);
  });

  it('marks a refund made by hand once, and answers 404 for an unknown order', async () => {
    // Order 3: delivered, payment refund_due.
    const page = await manager.go('/ops/orders/BS-10000003');
    expect(page.html).toContain('Деньги возвращены вручную');
    const csrf = Visitor.formToken(page.html);
    expect((await manager.go('/ops/orders/BS-10000003', { _csrf: csrf, action: 'refunded' })).status).toBe(303);
    const after = await manager.go('/ops/orders/BS-10000003');
    expect(after.html).toMatch(/data-testid="ops-order-payment"[^>]*>Возвращён</);
    const again = await manager.go('/ops/orders/BS-10000003', { _csrf: csrf, action: 'refunded' });
    expect(again.status).toBe(409);
    expect(again.html).toContain('Этот заказ не ждёт возврата денег');
    expect((await manager.go('/ops/orders/BS-99999999')).status).toBe(404);
    expect((await manager.go('/ops/orders/nope')).status).toBe(404);
  });
  it('tells the list about orders placed after its newest, under its filters', async () => {
    const list = await manager.go('/ops/orders');
    const since = /data-since="([^"]+)"/.exec(list.html)?.[1] as string;
    const ask = async (filters = '') => JSON.parse((await manager.go(`/ops/orders/newer?since=${since}${filters}`)).html) as { count: number };
    expect(await ask()).toEqual({ count: 0 });
    const buyer = shopper(() => server);
    const placed = await buyer.paidOrder(await buyer.register());
    expect(await ask()).toEqual({ count: 1 });
    expect(await ask('&status=cancelled')).toEqual({ count: 0 });
    expect(codes((await manager.go('/ops/orders')).html)[0]).toBe(placed.code);
    // Without a session, or with a cursor that does not parse: nothing to tell.
    expect((await new Visitor(server.baseUrl).go(`/ops/orders/newer?since=${since}`)).status).toBe(401);
    for (const since of ['drop', '99999999999999999999.1', '9223372036854775808.1', '1.2147483648'])
      expect((await manager.go(`/ops/orders/newer?since=${since}`)).status, since).toBe(400);
  });
  it('prints a packing slip of what goes in the box, without prices, for a signed-in operator only', async () => {
    const list = await manager.go('/ops/orders');
    const code = codes(list.html)[0] as string;
    const page = await manager.go(`/ops/orders/${code}`);
    expect(page.html).toContain(`href="/ops/orders/${code}/slip"`);
    const slip = await manager.go(`/ops/orders/${code}/slip`);
    expect(slip.status).toBe(200);
    expect(slip.headers.get('cache-control')).toContain('no-store');
    expect(slip.html).toContain(`Упаковочный лист ${code}`);
    expect(slip.html).toMatch(/Всего предметов: [1-9]/);
    expect(slip.html).not.toContain('₽');
    expect((await new Visitor(server.baseUrl).go(`/ops/orders/${code}/slip`)).headers.get('location')).toBe('/ops/login');
    expect((await manager.go('/ops/orders/BS-99999999/slip')).status).toBe(404);
  });
});
