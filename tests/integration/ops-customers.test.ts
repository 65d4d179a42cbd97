// The console's customers (issue 24): search, a customer's page with money, ledgers, orders and partner
// statistics; an admin's credit or debit (a new ledger line with the reason, never beyond what the customer
// holds) and block or unblock of the login; a manager sees all of it and changes none of it — on the built
// server, PGlite and PostgreSQL in CI.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.ts';
import { signedInOperator, Visitor } from '../support/ops.ts';

const API = '/api/v1/ecommerce-core';
let server: TestServer;
let admin: Visitor;
let manager: Visitor;
let customerId: number;
const EMAIL = 'zinaida.polyakova@example.ru';
const PASSWORD = 'весенний сад у реки';

const call = async (path: string, body?: unknown, authorization?: string) => {
  const res = await fetch(server.baseUrl + API + path, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json', 'accept-language': 'ru', ...(authorization ? { authorization } : {}) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, body: (await res.json()) as { message?: string; data?: Record<string, unknown> & { access_token?: string } } };
};
const login = (password = PASSWORD) => call('/auth/customer-login', { email: EMAIL, password });
const money = async () => (await login()).body.data?.['dashboard_content'] as { balance_amount: number; bonus_amount: number };
const testid = (html: string, id: string) =>
  new RegExp(`data-testid="${id}"[^>]*>([^<]*)<`)
    .exec(html)?.[1]
    ?.trim()
    .replace(/\u00a0/g, ' ');

beforeAll(async () => {
  server = await startTestServer({ seedProducts: 10, label: 'ops-customers' });
  const registered = await call('/auth/customer-registration', { email: EMAIL, phone: '+7 (921) 555-12-34', password: PASSWORD });
  expect(registered.status).toBe(201);
  const token = `Bearer ${registered.body.data?.access_token}`;
  await call(
    '/customer/update-customer-basic-info',
    { name: 'Зинаида', surname: 'Полякова', patronymic: '', email: EMAIL, phone: '+7 (921) 555-12-34' },
    token,
  );
  admin = (await signedInOperator(server, 'admin@shop.ru', 'admin')).visitor;
  manager = (await signedInOperator(server, 'manager@shop.ru', 'manager')).visitor;
}, 120_000);
afterAll(() => server?.stop());

const found = (html: string) => [...html.matchAll(/<a href="\/ops\/customers\/(\d+)">([^<]*)<\/a>/g)].map((m) => ({ id: Number(m[1]), name: m[2] }));

describe('customers in the console', () => {
  it('are found by e-mail, phone digits, surname and #id', async () => {
    const byEmail = found((await manager.go('/ops/customers?q=zinaida.polyakova')).html);
    expect(byEmail).toEqual([{ id: expect.any(Number), name: 'Зинаида Полякова' }]);
    customerId = byEmail[0]!.id;
    expect(found((await manager.go('/ops/customers?q=555-12-34')).html).map((c) => c.id)).toEqual([customerId]);
    expect(found((await manager.go(`/ops/customers?q=${encodeURIComponent('полякова')}`)).html).map((c) => c.id)).toEqual([customerId]);
    expect(found((await manager.go(`/ops/customers?q=${encodeURIComponent(`#${customerId}`)}`)).html).map((c) => c.id)).toEqual([customerId]);
    expect(found((await manager.go('/ops/customers?q=nobody-like-this')).html)).toEqual([]);
    expect((await manager.go('/ops/customers?q=%00&after=abc')).status).toBe(200);
  });

  it('show the customer’s page to a manager without the admin’s forms; a manager’s credit is refused', async () => {
    const page = await manager.go(`/ops/customers/${customerId}`);
    expect(page.status).toBe(200);
    expect(testid(page.html, 'ops-customer-name')).toBe('Полякова Зинаида');
    expect(testid(page.html, 'ops-customer-balance')).toBe('0 ₽');
    expect(page.html).toContain('Начислять, списывать и блокировать может администратор');
    expect(page.html).not.toContain('name="amount"');
    const refused = await manager.go(`/ops/customers/${customerId}`, {
      _csrf: Visitor.formToken(page.html),
      action: 'credit',
      kind: 'balance',
      amount: '1000',
      reason: 'подарок',
    });
    expect(refused.status).toBe(403);
    expect(refused.html).toContain('Это действие доступно только администратору');
    const blocked = await manager.go(`/ops/customers/${customerId}`, { _csrf: Visitor.formToken(page.html), action: 'block', reason: 'подозрительно' });
    expect(blocked.status).toBe(403);
    expect(await money()).toEqual(expect.objectContaining({ balance_amount: 0, bonus_amount: 0 }));
    // A manager may leave a note.
    expect(
      (await manager.go(`/ops/customers/${customerId}`, { _csrf: Visitor.formToken(page.html), action: 'note', note: 'Просит звонить после 18:00' })).status,
    ).toBe(303);
  });

  it('credit and debit the balance and points as new ledger lines with the admin’s reason, never below zero', async () => {
    const page = await admin.go(`/ops/customers/${customerId}`);
    const csrf = Visitor.formToken(page.html);
    const act = (fields: Record<string, string>) => admin.go(`/ops/customers/${customerId}`, { _csrf: csrf, ...fields });
    const credited = await act({ action: 'credit', kind: 'balance', amount: '1 500,50', reason: 'Компенсация за задержку доставки' });
    expect(credited.status).toBe(303);
    expect((await admin.go(credited.headers.get('location') as string)).html).toContain('Начислено');
    expect(await money()).toEqual(expect.objectContaining({ balance_amount: 150050, bonus_amount: 0 }));
    const tooMuch = await act({ action: 'debit', kind: 'balance', amount: '2000', reason: 'Ошибочное начисление' });
    expect(tooMuch.status).toBe(409);
    expect(tooMuch.html.replace(/\u00a0/g, ' ')).toContain('Столько списать нельзя: доступно 1 500,5 ₽');
    expect((await act({ action: 'debit', kind: 'bonus', amount: '1', reason: 'Ошибка' })).status).toBe(409);
    expect((await act({ action: 'credit', kind: 'bonus', amount: '300', reason: 'За отзыв в соцсетях' })).status).toBe(303);
    expect((await act({ action: 'debit', kind: 'balance', amount: '500.50', reason: 'Ошибочное начисление' })).status).toBe(303);
    expect(await money()).toEqual(expect.objectContaining({ balance_amount: 100000, bonus_amount: 30000 }));
    for (const [fields, message] of [
      [{ amount: '-5' }, 'Сумма — число рублей больше нуля'],
      [{ amount: '0' }, 'Сумма — число рублей больше нуля'],
      [{ amount: '1e5' }, 'Сумма — число рублей больше нуля'],
      [{ amount: '99999999' }, 'Сумма — число рублей больше нуля'],
      [{ reason: ' ' }, 'Напишите причину'],
      [{ kind: 'gold' }, ''],
    ] as [Record<string, string>, string][]) {
      const res = await act({ action: 'credit', kind: 'balance', amount: '10', reason: 'Причина', ...fields });
      expect(res.status, JSON.stringify(fields)).toBe(422);
      expect(res.html).toContain(message);
    }
    expect(await money()).toEqual(expect.objectContaining({ balance_amount: 100000, bonus_amount: 30000 }));
    // The customer's own history shows the shop's lines; the console's shows the reasons and the audit log who.
    const history = await call('/customer/balance-history', undefined, `Bearer ${(await login()).body.data?.access_token}`);
    expect(JSON.stringify(history.body)).toContain('Начисление магазина');
    const after = await admin.go(`/ops/customers/${customerId}`);
    expect(testid(after.html, 'ops-customer-balance')).toBe('1 000 ₽');
    expect(testid(after.html, 'ops-customer-bonus')).toBe('300 ₽');
    expect(after.html).toContain('Компенсация за задержку доставки');
    expect(after.html).toContain('customer.credit: balance: 0 → reason: Компенсация за задержку доставки, balance: 150050');
    expect(after.html).toContain('Просит звонить после 18:00');
  });

  it('block the login (every session ends, the right password is told so) and open it again', async () => {
    const token = `Bearer ${(await login()).body.data?.access_token}`;
    expect((await call('/customer/dashboard', undefined, token)).status).toBe(200);
    const page = await admin.go(`/ops/customers/${customerId}`);
    const blocked = await admin.go(`/ops/customers/${customerId}`, { _csrf: Visitor.formToken(page.html), action: 'block', reason: 'Заявление о взломе' });
    expect(blocked.status).toBe(303);
    expect((await call('/customer/dashboard', undefined, token)).status).toBe(401);
    const right = await login();
    expect(right.status).toBe(403);
    expect(right.body.message).toBe('Вход в этот аккаунт заблокирован. Напишите нам, и мы разберёмся');
    expect((await login('не тот пароль вовсе')).status).toBe(401);
    const shown = await admin.go(`/ops/customers/${customerId}`);
    expect(shown.html).toContain('data-testid="ops-customer-blocked"');
    expect(found((await admin.go('/ops/customers?q=zinaida')).html)).toHaveLength(1);
    const opened = await admin.go(`/ops/customers/${customerId}`, { _csrf: Visitor.formToken(shown.html), action: 'unblock' });
    expect(opened.status).toBe(303);
    expect((await login()).status).toBe(200);
  });

  it('answer 404 for customers that do not exist and send visitors without a session to sign in', async () => {
    for (const path of ['/ops/customers/999999', '/ops/customers/x', '/ops/customers/-1']) expect((await admin.go(path)).status, path).toBe(404);
    const page = await admin.go('/ops/customers/999999');
    expect(page.status).toBe(404);
    const res = await fetch(`${server.baseUrl}/ops/customers/${customerId}`, { redirect: 'manual' });
    expect(res.headers.get('location')).toBe('/ops/login');
  });
});
