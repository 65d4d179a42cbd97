// The housekeeping jobs (docs/operations.md "Housekeeping jobs") in a running shop whose payments go to
// a YooKassa stand-in, with nobody else ordering: an unpaid order past its time gives its stock back; a
// payment the shopper completed whose notification never came is applied; a payment made after its order
// timed out is refunded; spent sessions, reset links, operator sessions and lapsed throttles go while
// live ones stay; failed mail is sent again once its back-off has passed; the product feed is written.
// Each job logs one line per run. The database is read once the shop has stopped (the embedded one is
// the shop's alone while it runs). On PostgreSQL, only one process at a time runs a job.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/lib/db/client.ts';
import { env } from '../../src/lib/env.ts';
import { retryDelayMinutes } from '../../src/lib/mail.server.ts';
import { createFreshDatabase } from '../support/fresh-database.ts';
import { seededDatabase } from '../support/seeded-database.ts';
import { inStock, placeGuestOrder } from '../support/in-stock.ts';
import { startShop, until, waitUntilReady, type ShopProcess } from '../support/shop-process.ts';
import { startYookassaStandin, type Standin } from '../support/yookassa-standin.ts';

let shop: ShopProcess;
let standin: Standin;

const ago = (days: number) => `now() - interval '${days} days'`;
const jobLines = (job: string) => shop.logLines().filter((l) => l['msg'] === 'job ran' && l['job'] === job);
const orders: Record<'released' | 'polled' | 'refunded', { code: string; variant: string }> = {} as never;

beforeAll(async () => {
  standin = await startYookassaStandin('123456', 'test_secret_key_42');
  // Migrated and seeded already: a copy of a template.
  const fresh = await seededDatabase('jobs', { seedProducts: 150, seed: env().SEED });
  const db = await openDatabase({ databaseUrl: fresh.databaseUrl, dataDir: fresh.dataDir });
  // What the jobs must clear, and what they must leave: one customer's logins and reset links, an
  // operator's sessions and setup links, throttle counters, and mail that failed to go out.
  for (const statement of [
    `INSERT INTO customers (id, email, password_hash) VALUES (9001, 'jobs@example.ru', 'x')`,
    `INSERT INTO sessions (customer_id, token_hash, family_id, expires_at, family_expires_at) VALUES
       (9001, 'expired', 'f1', ${ago(2)}, now() + interval '20 days'),
       (9001, 'live', 'f2', now() + interval '1 day', now() + interval '20 days'),
       (9001, 'ended-an-hour-ago', 'f3', now() - interval '1 hour', now() + interval '20 days')`,
    `INSERT INTO password_resets (customer_id, token_hash, expires_at, used_at) VALUES
       (9001, 'used', now() + interval '1 hour', ${ago(2)}), (9001, 'lapsed', ${ago(3)}, NULL), (9001, 'open', now() + interval '1 hour', NULL)`,
    `INSERT INTO operators (id, email, role, totp_secret) VALUES (9001, 'ops.jobs@example.ru', 'manager', 'JBSWY3DPEHPK3PXP')`,
    `INSERT INTO operator_sessions (token_hash, operator_id, csrf, ended_at) VALUES ('op-ended', 9001, 'c', ${ago(2)}), ('op-live', 9001, 'c', NULL)`,
    `INSERT INTO operator_setup_tokens (token_hash, operator_id, expires_at) VALUES ('setup-lapsed', 9001, ${ago(2)}), ('setup-open', 9001, now() + interval '1 day')`,
    `INSERT INTO throttles (key, count, reset_at, blocked_until) VALUES
       ('login:lapsed', 3, now() - interval '1 minute', NULL),
       ('login:blocked', 10, now() - interval '1 minute', now() + interval '10 minutes'),
       ('login:counting', 1, now() + interval '10 minutes', NULL)`,
    `INSERT INTO mail_outbox ("to", subject, text, attempts, error, next_attempt_at) VALUES
       ('retry@example.ru', 'Повтор', 'текст', 2, 'ECONNREFUSED', now() - interval '1 second'),
       ('later@example.ru', 'Позже', 'текст', 2, 'ECONNREFUSED', now() + interval '1 hour')`,
    `INSERT INTO mail_outbox ("to", subject, text, attempts, created_at) VALUES ('never@example.ru', 'Не отправлено', 'текст', 0, now() - interval '1 hour')`,
  ])
    await db.query(statement);
  await db.close();
  shop = await startShop(
    'server',
    {
      JOBS_EVERY_SECONDS: '1',
      // An order holds its stock 12 s; a pending payment is asked about after 6 s.
      PAYMENT_TIMEOUT_MINUTES: '0.2',
      PAYMENT_PROVIDER: 'yookassa',
      YOOKASSA_SHOP_ID: '123456',
      YOOKASSA_SECRET_KEY: 'test_secret_key_42',
      YOOKASSA_API_URL: `${standin.url}/v3`,
      FEED_REFRESH_MINUTES: '60',
    },
    fresh,
  );
  await waitUntilReady(shop);
}, 180_000);

afterAll(async () => {
  await shop?.dispose();
  await standin?.close();
});

const paymentOf = (paymentUrl: string | null) => {
  const found = [...standin.payments.values()].find((p) => paymentUrl?.endsWith(p.id));
  if (!found) throw new Error('no stand-in payment');
  return found;
};

describe('housekeeping jobs', () => {
  it('release an unpaid order past its time, apply a payment whose notification never came, refund one paid too late', async () => {
    const items = await inStock(shop.baseUrl, 3);
    const place = async (k: number) => {
      const placed = await placeGuestOrder(shop.baseUrl, items[k]!);
      expect(placed.status).toBe(201);
      return { code: placed.body.data!.code, variant: items[k]!.variant_code, url: placed.body.data!.payment_url };
    };
    const released = await place(0);
    const polled = await place(1);
    const late = await place(2);
    Object.assign(orders, { released, polled, refunded: late });
    // The shopper pays; YooKassa's notification is lost. The job asks after 6 s, before the order's 12 s run out.
    standin.settle(paymentOf(polled.url).id, 'succeeded');
    await until(() => jobLines('poll-pending-payments').some((l) => Number(l['items']) > 0), Boolean, 'payment applied');
    // Nobody orders anything else: the job releases the other two once their 12 s are up.
    await until(
      () => jobLines('release-unpaid-orders').reduce((n, l) => n + Number(l['items']), 0),
      (n) => n >= 2,
      'orders released',
    );
    // A payment completed after its order was released: applied by the poll, then refunded — once the
    // provider allows it; until then the order is left (refund_due) for a manager.
    standin.refuseRefunds(true);
    standin.settle(paymentOf(late.url).id, 'succeeded');
    await until(
      () => shop.logLines().some((l) => l['msg'] === 'refund refused by the provider: left for a manager' && l['order'] === late.code),
      Boolean,
      'refund refused',
    );
    expect(standin.refunds).toEqual([]);
    standin.refuseRefunds(false);
    await until(
      () => standin.refunds.map((r) => r.body.payment_id),
      (ids) => ids.includes(paymentOf(late.url).id),
      'refund asked of the provider',
    );
    await until(() => jobLines('refund-due-payments').some((l) => Number(l['items']) > 0), Boolean, 'refund logged');
    expect(standin.refunds.filter((r) => r.body.payment_id === paymentOf(late.url).id)).toHaveLength(1);
    expect(standin.refunds.filter((r) => r.body.payment_id === paymentOf(polled.url).id)).toHaveLength(0);
  });

  it('write the product feed without anyone asking for it', async () => {
    const feeds = join(shop.database.dataDir, 'feeds');
    await until(() => existsSync(feeds) && readdirSync(feeds).some((f) => f.endsWith('.gz')), Boolean, 'feed written');
    expect(jobLines('refresh-product-feed').some((l) => l['items'] === 1)).toBe(true);
  });

  it('send again mail whose back-off has passed, and mail recorded but never tried; leave the rest for later', async () => {
    const outbox = join(shop.database.dataDir, 'outbox');
    const mails = () => (existsSync(outbox) ? readdirSync(outbox).map((f) => readFileSync(join(outbox, f), 'utf8')) : []);
    await until(mails, (m) => m.some((t) => t.includes('retry@example.ru')) && m.some((t) => t.includes('never@example.ru')), 'mail retried');
    expect(mails().some((t) => t.includes('later@example.ru'))).toBe(false);
    expect([1, 2, 3, 4, 9, 10, 20].map(retryDelayMinutes)).toEqual([1, 2, 4, 8, 256, 360, 360]);
  });

  it('log one line per run of every job', async () => {
    const names = [
      'release-unpaid-orders',
      'retry-mail',
      'poll-pending-payments',
      'refund-due-payments',
      'refresh-product-feed',
      'register-shipments',
      'poll-shipments',
      'settle-receipts',
      'delete-spent-rows',
    ];
    await until(
      () => names.filter((job) => jobLines(job).length < 2),
      (missing) => missing.length === 0,
      'jobs not logged twice yet',
    );
    for (const line of shop.logLines().filter((l) => l['msg'] === 'job ran'))
      expect(Object.keys(line).sort()).toEqual(['items', 'job', 'level', 'ms', 'msg', 'time']);
    expect(shop.logLines().filter((l) => l['msg'] === 'job failed')).toEqual([]);
  });

  it('leave the database as the jobs say, once the shop has stopped', async () => {
    process.kill(shop.child.pid ?? 0, 'SIGTERM');
    expect(await shop.exited).toEqual({ code: 0, signal: null });
    const db: Database = await openDatabase({ databaseUrl: shop.database.databaseUrl, dataDir: shop.database.dataDir });
    try {
      const one = async (text: string, params: unknown[] = []) => (await db.query(text, params)).rows;
      const order = async (code: string) => (await one('SELECT status, payment_status FROM orders WHERE code = $1', [code]))[0];
      expect(await order(orders.released.code)).toEqual({ status: 'cancelled', payment_status: 'unpaid' });
      expect(await order(orders.polled.code)).toEqual({ status: 'processing', payment_status: 'paid' });
      expect(await order(orders.refunded.code)).toEqual({ status: 'cancelled', payment_status: 'refunded' });
      const history = await one(`SELECT h.note FROM order_status_history h JOIN orders o ON o.id = h.order_id WHERE o.code = $1 ORDER BY h.id`, [
        orders.refunded.code,
      ]);
      expect(history.map((h) => h['note'])).toEqual(['', 'payment_timeout', 'paid_after_cancel', 'refunded_automatically']);
      // The released orders' sizes have their stock back: nothing else holds them.
      const held = await one(
        `SELECT count(*)::int AS n FROM order_lines l JOIN orders o ON o.id = l.order_id WHERE o.status = 'pending' AND l.variant_id IN
           (SELECT id FROM product_variants WHERE code = ANY($1))`,
        [[orders.released.variant, orders.refunded.variant]],
      );
      expect(held[0]?.['n']).toBe(0);
      const names = async (table: string, column: string) => (await one(`SELECT ${column} AS v FROM ${table} ORDER BY 1`)).map((r) => r['v']);
      expect(await names('sessions', 'token_hash')).toEqual(['ended-an-hour-ago', 'live']);
      expect(await names('password_resets', 'token_hash')).toEqual(['open']);
      expect(await names('operator_sessions', 'token_hash')).toEqual(['op-live']);
      expect(await names('operator_setup_tokens', 'token_hash')).toEqual(['setup-open']);
      expect((await names('throttles', 'key')).filter((key) => String(key).startsWith('login:'))).toEqual(['login:blocked', 'login:counting']);
      const mail = await one(
        `SELECT "to", attempts, sent_at IS NOT NULL AS sent FROM mail_outbox WHERE "to" IN ('retry@example.ru', 'later@example.ru', 'never@example.ru') ORDER BY "to"`,
      );
      expect(mail).toEqual([
        { to: 'later@example.ru', attempts: 2, sent: false },
        { to: 'never@example.ru', attempts: 1, sent: true },
        { to: 'retry@example.ru', attempts: 3, sent: true },
      ]);
    } finally {
      await db.close();
    }
  });
});

describe.skipIf(!process.env['DATABASE_URL'])('jobs on PostgreSQL', () => {
  it('run in one process at a time: a second process skips a job another is running (an advisory lock)', async () => {
    const fresh = await createFreshDatabase('locks');
    const a = await openDatabase({ databaseUrl: fresh.databaseUrl, dataDir: fresh.dataDir });
    const b = await openDatabase({ databaseUrl: fresh.databaseUrl, dataDir: fresh.dataDir });
    try {
      let release = () => {};
      const held = new Promise<void>((r) => (release = r));
      let entered = () => {};
      const inside = new Promise<void>((r) => (entered = r));
      const first = a.ifFree('job:test', async () => {
        entered();
        await held;
      });
      await inside;
      expect(await b.ifFree('job:test', async () => {})).toBe(false);
      expect(await b.ifFree('job:other', async () => {})).toBe(true);
      release();
      expect(await first).toBe(true);
      expect(await b.ifFree('job:test', async () => {})).toBe(true);
    } finally {
      await a.close();
      await b.close();
      await fresh.drop();
    }
  });
});
