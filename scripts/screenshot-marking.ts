// Screenshots of marked goods' receipts and returns (issue 39) at 1440 px and 390 px: the console's order
// page with both receipts, the return page refusing a code that is not the order's, the guest's order page
// with the receipts, and the test provider's page listing the settlement and the refund with their codes.
// Starts the built shop (`npm run build` first) on a fresh database with the CDEK stand-in, a marked product
// with a GTIN, and one order packed, shipped, delivered and partly returned.
// Usage: node scripts/screenshot-marking.ts   (PNGs to SCREENSHOT_DIR, default screenshots/)
import { mkdirSync } from 'node:fs';
import { chromium, type Page } from 'playwright-core';
import { chromiumPath, CHROMIUM_ARGS } from '../tests/e2e/chromium.ts';
import { startCdekStandin } from '../tests/support/cdek-standin.ts';
import { ean13 } from '../tests/support/marking-codes.ts';
import { signedInOperator, Visitor } from '../tests/support/ops.ts';
import { startTestServer } from '../tests/support/server.ts';

const out = process.env['SCREENSHOT_DIR'] ?? 'screenshots';
mkdirSync(out, { recursive: true });
const API = '/api/v1/ecommerce-core';
const GS = '\u001d';
const SHOES = ean13('460123450001');
const code = (serial: string) => `01${SHOES.padStart(14, '0')}21${serial}${GS}91EE06${GS}92${'Vm9A7kqXc3Rz1bYtP0wLs8dNf2Hj6GuQe4KyWiOaBnM='}`;

const cdek = await startCdekStandin('shots-cdek', 'shots-cdek-secret');
const shop = await startTestServer({
  label: 'screenshot-marking',
  seedProducts: 20,
  env: { LOG_LEVEL: 'warn', CDEK_API_URL: cdek.url, CDEK_CLIENT_ID: 'shots-cdek', CDEK_CLIENT_SECRET: 'shots-cdek-secret', DELIVERY_SENDER_POINT: 'MSK1' },
  prepare: async (db) => {
    await db.query('UPDATE products SET marked = true WHERE id = 1');
    await db.query('UPDATE product_variants SET stock = 100 WHERE product_id IN (1, 3)');
    await db.query(`UPDATE product_variants SET barcode = '${SHOES}' WHERE id = (SELECT min(id) FROM product_variants WHERE product_id = 1)`);
  },
});
try {
  const json = async <T>(path: string, body?: unknown, headers: Record<string, string> = {}): Promise<T> => {
    const res = await fetch(shop.baseUrl + path, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return ((await res.json()) as { data: T }).data;
  };
  const size = async (id: number) => (await json<{ variants: { code: string }[] }>(`${API}/product/${id}`)).variants[0]?.code ?? '';
  const items = [
    { id: 1, quantity: 2, variant_code: await size(1) },
    { id: 3, quantity: 1, variant_code: await size(3) },
  ];
  const offers = await json<{ offers: { mode: string; quote: string }[] }>(`${API}/delivery/options`, {
    city: 137,
    lines: items.map((l) => ({ id: l.id, quantity: l.quantity })),
  });
  const point = (await json<{ points: { code: string }[] }>(`${API}/delivery/points?city=137&kind=office`)).points[0]?.code;
  const placed = await json<{ code: string; hash: string; payment_url: string }>(
    `${API}/checkout/place-order`,
    {
      items,
      contact: { name: 'Ирина Соколова', email: 'irina.sokolova@example.ru', phone: '+7 (921) 555-44-33' },
      delivery: { method: 'pickup', city: 'Санкт-Петербург', address: 'пункт выдачи', quote: offers.offers.find((o) => o.mode === 'pickup')?.quote, point },
      payment: 'card',
    },
    { 'idempotency-key': crypto.randomUUID() },
  );
  await json(`${API}/payments/test/${placed.payment_url.split('/').pop() ?? ''}`, { action: 'sbp' });
  const manager = (await signedInOperator(shop, 'shots@example.ru', 'manager')).visitor;
  const pack = await manager.go(`/ops/orders/${placed.code}/pack`);
  const fields = [...pack.html.matchAll(/name="(\d+:\d+)"/g)].map((m) => m[1] ?? '');
  await manager.go(`/ops/orders/${placed.code}/pack`, {
    _csrf: Visitor.formToken(pack.html),
    [fields[0] ?? '']: code('Ab0001xKp>Q7z'),
    [fields[1] ?? '']: code('Ab0002xKp>Q7z'),
  });
  const act = async (form: Record<string, string>) =>
    manager.go(`/ops/orders/${placed.code}`, { _csrf: Visitor.formToken((await manager.go(`/ops/orders/${placed.code}`)).html), ...form });
  await act({ action: 'ship' });
  await act({ action: 'move', status: 'delivered' });
  const back = await manager.go(`/ops/orders/${placed.code}/return`);
  await manager.go(`/ops/orders/${placed.code}/return`, {
    _csrf: Visitor.formToken(back.html),
    return_key: /name="return_key" value="([0-9a-f]+)"/.exec(back.html)?.[1] ?? '',
    codes: code('Ab0002xKp>Q7z'),
  });

  const browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });
  for (const [label, viewport] of [
    ['desktop', { width: 1440, height: 900 }],
    ['mobile', { width: 390, height: 844 }],
  ] as const) {
    const context = await browser.newContext({ viewport });
    const host = new URL(shop.baseUrl).hostname;
    await context.addCookies([...manager.cookies].map(([name, value]) => ({ name, value, domain: host, path: '/' })));
    const page: Page = await context.newPage();
    page.on('pageerror', (error) => console.error(`[${label}] ${error.message}`));
    const shot = (name: string) => page.screenshot({ path: `${out}/marking-${name}-${label}.png`, fullPage: true });
    await page.goto(`${shop.baseUrl}/ops/orders/${placed.code}`);
    await shot('console-order');
    await page.goto(`${shop.baseUrl}/ops/orders/${placed.code}/return`);
    await page.getByTestId('ops-return-codes').fill(code('Zz9999xKp>Q7z'));
    await page.getByTestId('ops-return-submit').click();
    await page.waitForLoadState();
    await shot('return-refused');
    await page.goto(`${shop.baseUrl}/order-success/${placed.code}/${placed.hash}`);
    await shot('order-page');
    await page.goto(shop.baseUrl + placed.payment_url);
    await shot('provider');
    await context.close();
  }
  await browser.close();
  console.log(`screenshots in ${out}/marking-*.png`);
} finally {
  await shop.stop();
  await cdek.close();
}
