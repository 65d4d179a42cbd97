// `npm run lighthouse [-- http://127.0.0.1:4321] [--page home] [--runs 5] [--profile first|guest|customer] [--full] [--photos]`: Lighthouse (mobile,
// default throttling) in Debian's Chromium on each page type — home, category, brand, search, product,
// brands, an info page, a blog post, the cart. Without a URL it starts the built shop on a fresh database itself.
// Prints the Markdown table for docs/performance.md and writes bench-results/lighthouse.json. One run's
// FCP moves by 0.2–0.4 s with the machine's timing (a request that lands before the observed paint with a
// blocking priority is simulated as blocking it), so each page is measured --runs times (3 unless told)
// and the median run by FCP is reported with the range seen; --full keeps the median run's report, and
// with several runs each run's, fastest first. Budgets of DESIGN §7 / issues 10 and 27: performance ≥ 95,
// FCP ≤ 0.75 s (the brand page 0.9 s: fcpBudget), LCP ≤ 1.5 s, accessibility ≥ 98, best practices and SEO
// 100, CLS ≤ 0.01, ≤ 250 KB transferred; it exits with 1 when a median run breaks one (budgetsBroken).
// Returning shoppers too (issue 22; `--profile first|guest|customer` for one): a guest with three lines in
// the browser's cart, and a signed-in customer with a server cart, on home, category, product, cart,
// checkout (and the dashboard for the customer). Their storage is laid in the browser before each run and
// Lighthouse told to keep it; the HTTP cache is emptied, as for a first visit. Their budgets are issue
// 22's: performance ≥ 95, accessibility and best practices 100 (a script error fails best practices).
import { mkdirSync, writeFileSync } from 'node:fs';
import { quietBrowser } from './quiet-browser.ts';
import type { BrowserContext } from 'playwright-core';
import { CHROMIUM_ARGS, chromiumPath } from '../tests/e2e/chromium.ts';
import { guestLines, inStock } from '../tests/support/in-stock.ts';
import { PAGE_TYPE_NAMES, pageTypes } from '../tests/support/page-types.ts';
import { commandLine, httpAddress, oneOf, wholeNumber } from './cli.ts';

const PROFILES = ['first', 'guest', 'customer'] as const;
type Profile = (typeof PROFILES)[number];
const cli = commandLine('npm run lighthouse -- [URL] [--page NAME] [--runs N] [--profile first|guest|customer] [--full] [--photos]', {
  allowPositionals: true,
  options: {
    page: { type: 'string' },
    // Three by default: one run is not a figure to quote on this machine (see the header).
    runs: { type: 'string', default: '3' },
    profile: { type: 'string' },
    full: { type: 'boolean', default: false },
    photos: { type: 'boolean', default: false },
  },
});
if (cli.positionals.length > 1) cli.fail(`one address, not ${cli.positionals.length}`);
const given = cli.positionals[0] === undefined ? undefined : httpAddress(cli, cli.positionals[0]);
// --page <name>: measure that page type only; --full: keep each page's whole report (bench-results/lighthouse-<page>.json).
const only = cli.values.page === undefined ? undefined : oneOf(cli, '--page', cli.values.page, [...PAGE_TYPE_NAMES, 'checkout', 'dashboard']);
const full = cli.values.full;
// --photos: the pages carry real-sized photos (scripts/photo-pages.ts), measured against issue 23's budgets.
const LCP_BUDGET = cli.values.photos ? 2 : 1.5;
const TRANSFER_BUDGET_KB = cli.values.photos ? 350 : 250;
const profiles: Profile[] = cli.values.profile === undefined ? [...PROFILES] : [oneOf(cli, '--profile', cli.values.profile, PROFILES)];
const runs = wholeNumber(cli, '--runs', cli.values.runs, { min: 1 });
// Loaded once the arguments are known: a wrong one is answered at once, not after a second of Lighthouse, Playwright and the database (scripts/cli.ts).
const chromeLauncher = await import('chrome-launcher');
const { default: lighthouse } = await import('lighthouse');
const { chromium } = await import('playwright-core');
const { startTestServer } = await import('../tests/support/server.ts');
const server = given ? undefined : await startTestServer({ label: 'lighthouse', seedProducts: 2000, env: { LOG_LEVEL: 'warn' } });
const base = given ?? (server?.baseUrl as string);

interface Row {
  page: string;
  profile: Profile;
  path: string;
  performance: number;
  accessibility: number;
  bestPractices: number;
  seo: number;
  fcpS: number;
  lcpS: number;
  cls: number;
  tbtMs: number;
  siS: number;
  transferKB: number;
  /** The web fonts' bytes. */
  fontKB: number;
  failing: string[];
  /** The SEO category's audits that failed. */
  seoFailing: string[];
  fcpRange?: string;
  lcpRange?: string;
}

/** One Lighthouse run of a page: its table row and the whole report (kept with --full). */
interface Run {
  row: Row;
  lhr: object;
}

async function measure(port: number, name: string, path: string, profile: Profile): Promise<Run> {
  // A returning shopper's storage stays (laid by prepare()); a first visit's is emptied by Lighthouse.
  const result = await lighthouse(new URL(path, base).href, { port, output: 'json', logLevel: 'error', disableStorageReset: profile !== 'first' });
  const lhr = result?.lhr;
  if (!lhr) throw new Error(`no Lighthouse result for ${path}`);
  const score = (id: string) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
  const audit = (id: string) => lhr.audits[id]?.numericValue ?? NaN;
  const row: Row = {
    page: name,
    profile,
    path,
    performance: score('performance'),
    accessibility: score('accessibility'),
    bestPractices: score('best-practices'),
    seo: score('seo'),
    fcpS: Math.round(audit('first-contentful-paint') / 10) / 100,
    lcpS: Math.round(audit('largest-contentful-paint') / 10) / 100,
    cls: Math.round(audit('cumulative-layout-shift') * 1000) / 1000,
    tbtMs: Math.round(audit('total-blocking-time')),
    siS: Math.round(audit('speed-index') / 100) / 10,
    transferKB: Math.round(audit('total-byte-weight') / 1024),
    fontKB: Math.round(fontBytes(lhr) / 102.4) / 10,
    seoFailing: (lhr.categories['seo']?.auditRefs ?? []).map((ref) => ref.id).filter((id) => lhr.audits[id]?.score === 0),
    failing: Object.values(lhr.audits)
      .filter((a) => a.score !== null && a.score < 0.9 && a.scoreDisplayMode !== 'informative' && a.scoreDisplayMode !== 'notApplicable')
      .map((a) => a.id),
  };
  return { row, lhr };
}

/**
 * Issue 27: the first paint by 0.75 s, the median run. The brand page alone carries both its category
 * links and the category filter and stays past the first round trip of a new connection (15.2 KB with
 * its headers, docs/decisions/016), which Lighthouse charges a round trip for: 0.9 s there.
 */
function fcpBudget(page: string): number {
  return page === 'brand' ? 0.9 : 0.75;
}

/** The bytes of the web fonts the page fetched (the network-requests audit's font rows). */
function fontBytes(lhr: { audits: Record<string, { details?: unknown }> }): number {
  const items = (lhr.audits['network-requests']?.details as { items?: { resourceType?: string; transferSize?: number }[] } | undefined)?.items ?? [];
  return items.filter((item) => item.resourceType === 'Font').reduce((sum, item) => sum + (item.transferSize ?? 0), 0);
}

/**
 * What a page's median run breaks of the budgets above. Search pages and the cart are `noindex` and
 * disallowed in robots.txt on purpose (issue 12), which Lighthouse's `is-crawlable` audit counts against
 * SEO: that audit alone is not a broken budget there.
 */
function budgetsBroken(r: Row): string[] {
  if (r.profile !== 'first')
    return [
      r.performance < 95 && `performance ${r.performance} < 95`,
      r.accessibility < 100 && `accessibility ${r.accessibility} < 100`,
      r.bestPractices < 100 && `best practices ${r.bestPractices} < 100`,
    ].filter((broken): broken is string => typeof broken === 'string');
  const seoExempt = (r.page === 'search' || r.page === 'cart') && r.seoFailing.join() === 'is-crawlable';
  return [
    r.performance < 95 && `performance ${r.performance} < 95`,
    r.accessibility < 98 && `accessibility ${r.accessibility} < 98`,
    r.bestPractices < 100 && `best practices ${r.bestPractices} < 100`,
    r.seo < 100 && !seoExempt && `SEO ${r.seo} < 100`,
    r.fcpS > fcpBudget(r.page) && `first paint ${r.fcpS} s > ${fcpBudget(r.page)} s`,
    r.lcpS > LCP_BUDGET && `LCP ${r.lcpS} s > ${LCP_BUDGET} s`,
    r.cls > 0.01 && `CLS ${r.cls} > 0.01`,
    r.transferKB > TRANSFER_BUDGET_KB && `${r.transferKB} KB > ${TRANSFER_BUDGET_KB} KB`,
  ].filter((broken): broken is string => typeof broken === 'string');
}

/** A guest's three cart lines and a registered customer with two lines in the server cart. */
async function returningShopper() {
  const lines = await inStock(base, 3);
  const registered = await fetch(new URL('/api/v1/ecommerce-core/auth/customer-registration', base), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: `lighthouse.${Date.now()}@example.ru`, phone: '+7 (999) 765-43-21', password: 'возвращаюсь за покупками снова' }),
  });
  const auth = ((await registered.json()) as { data: { access_token: string; user: unknown } }).data;
  for (const line of lines.slice(0, 2)) {
    const form = new FormData();
    form.append('item', JSON.stringify({ id: line.id, variant_code: line.variant_code, quantity: 1, uid: crypto.randomUUID() }));
    await fetch(new URL('/api/v1/ecommerce-core/customer/cart/store-cart-item', base), {
      method: 'POST',
      headers: { authorization: `Bearer ${auth.access_token}` },
      body: form,
    });
  }
  const session = { accessToken: auth.access_token, user: auth.user, dashboard: { balanceAmount: 0, bonusAmount: 0, bonusAvailableUntil: null } };
  return { guestLines: guestLines(lines), session };
}

try {
  const pages = await pageTypes(base);

  mkdirSync('bench-results', { recursive: true });
  // Paint holding keeps the previous page's frame on screen until the new one has something to show. In
  // headless Chromium on this host it released the first frame only on a whole-second timer: the observed
  // first paint came 1.3 or 2.3 s after navigation though the page had loaded at 0.2–0.5 s (0.23–0.37 s
  // with it off, every run), and Lantern then simulated every request that landed before that late paint
  // as holding it back (docs/decisions/016). A phone's browser shows the new page when it has painted.
  const chrome = await chromeLauncher.launch({
    chromePath: chromiumPath(),
    chromeFlags: ['--headless=new', ...CHROMIUM_ARGS, '--disable-features=PaintHolding'],
  });
  // The browser's own start-up work (its WebUI renderer: 2–4 s of one core) must not share the CPU with the
  // first measured page: Lantern multiplies what it observes (scripts/quiet-browser.ts).
  await quietBrowser(chrome.pid);
  const rows: Row[] = [];
  const returning: [string, string][] = [
    ['home', '/'],
    ['category', pages[1]![1]],
    ['product', pages[4]![1]],
    ['cart', '/cart'],
    ['checkout', '/checkout'],
  ];
  const plan: [Profile, string, string][] = profiles.flatMap((profile) =>
    (profile === 'first' ? pages : profile === 'guest' ? returning : [...returning, ['dashboard', '/dashboard'] as [string, string]])
      .filter(([name]) => !only || name === only)
      .map(([name, path]): [Profile, string, string] => [profile, name, path]),
  );
  // The same browser, driven over CDP, lays each profile's storage before a run.
  const driver = await chromium.connectOverCDP(`http://127.0.0.1:${chrome.port}`);
  const context = driver.contexts()[0] as BrowserContext;
  const shopper = await returningShopper();
  async function prepare(profile: Profile): Promise<void> {
    const page = await context.newPage();
    try {
      const cdp = await context.newCDPSession(page);
      await cdp.send('Network.clearBrowserCache');
      await context.clearCookies();
      await page.goto(new URL('/api/health', base).href);
      await page.evaluate(
        ({ profile, guestLines, session }) => {
          localStorage.clear();
          if (profile === 'guest') localStorage.setItem('guest-products', guestLines);
          if (profile === 'customer') {
            localStorage.setItem('session', session);
            // Refreshed just now (src/features/auth/auth.store.ts): the page keeps the token it was given
            // instead of rotating it, so every run's session is the same live one.
            localStorage.setItem('session-refreshed-at', String(Date.now()));
          }
          // The cookie notice accepted, as a returning shopper has.
          if (profile !== 'first') localStorage.setItem('cookie-accepted', '1');
        },
        { profile, guestLines: JSON.stringify(shopper.guestLines), session: JSON.stringify(shopper.session) },
      );
      if (profile === 'customer') await context.addCookies([{ name: 'bs_session', value: shopper.session.accessToken, url: base }]);
    } finally {
      await page.close();
    }
  }
  try {
    for (const [profile, name, path] of plan) {
      // Once to warm the page cache (a visitor after the first), then measured, once the stored page has
      // been compressed again (src/lib/http/page-cache.ts: the first visitor gets a quicker, larger copy).
      await fetch(new URL(path, base));
      await new Promise((resolve) => setTimeout(resolve, 600));
      const measured: Run[] = [];
      for (let run = 0; run < runs; run++) {
        // A first visit's storage is emptied by Lighthouse itself.
        if (profile !== 'first') await prepare(profile);
        measured.push(await measure(chrome.port, name, path, profile));
      }
      measured.sort((a, b) => a.row.fcpS - b.row.fcpS || a.row.lcpS - b.row.lcpS);
      const median = measured[Math.floor((measured.length - 1) / 2)] as Run;
      const spread = (pick: (r: Row) => number) => {
        const values = measured.map((m) => pick(m.row));
        return `${Math.min(...values)}–${Math.max(...values)}`;
      };
      const row = runs > 1 ? { ...median.row, fcpRange: spread((r) => r.fcpS), lcpRange: spread((r) => r.lcpS) } : median.row;
      if (full) {
        const file = `bench-results/lighthouse-${profile === 'first' ? '' : `${profile}-`}${name.replace(' ', '-')}`;
        writeFileSync(`${file}.json`, JSON.stringify(median.lhr));
        if (runs > 1) measured.forEach((m, k) => writeFileSync(`${file}-${k + 1}.json`, JSON.stringify(m.lhr)));
      }
      rows.push(row);
      console.log(
        `${profile} ${name}: perf ${row.performance}, a11y ${row.accessibility}, bp ${row.bestPractices}, seo ${row.seo}, FCP ${row.fcpS} s, LCP ${row.lcpS} s, CLS ${row.cls}, ${row.transferKB} KB` +
          (row.fcpRange ? ` (${runs} runs: FCP ${row.fcpRange} s, LCP ${row.lcpRange} s)` : ''),
      );
    }
  } finally {
    await driver.close().catch(() => undefined);
    chrome.kill();
  }
  mkdirSync('bench-results', { recursive: true });
  writeFileSync('bench-results/lighthouse.json', JSON.stringify(rows, null, 2));
  console.log(
    '\n| shopper | page | performance | accessibility | best practices | SEO | FCP | LCP | Speed Index | CLS | TBT | transferred | fonts |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|',
  );
  for (const r of rows) {
    const range = (value: number, seen?: string) => `${value} s${seen ? ` (${seen})` : ''}`;
    console.log(
      `| ${r.profile === 'first' ? 'first visit' : r.profile === 'guest' ? 'guest, 3 lines' : 'signed in, cart'} | ${r.page} | ${r.performance} | ${r.accessibility} | ${r.bestPractices} | ${r.seo} | ${range(r.fcpS, r.fcpRange)} | ${range(r.lcpS, r.lcpRange)} | ${r.siS} s | ${r.cls} | ${r.tbtMs} ms | ${r.transferKB} KB | ${r.fontKB} KB |`,
    );
  }
  console.log('\nAudits below 0.9:');
  for (const r of rows) console.log(`- ${r.profile} ${r.page}: ${r.failing.join(', ') || 'none'}`);
  const broken = rows.flatMap((r) => budgetsBroken(r).map((what) => `${r.profile} ${r.page}: ${what}`));
  console.log(broken.length ? `\nBudgets broken (median runs):\n- ${broken.join('\n- ')}` : '\nEvery budget holds (median runs).');
  if (broken.length) process.exitCode = 1;
} finally {
  await server?.stop();
}
