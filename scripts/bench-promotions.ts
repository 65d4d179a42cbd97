// `npm run bench -- --promotions [--products 100000] [--requests 400] [--connections 1] [--index-only]` (issue 56): the cart
// and checkout summary with 200 active promotions and 10,000 codes, and the listing and search beside the same
// catalogue without promotions — two built shops on loopback from the same seeded template, one after the
// other. The promotions: 150 automatic item promotions (percent and amount, on categories, brands or
// products; each product's price shown is computed against all of them when the index is built), 20
// automatic order and delivery ones, and 30 by code with 10,000 codes between them; and 10,000 gift certificates. p50/p95/p99 in ms over
// --requests requests from --connections at once, after a warm-up; the budget is the issue's: the summary
// p95 ≤ 50 ms, and listing and search unchanged.
import { sql } from 'drizzle-orm';
import type { Database } from '../src/lib/db/client.ts';
import { commandLine, wholeNumber } from './cli.ts';

const cli = commandLine('npm run bench -- --promotions [--products N] [--requests N] [--connections N]', {
  options: {
    promotions: { type: 'boolean', default: true },
    products: { type: 'string', default: '100000' },
    requests: { type: 'string', default: '400' },
    connections: { type: 'string', default: '1' },
    'index-only': { type: 'boolean', default: false },
  },
});
const products = wholeNumber(cli, '--products', cli.values.products, { min: 100, max: 200_000 });
const requests = wholeNumber(cli, '--requests', cli.values.requests, { min: 10, max: 100_000 });
const connections = wholeNumber(cli, '--connections', cli.values.connections, { min: 1, max: 256 });

// The index's build time with 150 item promotions: tests/bench/sale-index.bench.ts (vitest resolves the
// source's `~/` imports, which this script run by Node alone does not).
if (cli.values['index-only']) {
  const { spawnSync } = await import('node:child_process');
  const run = spawnSync('npx', ['vitest', 'run', '--project', 'bench', 'tests/bench/sale-index.bench.ts'], {
    stdio: 'inherit',
    env: { ...process.env, BENCH_PRODUCTS: String(products) },
  });
  process.exit(run.status ?? 1);
}

const { startTestServer } = await import('../tests/support/server.ts');

const CODES_PER_PROMOTION = 10_000 / 30;

/** 200 promotions spread over the catalogue's categories, brands and products, and 10,000 codes. */
async function promotions({ db }: Database): Promise<void> {
  const ids = async (table: string) =>
    ((await db.execute(sql.raw(`SELECT id FROM ${table} ORDER BY id`))) as unknown as { rows: { id: number }[] }).rows.map((r) => Number(r.id));
  const categories = await ids('categories');
  const brands = await ids('brands');
  const pick = <T>(list: T[], i: number) => list[i % list.length] as T;
  const insert = async (name: string, rule: object, target: object, needsCode: boolean, cap: number | null = null) =>
    (
      (await db.execute(
        sql`INSERT INTO promotions (name, rule, target, needs_code, cap) VALUES (${name}, ${JSON.stringify(rule)}::jsonb, ${JSON.stringify(target)}::jsonb, ${needsCode}, ${cap}) RETURNING id`,
      )) as unknown as { rows: { id: number }[] }
    ).rows[0]!.id;
  const target = (i: number) =>
    i % 3 === 0
      ? { all: false, productIds: [], categoryIds: [pick(categories, i), pick(categories, i * 7)], brandIds: [] }
      : i % 3 === 1
        ? { all: false, productIds: [], categoryIds: [], brandIds: [pick(brands, i), pick(brands, i * 5)] }
        : { all: false, productIds: Array.from({ length: 20 }, (_, k) => 1 + ((i * 97 + k * 13) % products)), categoryIds: [], brandIds: [] };
  for (let i = 0; i < 150; i++)
    await insert(
      `Товары ${i}`,
      i % 4 === 0 ? { kind: 'amount', amount: 500_00 + i * 100 } : { kind: 'percent', percent: 5 + (i % 40) },
      target(i),
      false,
      i % 5 === 0 ? 3_000_00 : null,
    );
  for (let i = 0; i < 20; i++)
    await insert(
      `Заказ ${i}`,
      i % 2
        ? { kind: 'order_percent', percent: 3 + i, threshold: 20_000_00 + i * 1_000_00 }
        : { kind: 'delivery', percent: 100, threshold: 15_000_00, methods: [] },
      { all: true, productIds: [], categoryIds: [], brandIds: [] },
      false,
    );
  for (let i = 0; i < 30; i++) {
    const id = await insert(`Код ${i}`, { kind: 'order_percent', percent: 5 + (i % 10), threshold: 0 }, target(i), true);
    await db.execute(
      sql`INSERT INTO promotion_codes (promotion_id, code) SELECT ${id}, 'BENCH' || ${i} || '-' || n FROM generate_series(1, ${Math.ceil(CODES_PER_PROMOTION)}) AS n`,
    );
  }
  // 10,000 active gift certificates (one purchase order holds them all: the summary reads only the codes).
  const order = (
    (await db.execute(
      sql`INSERT INTO orders (code, status, kind, contact_name, contact_phone, contact_email, delivery_address, items_total, total, payment_status, delivery_method)
          VALUES ('BS-99999999', 'delivered', 'certificate', 'Бенч', '+79990000000', 'bench@example.ru', '{}'::jsonb, 0, 0, 'paid', 'email') RETURNING id`,
    )) as unknown as { rows: { id: number }[] }
  ).rows[0]!.id;
  await db.execute(
    sql`INSERT INTO gift_certificates (code, order_id, nominal, balance, status, recipient_email, expires_at, activated_at)
        SELECT 'GIFT' || lpad(n::text, 12, '0'), ${order}, 500000, 500000, 'active', 'bench@example.ru', now() + interval '1 year', now()
          FROM generate_series(1, 10000) AS n`,
  );
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? 0;

async function measure(label: string, prepare: ((database: Database) => Promise<void>) | undefined): Promise<Map<string, number[]>> {
  const shop = await startTestServer({
    label: `bench-promotions-${label}`,
    seedProducts: products,
    // Shoppers from addresses of their own, as behind a proxy: the per-address limits are not measured here.
    env: { TRUST_PROXY: '127.0.0.1,::1', LOG_LEVEL: 'warn' },
    ...(prepare ? { prepare } : {}),
  });
  const API = `${shop.baseUrl}/api/v1/ecommerce-core`;
  let shopper = 0;
  const headers = () => ({ 'content-type': 'application/json', 'x-forwarded-for': `10.${(++shopper >> 16) & 255}.${(shopper >> 8) & 255}.${shopper & 255}` });
  // Carts of one to five lines from across the catalogue, their sizes as the API names them.
  const lines: { id: number; variant_code: string }[] = [];
  for (let n = 0; lines.length < 40 && n < 400; n++) {
    const id = 1 + ((n * 2_503) % products);
    const res = await fetch(`${API}/product/${id}`);
    if (!res.ok) continue;
    const variant = ((await res.json()) as { data: { variants: { code: string; available: boolean }[] } }).data.variants.find((v) => v.available);
    if (variant) lines.push({ id, variant_code: variant.code });
  }
  const cart = (i: number) => Array.from({ length: 1 + (i % 5) }, (_, k) => ({ ...lines[(i + k * 7) % lines.length]!, quantity: 1 }));
  interface Menu {
    id: number;
    childs?: { data: Menu[] };
  }
  const flatten = (list: Menu[]): number[] => list.flatMap((c) => [c.id, ...flatten(c.childs?.data ?? [])]);
  const categories = flatten(((await (await fetch(`${API}/mega-categories`)).json()) as { data: Menu[] }).data);
  const WORDS = ['платье', 'кроссовки', 'сумка gucci', 'черное', 'кольцо', 'рубашка', 'джинсы', 'ботинки'];
  const asks: Record<string, (i: number) => Promise<Response>> = {
    'summary, 1–5 lines': (i) =>
      fetch(`${API}/checkout/summary`, { method: 'POST', headers: headers(), body: JSON.stringify({ items: cart(i), delivery: { method: 'courier' } }) }),
    'summary, 1–5 lines and a code': (i) =>
      fetch(`${API}/checkout/summary`, {
        method: 'POST',
        headers: headers(),
        body: JSON.stringify({ items: cart(i), delivery: { method: 'courier' }, promo_code: `BENCH${i % 30}-${1 + (i % 300)}` }),
      }),
    'summary, 1–5 lines and two gift certificates': (i) =>
      fetch(`${API}/checkout/summary`, {
        method: 'POST',
        headers: headers(),
        body: JSON.stringify({
          items: cart(i),
          delivery: { method: 'courier' },
          gift_codes: [`GIFT${String(1 + (i % 10_000)).padStart(12, '0')}`, `gift-${String(1 + ((i * 7) % 10_000)).padStart(12, '0')}`],
        }),
      }),
    'listing (a category, by price)': (i) => fetch(`${API}/products?category=${categories[i % categories.length]}&sort=price_asc&page=${1 + (i % 3)}`),
    'listing (a category, a price filter)': (i) => fetch(`${API}/products?category=${categories[i % categories.length]}&price_min=${5_000 + (i % 20) * 1_000}`),
    search: (i) => fetch(`${API}/products?search=${encodeURIComponent(WORDS[i % WORDS.length]!)}`),
  };
  const timed = async (ask: (i: number) => Promise<Response>, i: number) => {
    const started = performance.now();
    const res = await ask(i);
    if (res.ok) await res.arrayBuffer();
    if (!res.ok) throw new Error(`${res.status} from the shop: ${new TextDecoder().decode(await res.arrayBuffer())}`);
    return performance.now() - started;
  };
  for (const ask of Object.values(asks)) for (let i = 0; i < 60; i++) await timed(ask, i);
  // A started shop's own first work (the product feed's file, the first index rebuilds) is not what is measured.
  await new Promise((resolve) => setTimeout(resolve, 30_000));
  for (const ask of Object.values(asks)) for (let i = 0; i < 20; i++) await timed(ask, i);
  const results = new Map<string, number[]>();
  for (const [name, ask] of Object.entries(asks)) {
    if (!prepare && (name.includes('code') || name.includes('gift'))) continue;
    const times: number[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: connections }, async () => {
        while (next < requests) times.push(await timed(ask, next++));
      }),
    );
    results.set(
      name,
      times.sort((a, b) => a - b),
    );
  }
  await shop.stop();
  return results;
}

const withPromotions = await measure('on', promotions);
const without = await measure('off', undefined);
const cell = (times: number[] | undefined) =>
  times ? `${quantile(times, 0.5).toFixed(1)} / ${quantile(times, 0.95).toFixed(1)} / ${quantile(times, 0.99).toFixed(1)}` : '—';
console.log(`\n${products} products; ${requests} requests each from ${connections} connections, warm; p50 / p95 / p99 in ms:\n`);
console.log('| request | 200 promotions, 10,000 codes | no promotions |\n| --- | --- | --- |');
for (const [name, times] of withPromotions) console.log(`| ${name} | ${cell(times)} | ${cell(without.get(name))} |`);
