// Screenshots of the managers' console (issue 24) at 1440 px and 390 px: the set-up page with its QR code,
// the recovery codes, the sign-in page with an error, the list of orders, an order and its packing slip, the
// buyout inbox and a request, the customers and a customer, the catalogue and a product, imports, the words
// for search and the audit log. An operator is added through
// the operator call (as `npm run operator -- add` does) and set up in the browser with codes computed here.
// Usage: node scripts/screenshot-ops.ts [URL OPERATOR-TOKEN] [--docs]
// Without an address it starts the built shop (`npm run build` first) on a fresh database, with something on
// every page: three customers' paid orders (one moved on), two buyout requests and an import run. PNGs go to
// SCREENSHOT_DIR (screenshots/, not kept in git); --docs also writes the ones docs/operations.md shows, as
// WebP under the names it links, to docs/screenshots, which is kept.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { randomBytes, randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Page } from 'playwright-core';
import sharp from 'sharp';
import { chromiumPath, CHROMIUM_ARGS } from '../tests/e2e/chromium.ts';
import { operatorToken, sendBuyoutRequest } from '../tests/support/ops.ts';
import { startTestServer } from '../tests/support/server.ts';
import { post, shopper } from '../tests/support/shopper.ts';
import { base32Decode, hotp, totpStep } from '../src/features/ops/totp.server.ts';
import { commandLine } from './cli.ts';

const cli = commandLine('node scripts/screenshot-ops.ts [URL OPERATOR-TOKEN] [--docs]', {
  allowPositionals: true,
  options: { docs: { type: 'boolean', default: false } },
});
if (cli.positionals.length === 1 || cli.positionals.length > 2) cli.fail('the address and the operator token go together');
const out = process.env['SCREENSHOT_DIR'] ?? 'screenshots';
mkdirSync(out, { recursive: true });
// The names docs/operations.md links (screenshots/ops-orders-desktop.webp …): those, and only those, are kept.
const DOCS_DIR = 'docs/screenshots';
const forDocs = new Set(
  cli.values.docs ? [...readFileSync('docs/operations.md', 'utf8').matchAll(/\(screenshots\/(ops-[\w-]+)\.webp\)/g)].map((m) => m[1] ?? '') : [],
);
if (forDocs.size > 0) mkdirSync(DOCS_DIR, { recursive: true });
const API = '/api/v1/ecommerce-core';

/** The built shop on a fresh database, with something on every console page. */
async function sampleShop() {
  const server = await startTestServer({ label: 'screenshot-ops', seedProducts: 200, env: { LOG_LEVEL: 'warn' } });
  const token = operatorToken(server);
  const buyer = shopper(() => server);
  const people = [
    { name: 'Ольга', surname: 'Смирнова', email: 'olga.smirnova@example.ru', phone: '+7 (912) 111-22-33', city: 'Казань', address: 'Баумана, 1' },
    { name: 'Анна', surname: 'Кузнецова', email: 'anna.kuznetsova@example.ru', phone: '+7 (903) 444-55-66', city: 'Москва', address: 'Тверская, 12' },
    {
      name: 'Мария',
      surname: 'Иванова',
      email: 'maria.ivanova@example.ru',
      phone: '+7 (921) 777-88-99',
      city: 'Санкт-Петербург',
      address: 'Невский проспект, 28',
    },
  ];
  const codes: string[] = [];
  for (const [i, person] of people.entries()) {
    const registered = await buyer.call<{ access_token: string }>(
      `${API}/auth/customer-registration`,
      post({ email: person.email, phone: person.phone, password: 'заказы идут своим чередом' }),
    );
    const auth = { authorization: `Bearer ${registered.body.data?.access_token ?? ''}` };
    const profile = new FormData();
    for (const [k, v] of Object.entries({ name: person.name, surname: person.surname, patronymic: '', email: person.email, phone: person.phone }))
      profile.append(k, v);
    await buyer.call(`${API}/customer/update-customer-basic-info`, { method: 'POST', body: profile, headers: auth });
    await buyer.call(`${API}/customer/cart/store-cart-item`, post({ item: { ...(await buyer.inStock(i)), quantity: 1, uid: randomUUID() } }, auth));
    const placed = await buyer.call<{ code: string; payment_url: string | null }>(
      `${API}/checkout/place-order`,
      post(
        {
          contact: { name: `${person.name} ${person.surname}`, email: person.email, phone: person.phone },
          delivery: { method: 'courier', city: person.city, address: person.address },
        },
        { ...auth, 'idempotency-key': randomUUID() },
      ),
    );
    await buyer.call(`${API}/payments/test/${placed.body.data?.payment_url?.split('/').pop() ?? ''}`, post({ action: 'sbp' }));
    codes.push(placed.body.data?.code ?? '');
  }
  const operator = { 'x-operator-token': token, 'content-type': 'application/json' };
  // The oldest order bought from the boutique already, as a manager moves it.
  await fetch(`${server.baseUrl}${API}/ops/orders/${codes[0] ?? ''}`, { method: 'POST', headers: operator, body: JSON.stringify({ status: 'purchased' }) });
  await sendBuyoutRequest(server.baseUrl, { description: 'Hermès Birkin 30, чёрная, с золотой фурнитурой', product_url: 'https://example.com/birkin' });
  await sendBuyoutRequest(server.baseUrl, {
    name: 'Ирина Соколова',
    phone: '+7 (916) 555-44-33',
    messenger: 'whatsApp',
    description: 'Кроссовки Golden Goose Superstar, 38',
  });
  // An import run of a small feed, as `npm run import` hands one to the shop.
  const work = mkdtempSync(join(tmpdir(), 'screenshot-ops-'));
  const feed = join(work, 'feed.yml');
  const offer = (id: number, size: string, price: number) =>
    `<offer id="sh-${id}" group_id="sh-1" available="true"><price>${price}</price><currencyId>RUR</currencyId><categoryId>2</categoryId><vendor>Max Mara</vendor>` +
    `<name>Пальто из шерсти</name><param name="Размер" unit="RU">${size}</param><param name="Цвет">бежевый</param><count>2</count></offer>`;
  writeFileSync(
    feed,
    `<?xml version="1.0" encoding="UTF-8"?>\n<yml_catalog date="2026-11-25"><shop><name>Поставщик</name><currencies><currency id="RUR" rate="1"/></currencies>` +
      `<categories><category id="1">Одежда</category><category id="2" parentId="1">Пальто</category></categories>` +
      `<offers>${offer(1, '42', 189_900)}${offer(2, '44', 189_900)}${offer(3, '46', 194_900)}</offers></shop></yml_catalog>\n`,
  );
  const started = (await (
    await fetch(`${server.baseUrl}${API}/ops/imports`, {
      method: 'POST',
      headers: operator,
      body: JSON.stringify({ path: feed, options: { partial: true, skip_photos: true } }),
    })
  ).json()) as { data?: { id: number } };
  for (let i = 0; i < 100; i++) {
    const run = (await (await fetch(`${server.baseUrl}${API}/ops/imports/${started.data?.id ?? 0}`, { headers: operator })).json()) as {
      data?: { status: string };
    };
    if (run.data?.status !== 'running') break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  rmSync(work, { recursive: true, force: true });
  return { base: server.baseUrl, token, stop: () => server.stop() };
}

const shop =
  cli.positionals.length === 2 ? { base: cli.positionals[0] ?? '', token: cli.positionals[1] ?? '', stop: async () => undefined } : await sampleShop();
const { base, token } = shop;
const written = new Set<string>();

try {
  const browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });
  for (const [label, viewport] of [
    ['desktop', { width: 1440, height: 900 }],
    ['mobile', { width: 390, height: 844 }],
  ] as const) {
    const email = `shot.${randomBytes(3).toString('hex')}@shop.ru`;
    const res = await fetch(`${base}/api/v1/ecommerce-core/ops/operators`, {
      method: 'POST',
      headers: { 'x-operator-token': token, 'content-type': 'application/json' },
      body: JSON.stringify({ action: 'add', email, role: 'admin' }),
    });
    const { data } = (await res.json()) as { data: { setup_url: string; otpauth: string } };
    const secret = base32Decode(new URL(data.otpauth).searchParams.get('secret') ?? '');
    const code = (ahead: number) => hotp(secret, totpStep(Date.now()) + ahead);
    const page: Page = await browser.newPage({ viewport });
    // A script the policy blocked, or one that failed, is a fault to see.
    page.on('console', (message) => message.type() === 'error' && console.error(`[${label}] ${message.text()}`));
    page.on('pageerror', (error) => console.error(`[${label}] ${error.message}`));
    const shot = async (name: string) => {
      const file = `ops-${name}-${label}`;
      const png = await page.screenshot({ path: `${out}/${file}.png`, fullPage: true });
      if (!forDocs.has(file)) return;
      // Flat colours and text: WebP at this quality keeps them sharp, at a tenth of the PNG.
      await sharp(png).webp({ quality: 70, effort: 6 }).toFile(`${DOCS_DIR}/${file}.webp`);
      written.add(file);
    };
    // The link names SITE_URL; the screenshots go to the address given.
    const link = new URL(data.setup_url);
    await page.goto(new URL(link.pathname + link.search, base).href);
    await shot('setup');
    const password = 'длинная фраза для входа';
    await page.getByLabel('Пароль', { exact: true }).fill(password);
    await page.getByLabel('Пароль ещё раз').fill(password);
    await page.getByLabel('Код из приложения').fill(code(0));
    await page.getByRole('button', { name: 'Сохранить и подтвердить' }).click();
    await page.getByTestId('ops-recovery').waitFor();
    await shot('recovery');
    await page.goto(`${base}/ops/login`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Пароль').fill('не тот пароль');
    await page.getByLabel('Код из приложения').fill('000000');
    await page.getByRole('button', { name: 'Войти' }).click();
    await page.getByTestId('ops-error').waitFor();
    await shot('login-error');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Пароль').fill(password);
    await page.getByLabel('Код из приложения').fill(code(1));
    await page.getByRole('button', { name: 'Войти' }).click();
    await page.waitForURL('**/ops/orders');
    await shot('orders');
    // The list polls for newer orders: its notice stays hidden until there are some.
    if (!(await page.locator('#ops-newer').isHidden())) console.error(`[${label}] the new-orders notice shows with nothing new`);
    const first = page.locator('[data-testid="ops-orders"] tbody a').first();
    if ((await first.count()) > 0) {
      await first.click();
      await page.waitForURL('**/ops/orders/BS-*');
      await shot('order');
      await page.getByTestId('ops-slip-link').click();
      await page.waitForURL('**/slip');
      await shot('slip');
    }
    // Keyboard: from the first row's link, ↓ moves to the second row's.
    await page.goto(`${base}/ops/orders`);
    const rows = page.locator('[data-testid="ops-orders"] tbody tr');
    if ((await rows.count()) > 1) {
      await rows.nth(0).locator('a').first().focus();
      await page.keyboard.press('ArrowDown');
      const focused = await page.evaluate(() => document.activeElement?.textContent ?? '');
      if (focused !== (await rows.nth(1).locator('a').first().textContent())) console.error(`[${label}] ↓ did not move to the next row`);
    }
    await page.goto(`${base}/ops/buyout`);
    await shot('buyouts');
    const request = page.locator('[data-testid="ops-buyouts"] tbody a').first();
    if ((await request.count()) > 0) {
      await request.click();
      await page.waitForURL('**/ops/buyout/*');
      await shot('buyout');
    }
    await page.goto(`${base}/ops/customers`);
    await shot('customers');
    const customer = page.locator('[data-testid="ops-customers"] tbody a').first();
    if ((await customer.count()) > 0) {
      await customer.click();
      await page.waitForURL('**/ops/customers/*');
      await shot('customer');
    }
    // The admin's pages.
    await page.goto(`${base}/ops/products`);
    await shot('products');
    const product = page.locator('[data-testid="ops-products"] tbody a').first();
    if ((await product.count()) > 0) {
      await product.click();
      await page.waitForURL('**/ops/products/*');
      await shot('product');
    }
    await page.goto(`${base}/ops/imports`);
    await shot('imports');
    // The words for search: a synonym group and a brand's other name (added once, on the first width).
    await page.goto(`${base}/ops/search`);
    if ((await page.locator('[data-testid="ops-synonyms"]').count()) === 0) {
      await page.getByTestId('ops-synonym-terms').fill('кеды, кроссовки, сникеры');
      await page.getByRole('button', { name: 'Добавить' }).first().click();
      await page.waitForURL('**/ops/search?done=*');
      await page.getByTestId('ops-synonym-terms').fill('пуховик, куртка');
      await page.getByLabel('Только в одну сторону').check();
      await page.getByRole('button', { name: 'Добавить' }).first().click();
      await page.waitForURL('**/ops/search?done=*');
      await page.getByTestId('ops-alias-text').fill('Ив Сен Лоран');
      await page.getByTestId('ops-alias-brand').selectOption({ label: 'Saint Laurent' });
      await page.getByRole('button', { name: 'Добавить' }).last().click();
      await page.waitForURL('**/ops/search?done=*');
    }
    await shot('search');
    await page.goto(`${base}/ops/audit`);
    await shot('audit');
    await page.close();
  }
  await browser.close();
} finally {
  await shop.stop();
}
console.log(`Screenshots in ${out}/ops-*.png`);
if (forDocs.size > 0) {
  const missing = [...forDocs].filter((name) => !written.has(name));
  // A page with nothing to show (no order, no customer) is skipped: the docs would link a stale image.
  if (missing.length > 0) {
    console.error(`Not shot for the docs (nothing on the page?): ${missing.join(', ')}`);
    process.exitCode = 1;
  }
  console.log(`For the docs: ${[...written].map((name) => `${DOCS_DIR}/${name}.webp`).join(', ')}`);
}
