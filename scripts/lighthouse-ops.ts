// `npm run lighthouse:ops`: Lighthouse's accessibility (and best practices) on every page of the managers'
// console (issue 24), signed in as an admin, at desktop and mobile sizes. Starts the built shop on a fresh
// database with an order, a buyout request, a customer and an import run to show; prints a Markdown table
// for docs/operations.md and exits with 1 unless every page scores 100 in accessibility.
import { commandLine } from './cli.ts';

// The arguments first, then the heavy modules: a wrong one is answered at once (scripts/cli-usage.test.ts).
commandLine('npm run lighthouse:ops', {});
const chromeLauncher = await import('chrome-launcher');
const { default: lighthouse } = await import('lighthouse');
const { chromium } = await import('playwright-core');
const { CHROMIUM_ARGS, chromiumPath } = await import('../tests/e2e/chromium.ts');
const { startTestServer } = await import('../tests/support/server.ts');
const { shopper } = await import('../tests/support/shopper.ts');
const { enrol, sendBuyoutRequest, signedInOperator, Visitor } = await import('../tests/support/ops.ts');
const server = await startTestServer({ label: 'lighthouse-ops', seedProducts: 50, env: { LOG_LEVEL: 'warn' } });
let failed = false;
try {
  // Something on every page: a paid order of a customer, a buyout request, an import run.
  const buyer = shopper(() => server);
  const { code } = await buyer.paidOrder(await buyer.register());
  await sendBuyoutRequest(server.baseUrl, { messenger: 'whatsApp', description: 'Hermès Birkin 30', product_url: 'https://example.com/birkin' });
  const { visitor } = await signedInOperator(server, 'lighthouse@shop.ru', 'admin');
  // A second operator's one-time set-up link, for the set-up page (each run of it spends nothing: only the
  // form's post would).
  const setup = new URL((await enrol(server, 'newcomer@shop.ru', 'manager')).setup_url);
  const csrf = Visitor.formToken((await visitor.go('/ops/imports')).html);
  await visitor.go('/ops/imports', { _csrf: csrf, url: 'https://127.0.0.1:9/feed.xml' });
  const pages = [
    '/ops/orders',
    `/ops/orders/${code}`,
    `/ops/orders/${code}/slip`,
    '/ops/buyout',
    '/ops/buyout/1',
    '/ops/customers',
    '/ops/customers/1',
    '/ops/products',
    '/ops/products/1',
    '/ops/imports',
    '/ops/imports/1',
    '/ops/audit',
  ];
  const chrome = await chromeLauncher.launch({ chromePath: chromiumPath(), chromeFlags: ['--headless=new', ...CHROMIUM_ARGS] });
  const rows: string[] = [];
  // The session as the browser's own cookie (Lighthouse told to keep the storage): a header would not do,
  // Chromium does not send an extra Cookie header.
  const driver = await chromium.connectOverCDP(`http://127.0.0.1:${chrome.port}`);
  const context = driver.contexts()[0];
  if (!context) throw new Error('no browser context');
  const session = visitor.cookies.get('ops_session') ?? '';
  try {
    for (const [form, settings] of [
      ['desktop', { formFactor: 'desktop', screenEmulation: { mobile: false, width: 1440, height: 900, deviceScaleFactor: 1, disabled: false } }],
      ['mobile', { formFactor: 'mobile', screenEmulation: { mobile: true, width: 390, height: 844, deviceScaleFactor: 3, disabled: false } }],
    ] as const) {
      for (const path of [setup.pathname + setup.search, '/ops/login', ...pages]) {
        // The set-up and sign-in pages as someone signed out sees them; the rest signed in.
        if (path.startsWith('/ops/login') || path.startsWith('/ops/setup')) await context.clearCookies();
        else if (path === pages[0]) await context.addCookies([{ name: 'ops_session', value: session, url: server.baseUrl + '/ops' }]);
        const result = await lighthouse(
          server.baseUrl + path,
          { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['accessibility', 'best-practices'], disableStorageReset: true },
          { extends: 'lighthouse:default', settings: { ...settings, throttlingMethod: 'provided' } },
        );
        const lhr = result?.lhr;
        if (!lhr) throw new Error(`no report for ${path}`);
        const score = (id: string) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
        const failing = Object.values(lhr.audits)
          .filter((a) => a.score !== null && a.score < 1 && (lhr.categories['accessibility']?.auditRefs.some((r) => r.id === a.id && r.weight > 0) ?? false))
          .map((a) => a.id);
        if (lhr.finalDisplayedUrl && !lhr.finalDisplayedUrl.includes(path.split('/').slice(0, 3).join('/'))) failing.push(`landed on ${lhr.finalDisplayedUrl}`);
        if (score('accessibility') < 100 || failing.length > 0) failed = true;
        // What each failing audit points at, to be fixed.
        for (const id of failing) {
          const items = (lhr.audits[id]?.details as { items?: { node?: { selector?: string; snippet?: string } }[] } | undefined)?.items ?? [];
          for (const item of items.slice(0, 5)) console.error(`  ${id}: ${item.node?.selector ?? ''} ${item.node?.snippet ?? ''}`);
        }
        rows.push(
          `| ${form} | ${path.replace(code, 'BS-…').replace(/token=.*/, 'token=…')} | ${score('accessibility')} | ${score('best-practices')} | ${failing.join(', ') || '—'} |`,
        );
        console.error(rows.at(-1));
      }
    }
  } finally {
    chrome.kill();
  }
  console.log('| size | page | accessibility | best practices | failing |\n| --- | --- | --- | --- | --- |\n' + rows.join('\n'));
} finally {
  await server.stop();
}
process.exit(failed ? 1 : 0);
