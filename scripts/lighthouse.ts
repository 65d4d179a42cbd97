// `npm run lighthouse [-- http://127.0.0.1:4321] [--page home] [--full]`: Lighthouse (mobile, default throttling) in Debian's
// Chromium on each page type — home, category, brand, search, product, brands, an info page, a blog
// post. Without a URL it starts the built shop on a fresh database itself. Prints the Markdown table for
// docs/performance.md and writes bench-results/lighthouse.json. Budgets of DESIGN §7 / issue 10:
// performance ≥ 95, LCP ≤ 2.0 s, FCP ≤ 1.2 s, accessibility ≥ 98, best practices and SEO 100,
// CLS ≤ 0.05, ≤ 250 KB transferred.
import { mkdirSync, writeFileSync } from 'node:fs';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { CHROMIUM_ARGS, chromiumPath } from '../tests/e2e/chromium.ts';
import { startTestServer } from '../tests/support/server.ts';

const given = process.argv.slice(2).find((a) => a.startsWith('http'));
// --page <name>: measure that page type only; --full: keep each page's whole report (bench-results/lighthouse-<page>.json).
const only = process.argv.includes('--page') ? process.argv[process.argv.indexOf('--page') + 1] : undefined;
const full = process.argv.includes('--full');
const server = given ? undefined : await startTestServer({ label: 'lighthouse', seedProducts: 2000, env: { LOG_LEVEL: 'warn' } });
const base = given ?? (server?.baseUrl as string);

async function json<T>(path: string, method = 'GET'): Promise<T> {
  return ((await (await fetch(new URL(path, base), { method })).json()) as { data: T }).data;
}

try {
  const listing = await json<{ products: { url: string }[] }>('/api/v1/ecommerce-core/products?category=3&per_page=1');
  const blogs = await json<{ posts: { url: string }[] }>('/api/v1/ecommerce-core/blogs');
  const tree = await json<{ url: string; childs: { data: { childs: { data: { url: string }[] } }[] } }[]>('/api/v1/ecommerce-core/mega-categories');
  const brands = await json<{ brands: { data: { url: string }[] } }>('/api/v1/ecommerce-core/search-suggestions?search_key=gucci', 'POST');
  const pages: [string, string][] = [
    ['home', '/'],
    ['category', tree[0]?.childs.data[0]?.childs.data[0]?.url ?? '/c/3/platya'],
    ['brand', brands.brands.data[0]?.url ?? '/m/1/gucci'],
    ['search', `/product/search/${encodeURIComponent('платье')}`],
    ['product', listing.products[0]?.url ?? '/'],
    ['brands', '/brands'],
    ['info page', '/i/12/razmery'],
    ['blog post', blogs.posts[0]?.url ?? '/blog'],
  ];

  mkdirSync('bench-results', { recursive: true });
  const chrome = await chromeLauncher.launch({ chromePath: chromiumPath(), chromeFlags: ['--headless=new', ...CHROMIUM_ARGS] });
  const rows: Record<string, unknown>[] = [];
  try {
    for (const [name, path] of pages.filter(([name]) => !only || name === only)) {
      // Once to warm the page cache (a visitor after the first), then measured.
      await fetch(new URL(path, base));
      const result = await lighthouse(new URL(path, base).href, { port: chrome.port, output: 'json', logLevel: 'error' });
      const lhr = result?.lhr;
      if (!lhr) throw new Error(`no Lighthouse result for ${path}`);
      if (full) writeFileSync(`bench-results/lighthouse-${name.replace(' ', '-')}.json`, JSON.stringify(lhr));
      const score = (id: string) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
      const audit = (id: string) => lhr.audits[id]?.numericValue ?? NaN;
      const row = {
        page: name,
        path,
        performance: score('performance'),
        accessibility: score('accessibility'),
        bestPractices: score('best-practices'),
        seo: score('seo'),
        fcpS: Math.round(audit('first-contentful-paint') / 100) / 10,
        lcpS: Math.round(audit('largest-contentful-paint') / 100) / 10,
        cls: Math.round(audit('cumulative-layout-shift') * 1000) / 1000,
        tbtMs: Math.round(audit('total-blocking-time')),
        transferKB: Math.round(audit('total-byte-weight') / 1024),
        failing: Object.values(lhr.audits)
          .filter((a) => a.score !== null && a.score < 0.9 && a.scoreDisplayMode !== 'informative' && a.scoreDisplayMode !== 'notApplicable')
          .map((a) => a.id),
      };
      rows.push(row);
      console.log(
        `${name}: perf ${row.performance}, a11y ${row.accessibility}, bp ${row.bestPractices}, seo ${row.seo}, FCP ${row.fcpS} s, LCP ${row.lcpS} s, CLS ${row.cls}, ${row.transferKB} KB`,
      );
    }
  } finally {
    chrome.kill();
  }
  mkdirSync('bench-results', { recursive: true });
  writeFileSync('bench-results/lighthouse.json', JSON.stringify(rows, null, 2));
  console.log(
    '\n| page | performance | accessibility | best practices | SEO | FCP | LCP | CLS | TBT | transferred |\n|---|---|---|---|---|---|---|---|---|---|',
  );
  for (const r of rows) {
    console.log(
      `| ${r['page']} | ${r['performance']} | ${r['accessibility']} | ${r['bestPractices']} | ${r['seo']} | ${r['fcpS']} s | ${r['lcpS']} s | ${r['cls']} | ${r['tbtMs']} ms | ${r['transferKB']} KB |`,
    );
  }
  console.log('\nAudits below 0.9:');
  for (const r of rows) console.log(`- ${r['page']}: ${(r['failing'] as string[]).join(', ') || 'none'}`);
} finally {
  await server?.stop();
}
