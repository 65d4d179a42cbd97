// Purges reaching a CDN (docs/operations.md "A CDN in front"), through the Cloudflare adapter against a
// stand-in of its purge API (tests/support/cloudflare-standin.ts): the new build's full purge, a price
// changed in the console, an import's new products in requests of at most 100 tags, the API failing (the
// tags wait in the outbox, /metrics shows them, they go once it answers), and its rate limit met (the 429
// waited out by its Retry-After). On PGlite, and on PostgreSQL in CI.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatPrice } from '~/lib/format.ts';
import { startCloudflareStandin, type CloudflareStandin } from '../support/cloudflare-standin.ts';
import { afterJobRuns } from '../support/jobs.ts';
import { saveProduct, signedInOperator, type Visitor } from '../support/ops.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { shopper } from '../support/shopper.ts';
import { startShop, waitUntilReady, type ShopProcess } from '../support/shop-process.ts';

const TOKEN = 'metrics-token-for-the-cdn-tests-0123456789';
const work = mkdtempSync(join(tmpdir(), 'cdn-purge-'));
let cloudflare: CloudflareStandin;
let shop: TestServer;
let admin: Visitor;

beforeAll(async () => {
  cloudflare = await startCloudflareStandin({ perMinute: 6_000, burst: 100 });
  shop = await startTestServer({
    label: 'cdn-purge',
    seedProducts: 40,
    env: {
      CDN_PURGE: 'cloudflare',
      CLOUDFLARE_API_URL: cloudflare.apiUrl,
      CLOUDFLARE_ZONE_ID: cloudflare.zoneId,
      CLOUDFLARE_API_TOKEN: cloudflare.token,
      // The shop's own count of the plan's rate is generous here: the stand-in's limit is what the last case meets.
      CLOUDFLARE_PURGES_PER_MINUTE: '3000',
      CLOUDFLARE_PURGE_BURST: '500',
      METRICS_TOKEN: TOKEN,
    },
  });
  admin = (await signedInOperator(shop, 'admin@shop.ru', 'admin')).visitor;
}, 120_000);
afterAll(async () => {
  await shop?.stop();
  await cloudflare?.stop();
  rmSync(work, { recursive: true, force: true });
});

const until = async <T>(ask: () => T | Promise<T>, done: (value: T) => boolean, what: string, timeoutMs = 20_000): Promise<T> => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await ask();
    if (done(value)) return value;
    if (Date.now() > deadline) {
      const text = await (await fetch(`${shop.baseUrl}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).text();
      console.log(
        text
          .split('\n')
          .filter((l) => /cdn|purge|catalogue_version/.test(l))
          .join('\n'),
      );
      throw new Error(`not within ${timeoutMs} ms: ${what}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
};
const metric = async (name: string) => {
  const text = await (await fetch(`${shop.baseUrl}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).text();
  return Number(new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)$`, 'm').exec(text)?.[1] ?? 'NaN');
};

describe('purges through Cloudflare’s API', () => {
  it('a new build purges everything, once', async () => {
    await until(
      () => cloudflare.calls.filter((c) => c.everything && c.status === 200).length,
      (n) => n >= 1,
      'the full purge',
    );
    await afterJobRuns(shop.baseUrl, TOKEN, 'purge-cdn');
    expect(cloudflare.calls.filter((c) => c.everything).length).toBe(1);
  });

  it('a price changed in the console: its tags reach the API, the origin shows the price under those tags', async () => {
    const id = 7;
    // What the shop's start queued (the seed's photos) gone first: from here on, only the change.
    await until(
      () => metric('shop_cdn_purges_waiting'),
      (n) => n === 0,
      'the outbox emptied',
    );
    const page = await fetch(`${shop.baseUrl}/p/${id}`);
    const tags = (page.headers.get('cache-tag') ?? '').split(',');
    expect(tags).toContain(`product-${id}`);
    expect(page.headers.get('cdn-cache-control')).toBe('public, max-age=86400, stale-while-revalidate=60, stale-if-error=86400');
    const sent = cloudflare.calls.length;
    await saveProduct(admin, id, 23_456);
    const purged = await until(
      () =>
        cloudflare.calls
          .slice(sent)
          .filter((c) => c.status === 200)
          .flatMap((c) => c.tags ?? []),
      (t) => t.includes(`product-${id}`),
      'the product’s tag purged',
    );
    expect(purged).toEqual(expect.arrayContaining([`product-${id}`, `card-${id}`, 'home']));
    expect(purged.some((t) => t.startsWith('category-'))).toBe(true);
    expect(purged.some((t) => t.startsWith('brand-'))).toBe(true);
    // Each tag once, and nothing the change did not touch.
    expect(new Set(purged).size).toBe(purged.length);
    expect(purged.filter((t) => t.startsWith('product-'))).toEqual([`product-${id}`]);
    // By the time it was purged, the origin answered with the new price.
    expect(await (await fetch(`${shop.baseUrl}/p/${id}`)).text()).toContain(formatPrice(2_345_600));
    await until(
      () => metric('shop_cdn_purges_waiting'),
      (n) => n === 0,
      'the outbox emptied',
    );
  });

  it('an order selling out a size purges the product’s card and listings; one that leaves units purges its page only', async () => {
    const id = 12;
    await saveProduct(admin, id, 15_000, 2);
    await until(
      () => metric('shop_cdn_purges_waiting'),
      (n) => n === 0,
      'the console’s change purged',
    );
    await until(
      () => cloudflare.purged(),
      (t) => t.includes(`product-${id}`),
      'the console’s change purged',
    );
    const buyer = shopper(() => shop);
    const item = await buyer.inStock(0, [id]);
    const tagsAfter = async (from: number) =>
      until(
        () =>
          cloudflare.calls
            .slice(from)
            .filter((c) => c.status === 200)
            .flatMap((c) => c.tags ?? []),
        (t) => t.includes(`product-${id}`),
        'the order’s purge',
      );
    // Two units of the size: the first order leaves one — its page (how many are left) only.
    let sent = cloudflare.calls.length;
    await buyer.paidOrder(await buyer.register(), 0, item);
    expect(await tagsAfter(sent)).toEqual([`product-${id}`]);
    // The last unit: the size is sold out on the card and in the listings' size filter.
    await until(
      () => metric('shop_cdn_purges_waiting'),
      (n) => n === 0,
      'the outbox emptied',
    );
    sent = cloudflare.calls.length;
    await buyer.paidOrder(await buyer.register(), 0, item);
    const last = await tagsAfter(sent);
    expect(last).toEqual(expect.arrayContaining([`product-${id}`, `card-${id}`]));
    expect(last.some((t) => t.startsWith('category-'))).toBe(true);
    expect(last.some((t) => t.startsWith('brand-'))).toBe(true);
  });

  it('an import’s new products go out in requests of at most 100 tags', async () => {
    const offers = Array.from(
      { length: 60 },
      (_, i) =>
        `<offer id="n${i}" available="true"><price>${9990 + i}</price><currencyId>RUR</currencyId><categoryId>1</categoryId><vendor>CDN Test</vendor>` +
        `<name>Футболка ${i}</name><param name="Размер">${40 + (i % 6)}</param><count>2</count></offer>\n`,
    ).join('');
    const path = join(work, 'new.yml');
    writeFileSync(
      path,
      `<?xml version="1.0" encoding="UTF-8"?>\n<yml_catalog date="2026-11-28"><shop><name>T</name><currencies><currency id="RUR" rate="1"/></currencies>` +
        `<categories><category id="1">Футболки</category></categories><offers>\n${offers}</offers></shop></yml_catalog>\n`,
    );
    const sent = cloudflare.calls.length;
    const status = await new Promise<number | null>((done) => {
      const child = spawn(process.execPath, ['scripts/import.ts', path, '--skip-photos', '--json', '--report', join(work, 'report.csv')], {
        env: { ...process.env, ...shop.database.env, NODE_ENV: 'test' },
        stdio: 'ignore',
      });
      child.on('close', done);
    });
    expect(status).toBe(0);
    const calls = await until(
      () => cloudflare.calls.slice(sent).filter((c) => c.status === 200 && c.tags),
      // Every new product's page and card (120 tags and more): the first request may carry all the cards.
      (c) => {
        const tags = c.flatMap((call) => call.tags ?? []);
        return ['card-', 'product-'].every((kind) => tags.filter((t) => t.startsWith(kind)).length >= 60);
      },
      'the 60 new pages and cards purged',
    );
    expect(calls.length).toBeGreaterThanOrEqual(2);
    expect(Math.max(...calls.map((c) => c.tags?.length ?? 0))).toBeLessThanOrEqual(100);
  });

  it('while the API fails, the tags wait in the outbox and /metrics says so; they go once it answers', async () => {
    cloudflare.mode = 'failing';
    const sent = cloudflare.calls.length;
    await saveProduct(admin, 8, 31_000);
    await until(
      () => cloudflare.calls.slice(sent).filter((c) => c.status === 500).length,
      (n) => n >= 1,
      'a failed purge',
    );
    expect(await metric('shop_cdn_purges_waiting')).toBeGreaterThan(0);
    expect(await metric('shop_cdn_purge_failures')).toBeGreaterThanOrEqual(1);
    expect(await metric('shop_cdn_purge_requests_total')).toBeGreaterThan(0);
    cloudflare.mode = 'ok';
    await until(
      () => cloudflare.purged(),
      (t) => t.includes('product-8'),
      'the purge after the outage',
      30_000,
    );
    await until(
      () => metric('shop_cdn_purges_waiting'),
      (n) => n === 0,
      'the outbox emptied',
    );
    expect(await metric('shop_cdn_purge_failures')).toBe(0);
  });

  it('over the plan’s rate: the 429 is waited out by its Retry-After, and nothing is lost', async () => {
    // One request every 5 s: the second change's purge meets the 429 and is sent again after it.
    Object.assign(cloudflare.limit, { perMinute: 12, burst: 1, retryAfterSeconds: 1 });
    const sent = cloudflare.calls.length;
    const purged = () =>
      cloudflare.calls
        .slice(sent)
        .filter((c) => c.status === 200)
        .flatMap((c) => c.tags ?? []);
    await saveProduct(admin, 9, 41_000);
    await until(purged, (t) => t.includes('product-9'), 'the first');
    await saveProduct(admin, 10, 42_000);
    await until(purged, (t) => t.includes('product-10'), 'the second, after the 429', 30_000);
    expect(cloudflare.calls.slice(sent).filter((c) => c.status === 429).length).toBeGreaterThanOrEqual(1);
    expect(purged().filter((t) => t === 'product-10')).toHaveLength(1);
    Object.assign(cloudflare.limit, { perMinute: 6_000, burst: 100, retryAfterSeconds: 60 });
  });
});

describe('purges across a restart', () => {
  let first: ShopProcess | undefined;
  let second: ShopProcess | undefined;
  afterAll(async () => {
    if (second) await second.dispose();
    else await first?.dispose();
  });

  it('tags queued while the API failed go out after the shop restarts; the same build does not purge everything again', async () => {
    const standin = await startCloudflareStandin({ perMinute: 6_000, burst: 100 });
    const env = {
      CDN_PURGE: 'cloudflare',
      CLOUDFLARE_API_URL: standin.apiUrl,
      CLOUDFLARE_ZONE_ID: standin.zoneId,
      CLOUDFLARE_API_TOKEN: standin.token,
      CLOUDFLARE_PURGES_PER_MINUTE: '3000',
      CLOUDFLARE_PURGE_BURST: '500',
    };
    try {
      first = await startShop('server', env);
      await waitUntilReady(first);
      await until(
        () => standin.calls.filter((c) => c.everything && c.status === 200).length,
        (n) => n === 1,
        'the new build’s purge',
      );
      standin.mode = 'failing';
      const path = join(work, 'restart.yml');
      writeFileSync(
        path,
        `<?xml version="1.0" encoding="UTF-8"?>\n<yml_catalog date="2026-11-28"><shop><name>T</name><currencies><currency id="RUR" rate="1"/></currencies>` +
          `<categories><category id="1">Шарфы</category></categories><offers>\n<offer id="r1" available="true"><price>4990</price><currencyId>RUR</currencyId>` +
          `<categoryId>1</categoryId><vendor>Restart</vendor><name>Шарф</name><count>1</count></offer>\n</offers></shop></yml_catalog>\n`,
      );
      const status = await new Promise<number | null>((done) => {
        const child = spawn(process.execPath, ['scripts/import.ts', path, '--skip-photos', '--json', '--report', join(work, 'restart.csv')], {
          env: { ...process.env, ...first?.database.env, NODE_ENV: 'test' },
          stdio: 'ignore',
        });
        child.on('close', done);
      });
      expect(status).toBe(0);
      await until(
        () => standin.calls.filter((c) => c.status === 500).length,
        (n) => n >= 1,
        'a failed purge',
      );
      process.kill(first.child.pid ?? 0, 'SIGTERM');
      expect(await first.exited).toEqual({ code: 0, signal: null });
      standin.mode = 'ok';
      const before = standin.calls.length;
      second = await startShop('server', env, first.database);
      await waitUntilReady(second);
      const purged = await until(
        () => standin.calls.slice(before).filter((c) => c.status === 200),
        (calls) => calls.some((c) => c.tags?.includes('search')),
        'the queued tags after the restart',
      );
      expect(purged.flatMap((c) => c.tags ?? []).some((t) => t.startsWith('card-'))).toBe(true);
      expect(standin.calls.filter((c) => c.everything)).toHaveLength(1);
    } finally {
      await standin.stop();
    }
  }, 120_000);
});
