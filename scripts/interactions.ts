// `npm run interactions [-- http://127.0.0.1:4321] [--runs 5] [--page product] [--skip-inp] [--skip-hydration]`:
// what a shopper's phone lives through in the first seconds, measured in Debian's Chromium throttled as
// Lighthouse's mobile profile (4× CPU, 1.6 Mbit/s down, 750 kbit/s up, 150 ms round trip), each run in
// a fresh browser context (an empty cache, a first visit):
// - hydration: the time from the first contentful paint to each island's hydration (the `island:<name>`
//   performance mark an island sets in its first effect, src/lib/islands.ts), per page type;
// - INP: the longest Event Timing entry of each interaction a shopper makes in the first screen — the
//   catalogue overlay, typing in the search, a size, add to cart, the login modal, a cart quantity step —
//   once the page has settled.
// Each figure is the median of --runs runs (5 unless told); the table goes to docs/performance.md and
// bench-results/interactions.json. Without a URL it starts the built shop on a fresh database itself.
import { mkdirSync, writeFileSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { CHROMIUM_ARGS, chromiumPath } from '../tests/e2e/chromium.ts';
import { guestLines, inStock } from '../tests/support/in-stock.ts';
import { PAGE_TYPE_NAMES, type PageTypeName } from '../tests/support/page-types.ts';
import { THROTTLING, median, phonePage } from './throttled-phone.ts';
import { commandLine, httpAddress, oneOf, wholeNumber } from './cli.ts';

const INTERACTIONS = ['catalogue overlay', 'search typing', 'size choice', 'add to cart', 'login modal', 'cart quantity step'] as const;
const cli = commandLine('npm run interactions -- [URL] [--runs N] [--page NAME] [--skip-inp] [--skip-hydration]', {
  allowPositionals: true,
  options: {
    runs: { type: 'string', default: '5' },
    page: { type: 'string' },
    'skip-inp': { type: 'boolean', default: false },
    'skip-hydration': { type: 'boolean', default: false },
  },
});
if (cli.positionals.length > 1) cli.fail(`one address, not ${cli.positionals.length}`);
const given = cli.positionals[0] === undefined ? undefined : httpAddress(cli, cli.positionals[0]);
const runs = wholeNumber(cli, '--runs', cli.values.runs, { min: 1 });
// --page names a page type (its hydration) or an interaction (its INP).
const only = cli.values.page === undefined ? undefined : oneOf(cli, '--page', cli.values.page, [...PAGE_TYPE_NAMES, ...INTERACTIONS]);
// Loaded once the arguments are known: a wrong one is answered at once, not after Playwright and the database (scripts/cli.ts).
const { chromium } = await import('playwright-core');
const { startTestServer } = await import('../tests/support/server.ts');
const server = given ? undefined : await startTestServer({ label: 'interactions', seedProducts: 2000, env: { LOG_LEVEL: 'warn' } });
const base = given ?? (server?.baseUrl as string);

/** Collects Event Timing entries from the start, for INP: the longest entry of each interaction. */
const OBSERVE_EVENTS = () => {
  const seen: { id: number; name: string; duration: number; start: number }[] = [];
  (globalThis as unknown as { __events: typeof seen }).__events = seen;
  new PerformanceObserver((list) => {
    for (const e of list.getEntries() as (PerformanceEventTiming & { interactionId?: number })[])
      if (e.interactionId) seen.push({ id: e.interactionId, name: e.name, duration: e.duration, start: e.startTime });
  }).observe({ type: 'event', durationThreshold: 16, buffered: true } as PerformanceObserverInit);
};

async function newPage(browser: Browser, prepare?: (context: BrowserContext) => Promise<void>): Promise<Page> {
  return phonePage(browser, async (context) => {
    await context.addInitScript(OBSERVE_EVENTS);
    await prepare?.(context);
  });
}

interface Hydration {
  fcp: number;
  islands: Record<string, number>;
}

/** Opens a page and waits for its islands; answers each island's hydration in ms after the first contentful paint. */
async function hydration(page: Page, path: string, islands: string[]): Promise<Hydration> {
  await page.goto(new URL(path, base).href, { waitUntil: 'load', timeout: 60_000 });
  await page.waitForFunction((names) => names.every((n) => performance.getEntriesByName(`island:${n}`).length > 0), islands, { timeout: 30_000 });
  return page.evaluate((names) => {
    const fcp = performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN;
    const at = (n: string) => Math.round((performance.getEntriesByName(`island:${n}`)[0]?.startTime ?? NaN) - fcp);
    return { fcp: Math.round(fcp), islands: Object.fromEntries(names.map((n) => [n, at(n)])) };
  }, islands);
}

/** The longest Event Timing entry of the interactions that began after `since` (ms on the page's clock). */
async function longestSince(page: Page, since: number): Promise<number> {
  // Event Timing entries arrive after the next paint; give them a moment.
  await page.waitForTimeout(500);
  return page.evaluate((t) => {
    const entries = (globalThis as unknown as { __events: { duration: number; start: number }[] }).__events.filter((e) => e.start >= t);
    return Math.max(0, ...entries.map((e) => e.duration));
  }, since);
}

const now = (page: Page) => page.evaluate(() => performance.now());

async function settled(page: Page, path: string): Promise<void> {
  await page.goto(new URL(path, base).href, { waitUntil: 'load', timeout: 60_000 });
  await page.waitForFunction(() => document.querySelectorAll('astro-island[ssr]:not([client="visible"])').length === 0, undefined, { timeout: 30_000 });
  await page.waitForTimeout(1000);
}

async function json<T>(path: string, method = 'GET'): Promise<T> {
  return ((await (await fetch(new URL(path, base), { method })).json()) as { data: T }).data;
}

try {
  const [first] = await inStock(base, 1);
  const blogs = await json<{ posts: { url: string }[] }>('/api/v1/ecommerce-core/blogs');
  const brands = await json<{ brands: { data: { url: string }[] } }>('/api/v1/ecommerce-core/search-suggestions?search_key=gucci', 'POST');
  const productUrl = first?.url ?? '/';
  const frame = ['header', 'bottom-nav', 'modals'];
  const pages: [PageTypeName, string, string[]][] = [
    ['home', '/', frame],
    ['category', '/c/3/platya', frame],
    ['brand', brands.brands.data[0]?.url ?? '/m/1/gucci', frame],
    ['search', `/product/search/${encodeURIComponent('платье')}`, frame],
    ['product', productUrl, [...frame, 'buy']],
    ['brands', '/brands', frame],
    ['info page', '/i/12/razmery', frame],
    ['blog post', blogs.posts[0]?.url ?? '/blog', frame],
    ['cart', '/cart', [...frame, 'cart']],
  ];

  const browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });
  const hydrationRows: { page: string; fcp: number; islands: Record<string, number> }[] = [];
  const inpRows: { interaction: string; ms: number; runs: number[] }[] = [];
  try {
    if (!cli.values['skip-hydration']) {
      for (const [name, path, islands] of pages.filter(([n]) => !only || n === only)) {
        const measured: Hydration[] = [];
        for (let run = 0; run < runs; run++) {
          const page = await newPage(browser);
          try {
            measured.push(await hydration(page, path, islands));
          } finally {
            await page.context().close();
          }
        }
        const row = {
          page: name,
          fcp: median(measured.map((m) => m.fcp)),
          islands: Object.fromEntries(islands.map((i) => [i, median(measured.map((m) => m.islands[i] ?? NaN))])),
        };
        hydrationRows.push(row);
        console.log(`${name}: FCP ${row.fcp} ms; hydrated after FCP: ${islands.map((i) => `${i} ${row.islands[i]} ms`).join(', ')}`);
      }
    }

    if (!cli.values['skip-inp']) {
      const withCart = async (context: BrowserContext) => {
        await context.addInitScript((lines) => localStorage.setItem('guest-products', JSON.stringify(lines)), guestLines(first ? [first] : []));
      };
      const interactions: [(typeof INTERACTIONS)[number], (page: Page) => Promise<number>][] = [
        [
          'catalogue overlay',
          async (page) => {
            await settled(page, '/');
            const t = await now(page);
            await page.getByRole('navigation', { name: 'Мобильная навигация' }).getByRole('button', { name: 'Каталог' }).tap();
            await page.getByRole('dialog', { name: 'Каталог' }).waitFor();
            return longestSince(page, t);
          },
        ],
        [
          'search typing',
          async (page) => {
            await settled(page, '/');
            await page.getByRole('button', { name: 'Поиск' }).first().tap();
            const t = await now(page);
            await page.getByRole('searchbox').first().pressSequentially('пла', { delay: 150 });
            await page.locator('#mobile-search-suggestions').waitFor({ timeout: 15_000 });
            return longestSince(page, t);
          },
        ],
        [
          'size choice',
          async (page) => {
            await settled(page, productUrl);
            const t = await now(page);
            await page.getByRole('radiogroup', { name: 'Размер' }).getByRole('radio').and(page.locator(':not([disabled])')).first().tap();
            return longestSince(page, t);
          },
        ],
        [
          'add to cart',
          async (page) => {
            await settled(page, productUrl);
            await page.getByRole('radiogroup', { name: 'Размер' }).getByRole('radio').and(page.locator(':not([disabled])')).first().tap();
            await page.waitForTimeout(300);
            const t = await now(page);
            await page.getByRole('button', { name: 'Добавить в корзину' }).tap();
            await page.getByText('Товар добавлен в корзину').first().waitFor();
            return longestSince(page, t);
          },
        ],
        [
          'login modal',
          async (page) => {
            await settled(page, '/');
            const t = await now(page);
            await page.getByRole('navigation', { name: 'Мобильная навигация' }).getByRole('button', { name: 'Профиль' }).tap();
            await page.getByRole('dialog').getByRole('textbox', { name: 'Email' }).waitFor({ timeout: 15_000 });
            return longestSince(page, t);
          },
        ],
        [
          'cart quantity step',
          async (page) => {
            await settled(page, '/cart');
            const plus = page.getByRole('button', { name: 'Увеличить количество' }).first();
            await plus.waitFor();
            const t = await now(page);
            await plus.tap();
            await page.waitForTimeout(300);
            return longestSince(page, t);
          },
        ],
      ];
      for (const [name, act] of interactions.filter(([n]) => !only || n === only)) {
        const measured: number[] = [];
        for (let run = 0; run < runs; run++) {
          const page = await newPage(browser, name === 'cart quantity step' ? withCart : undefined);
          try {
            measured.push(Math.round(await act(page)));
          } finally {
            await page.context().close();
          }
        }
        inpRows.push({ interaction: name, ms: median(measured), runs: measured });
        console.log(`${name}: INP ${median(measured)} ms (runs: ${measured.join(', ')})`);
      }
    }
  } finally {
    await browser.close();
  }

  mkdirSync('bench-results', { recursive: true });
  writeFileSync('bench-results/interactions.json', JSON.stringify({ throttling: THROTTLING, runs, hydration: hydrationRows, inp: inpRows }, null, 2));
  if (hydrationRows.length) {
    console.log('\n| page | FCP | header | bottom navigation | modals | buy box / cart |\n|---|---|---|---|---|---|');
    for (const r of hydrationRows)
      console.log(
        `| ${r.page} | ${r.fcp} ms | ${r.islands['header']} ms | ${r.islands['bottom-nav']} ms | ${r.islands['modals']} ms | ${r.islands['buy'] ?? r.islands['cart'] ?? '—'}${(r.islands['buy'] ?? r.islands['cart']) ? ' ms' : ''} |`,
      );
  }
  if (inpRows.length) {
    console.log('\n| interaction | INP (median) | runs |\n|---|---|---|');
    for (const r of inpRows) console.log(`| ${r.interaction} | ${r.ms} ms | ${r.runs.join(', ')} |`);
  }
} finally {
  await server?.stop();
}
