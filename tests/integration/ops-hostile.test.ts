// Every /ops page and call against hostile requests (issue 24): no session, a customer's session, a
// manager at an admin's page, a missing or another session's CSRF token, a body past the limit, NUL bytes,
// a form where a page takes none, ids of objects that are not there, a brute-forced TOTP code. Each answer
// is 4xx, never 500, and nothing changes: the audit log (every change writes a line) and the objects stay
// as they were — on the built server, PGlite and PostgreSQL in CI.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.ts';
import { codeAt, sendBuyoutRequest, signedInOperator, Visitor } from '../support/ops.ts';
import { shopper } from '../support/shopper.ts';

let server: TestServer;
let admin: Visitor;
let manager: Visitor;
let customerCookie: string;
let orderCode: string;

/**
 * The state hostile requests must not move, as an admin sees it (the server owns the embedded database):
 * the audit log (every change writes a line), an order, a buyout request, a customer, a product, the imports.
 */
async function snapshot(): Promise<string[]> {
  const pages = ['/ops/audit', `/ops/orders/${orderCode}`, '/ops/buyout/1', '/ops/customers/1', '/ops/products/1', '/ops/imports'];
  return Promise.all(pages.map(async (path) => (await admin.go(path)).html.replace(/operator\.login/g, '')));
}

beforeAll(async () => {
  server = await startTestServer({ seedProducts: 10, label: 'ops-hostile' });
  admin = (await signedInOperator(server, 'admin@shop.ru', 'admin')).visitor;
  manager = (await signedInOperator(server, 'manager@shop.ru', 'manager')).visitor;
  const buyer = shopper(() => server);
  const auth = await buyer.register();
  orderCode = (await buyer.paidOrder(auth)).code;
  // A customer's own session cookie, as the storefront sets it.
  const login = await fetch(`${server.baseUrl}/api/v1/ecommerce-core/auth/customer-login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'nobody@example.ru', password: 'x' }),
  });
  expect(login.status).toBe(401);
  customerCookie = `bs_session=${auth.authorization.replace('Bearer ', '')}`;
  expect((await sendBuyoutRequest(server.baseUrl, { name: 'Ольга' })).status).toBe(201);
}, 120_000);
afterAll(() => server?.stop());

/** Every change the console makes, with a valid form of it (the session's token is added per visitor). */
const CHANGES = (): [string, Record<string, string>][] => [
  [`/ops/orders/${orderCode}`, { action: 'move', status: 'cancelled' }],
  [`/ops/orders/${orderCode}`, { action: 'tracking', tracking_id: 'RA123456789RU' }],
  [`/ops/orders/${orderCode}`, { action: 'note', note: 'x' }],
  ['/ops/buyout/1', { action: 'take' }],
  ['/ops/buyout/1', { action: 'move', status: 'declined' }],
  ['/ops/customers/1', { action: 'credit', kind: 'balance', amount: '100', reason: 'подарок' }],
  ['/ops/customers/1', { action: 'block', reason: 'проверка' }],
  ['/ops/products/1', { action: 'save', price: '1', visible: 'on' }],
  ['/ops/products/1', { action: 'photo_delete', image: '1' }],
  ['/ops/imports', { url: 'https://example.com/feed.xml' }],
];
const ADMIN_ONLY = ['/ops/products/1', '/ops/imports'];
const PAGES = () => [
  '/ops/orders',
  `/ops/orders/${orderCode}`,
  `/ops/orders/${orderCode}/slip`,
  '/ops/buyout',
  '/ops/buyout/1',
  '/ops/customers',
  '/ops/customers/1',
  '/ops/products',
  '/ops/products/1',
  '/ops/imports',
  '/ops/audit',
];

const raw = (path: string, init: { method?: string; cookie?: string; type?: string; body?: BodyInit; length?: string } = {}) =>
  fetch(server.baseUrl + path, {
    method: init.method ?? 'GET',
    redirect: 'manual',
    headers: {
      ...(init.cookie ? { cookie: init.cookie } : {}),
      ...(init.type ? { 'content-type': init.type } : {}),
      ...(init.length ? { 'content-length': init.length } : {}),
    },
    ...(init.body !== undefined ? { body: init.body } : {}),
  });
const cookieOf = (visitor: Visitor) => [...visitor.cookies].map(([k, v]) => `${k}=${v}`).join('; ');

describe('hostile requests to the console', () => {
  it('without an operator session (none, a customer’s, a made-up one): pages lead to sign-in, changes are 403', async () => {
    const before = await snapshot();
    for (const cookie of ['', customerCookie, `ops_session=${'A'.repeat(43)}`]) {
      for (const path of PAGES()) {
        const res = await raw(path, { cookie });
        expect(res.status, `${path} ${cookie}`).toBe(303);
        expect(res.headers.get('location')).toBe('/ops/login');
      }
      for (const [path, form] of CHANGES()) {
        const res = await raw(path, {
          method: 'POST',
          cookie,
          type: 'application/x-www-form-urlencoded',
          body: new URLSearchParams({ _csrf: 'x', ...form }).toString(),
        });
        expect(res.status, `${path} ${form['action']}`).toBe(403);
      }
      expect((await raw('/ops/orders/newer?since=0.0', { cookie })).status).toBe(401);
      expect((await raw('/ops/imports/1/report', { cookie })).status).toBe(303);
    }
    // An operator's session has no power in the storefront: its cookie is not a customer's.
    const storefront = await raw('/api/v1/ecommerce-core/customer/dashboard', { cookie: cookieOf(admin) });
    expect(storefront.status).toBe(401);
    expect(await snapshot()).toEqual(before);
  });

  it('a manager at an admin’s page or change: 403', async () => {
    const before = await snapshot();
    const csrf = Visitor.formToken((await manager.go('/ops/orders')).html);
    for (const path of ['/ops/products', '/ops/products/1', '/ops/imports', '/ops/imports/1', '/ops/imports/1/report', '/ops/audit'])
      expect((await manager.go(path)).status, path).toBe(403);
    for (const [path, form] of CHANGES().filter(([p]) => ADMIN_ONLY.includes(p)))
      expect((await manager.go(path, { _csrf: csrf, ...form })).status, path).toBe(403);
    for (const form of [
      { action: 'credit', kind: 'balance', amount: '100', reason: 'подарок' },
      { action: 'debit', kind: 'bonus', amount: '1', reason: 'ошибка' },
      { action: 'block', reason: 'проверка' },
      { action: 'unblock' },
    ])
      expect((await manager.go('/ops/customers/1', { _csrf: csrf, ...form })).status, form.action).toBe(403);
    expect(await snapshot()).toEqual(before);
  });

  it('a CSRF token missing, forged or another session’s: 403 on every change', async () => {
    const before = await snapshot();
    const others = Visitor.formToken((await manager.go('/ops/orders')).html);
    for (const [path, form] of CHANGES())
      for (const csrf of [undefined, '', 'forged', others]) {
        const res = await admin.go(path, { ...(csrf === undefined ? {} : { _csrf: csrf }), ...form });
        expect(res.status, `${path} ${form['action']} ${csrf}`).toBe(403);
      }
    expect(await snapshot()).toEqual(before);
  });

  it('bodies past the limit, NUL bytes, a field twice, a file where none is taken, not a form: 4xx', async () => {
    const before = await snapshot();
    const csrf = Visitor.formToken((await admin.go('/ops/orders')).html);
    const cookie = cookieOf(admin);
    const form = (fields: [string, string][]) => fields.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
    for (const [path, fields] of CHANGES()) {
      const base = { _csrf: csrf, ...fields };
      // Past each page's limit: 64 KB for text forms, 20 MB with a photo, 50 MB with a feed.
      const limit = path === '/ops/imports' ? 51 * 1024 * 1024 : path.startsWith('/ops/products') ? 21 * 1024 * 1024 : 100_000;
      const huge = await raw(path, {
        method: 'POST',
        cookie,
        type: 'application/x-www-form-urlencoded',
        body: `${form(Object.entries(base))}&note=${'x'.repeat(limit)}`,
      });
      expect(huge.status, `${path} huge`).toBe(413);
      const nul = await raw(path, {
        method: 'POST',
        cookie,
        type: 'application/x-www-form-urlencoded',
        body: form([...Object.entries(base), ['reason', 'a\u0000b']]),
      });
      expect(nul.status, `${path} NUL`).toBe(403);
      const twice = await raw(path, {
        method: 'POST',
        cookie,
        type: 'application/x-www-form-urlencoded',
        body: form([...Object.entries(base), [Object.keys(fields)[0] as string, 'twice']]),
      });
      expect(twice.status, `${path} twice`).toBe(403);
      const json = await raw(path, { method: 'POST', cookie, type: 'application/json', body: JSON.stringify(base) });
      expect(json.status, `${path} json`).toBe(403);
    }
    // A file sent to a page that takes none (the orders'): refused.
    const multipart = new FormData();
    multipart.set('_csrf', csrf);
    multipart.set('action', 'note');
    multipart.set('note', new Blob(['x']), 'x.txt');
    const file = await fetch(`${server.baseUrl}/ops/orders/${orderCode}`, { method: 'POST', body: multipart, redirect: 'manual', headers: { cookie } });
    expect(file.status).toBe(403);
    expect(await snapshot()).toEqual(before);
  });

  it('generated bodies of every shape: never a 500, nothing changes', async () => {
    const before = await snapshot();
    const csrf = Visitor.formToken((await admin.go('/ops/orders')).html);
    let seed = 20261126;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const values = [
      '',
      ' ',
      '-1',
      '0',
      '1e309',
      'NaN',
      '9'.repeat(40),
      '<script>alert(1)</script>',
      "'; DROP TABLE orders; --",
      '\u202e',
      '🦄'.repeat(50),
      'a'.repeat(3000),
      '%00',
      '../../etc/passwd',
    ];
    const names = [
      'action',
      'status',
      'note',
      'amount',
      'kind',
      'reason',
      'price',
      'price_old',
      'image',
      'url',
      'tracking_id',
      'stock_1',
      'visible',
      '__proto__',
      'constructor',
    ];
    const actions = ['move', 'note', 'take', 'credit', 'debit', 'block', 'unblock', 'save', 'photo_up', 'photo_add', 'refunded', 'event', 'tracking', 'bogus'];
    for (let i = 0; i < 120; i++) {
      const [path] = CHANGES()[Math.floor(random() * CHANGES().length)] as [string, unknown];
      const fields: Record<string, string> = { _csrf: csrf, action: actions[Math.floor(random() * actions.length)] as string };
      for (let n = Math.floor(random() * 5); n > 0; n--)
        fields[names[Math.floor(random() * names.length)] as string] = values[Math.floor(random() * values.length)] as string;
      // Valid shapes may change things; only refusals are asked here, so money and prices stay out of range.
      if (
        fields['action'] === 'credit' ||
        fields['action'] === 'save' ||
        fields['action'] === 'note' ||
        fields['action'] === 'take' ||
        fields['action'] === 'block' ||
        fields['action'] === 'move'
      )
        fields['action'] = 'bogus';
      const res = await admin.go(path, fields);
      expect(res.status, `${path} ${JSON.stringify(fields).slice(0, 200)}`).toBeGreaterThanOrEqual(400);
      expect(res.status, `${path} ${JSON.stringify(fields).slice(0, 200)}`).toBeLessThan(500);
    }
    expect(await snapshot()).toEqual(before);
  });

  it('ids of objects that are not there: 404 for pages and changes', async () => {
    const csrf = Visitor.formToken((await admin.go('/ops/orders')).html);
    for (const path of [
      '/ops/orders/BS-00000000',
      '/ops/orders/bs-1',
      '/ops/orders/BS-1%2F..%2F..',
      '/ops/buyout/999999',
      '/ops/customers/999999',
      '/ops/products/999999',
      '/ops/imports/999999',
      '/ops/imports/999999/report',
    ])
      expect((await admin.go(path)).status, path).toBe(404);
    for (const path of ['/ops/orders/BS-00000000', '/ops/buyout/999999', '/ops/customers/999999', '/ops/products/999999'])
      expect((await admin.go(path, { _csrf: csrf, action: 'note', note: 'x' })).status, path).toBe(404);
  });

  it('a TOTP code guessed with the right password: throttled before it could be found', async () => {
    const { secret, password } = await signedInOperator(server, 'target@shop.ru', 'manager');
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) {
      const visitor = new Visitor(server.baseUrl);
      const page = await visitor.go('/ops/login');
      const guess = String(100000 + i);
      const res = await visitor.go('/ops/login', { _csrf: Visitor.formToken(page.html), email: 'target@shop.ru', password, code: guess });
      statuses.push(res.status);
    }
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(statuses.slice(5)).toEqual([429, 429, 429]);
    // Even the right code now waits for the window to pass.
    const visitor = new Visitor(server.baseUrl);
    const page = await visitor.go('/ops/login');
    expect((await visitor.go('/ops/login', { _csrf: Visitor.formToken(page.html), email: 'target@shop.ru', password, code: codeAt(secret, 2) })).status).toBe(
      429,
    );
  });
});
