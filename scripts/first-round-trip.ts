// `npm run first-round-trip [-- http://127.0.0.1:4321]`: does each page's head and first screen come in
// the first round trip of a new connection (~14.6 KB: ten packets of 1,460 bytes, headers included)?
// For the page types of `npm run lighthouse`, as a phone fetches them (brotli, after one visit has warmed
// the page cache): the time to the first byte and to the last, the bytes of the headers, and the brotli
// bytes of the head, of the head and first screen, and of the whole document. The first screen ends at
// the first element, in document order, laid out wholly below a 412 × 823 viewport (Lighthouse's phone)
// in Debian's Chromium with JavaScript off; a prefix's compressed size is that of the prefix compressed
// alone at the server's quality. Without a URL it starts the built shop on a fresh database itself.
// Prints the Markdown table for docs/performance.md and writes bench-results/first-round-trip.json.
import { mkdirSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { brotliCompressSync, constants } from 'node:zlib';
import { CHROMIUM_ARGS, chromiumPath } from '../tests/e2e/chromium.ts';
import { pageTypes } from '../tests/support/page-types.ts';
import { commandLine, httpAddress } from './cli.ts';

const FIRST_ROUND_TRIP = 10 * 1460;
const cli = commandLine('npm run first-round-trip -- [URL]', { allowPositionals: true });
if (cli.positionals.length > 1) cli.fail(`one address, not ${cli.positionals.length}`);
const given = cli.positionals[0] === undefined ? undefined : httpAddress(cli, cli.positionals[0]);
// Loaded once the arguments are known: a wrong one is answered at once, not after Playwright and the database (scripts/cli.ts).
const { chromium } = await import('playwright-core');
const { startTestServer } = await import('../tests/support/server.ts');
const server = given ? undefined : await startTestServer({ label: 'first-round-trip', seedProducts: 2000, env: { LOG_LEVEL: 'warn' } });
const base = given ?? (server?.baseUrl as string);

interface Fetched {
  ttfbMs: number;
  totalMs: number;
  headerBytes: number;
  bodyBytes: number;
}

/** One GET as a phone's browser asks, timed on the wire; the headers' size as they were sent. */
function fetchBrotli(path: string): Promise<Fetched> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    let ttfb = 0;
    const req = request(new URL(path, base), { headers: { 'accept-encoding': 'br, gzip', accept: 'text/html' } }, (res) => {
      let bodyBytes = 0;
      res.once('data', () => (ttfb = performance.now() - started));
      res.on('data', (chunk: Buffer) => (bodyBytes += chunk.byteLength));
      res.on('end', () => {
        // `name: value\r\n` for each header, the status line, and the blank line that ends them.
        const headerBytes =
          `HTTP/1.1 ${res.statusCode} ${res.statusMessage}\r\n`.length + res.rawHeaders.reduce((sum, h) => sum + Buffer.byteLength(h) + 2, 0) + 2;
        resolve({ ttfbMs: Math.round(ttfb * 10) / 10, totalMs: Math.round((performance.now() - started) * 10) / 10, headerBytes, bodyBytes });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

const brotli = (text: string) =>
  brotliCompressSync(Buffer.from(text), { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT } })
    .byteLength;

/**
 * Where the k-th element inside <body> (document order, as a parser without script builds them: the
 * content of <noscript> is elements) starts in the source.
 */
function elementOffset(html: string, index: number): number {
  const body = html.indexOf('<body');
  const tag = /<!--[\s\S]*?-->|<(script|style|title|textarea)\b[^>]*>[\s\S]*?<\/\1>|<([a-zA-Z][a-zA-Z0-9-]*)/g;
  tag.lastIndex = html.indexOf('>', body) + 1;
  let seen = -1;
  for (let match = tag.exec(html); match; match = tag.exec(html)) {
    if (match[0].startsWith('<!--')) continue;
    seen++;
    if (seen === index) return match.index;
  }
  return html.length;
}

try {
  const pages = await pageTypes(base);
  const browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });
  const context = await browser.newContext({ viewport: { width: 412, height: 823 }, javaScriptEnabled: false });
  const rows = [];
  for (const [name, path] of pages) {
    await fetchBrotli(path); // warms the page cache, as for every visitor after the first
    await new Promise((resolve) => setTimeout(resolve, 400)); // lets the stored page be compressed again
    const wire = await fetchBrotli(path);
    const html = await (await fetch(new URL(path, base))).text();
    const page = await context.newPage();
    await page.goto(new URL(path, base).href);
    const below = await page.evaluate(() => {
      const all = [...document.body.querySelectorAll('*')];
      return all.findIndex((e) => {
        const r = e.getBoundingClientRect();
        const position = getComputedStyle(e).position;
        return r.height > 0 && r.top >= innerHeight && position !== 'fixed' && position !== 'sticky';
      });
    });
    await page.close();
    const headEnd = html.indexOf('</head>') + '</head>'.length;
    const screenEnd = below < 0 ? html.length : elementOffset(html, below);
    const row = {
      page: name,
      ttfbMs: wire.ttfbMs,
      totalMs: wire.totalMs,
      headerBytes: wire.headerBytes,
      headBr: brotli(html.slice(0, headEnd)),
      firstScreenBr: brotli(html.slice(0, screenEnd)),
      documentBr: wire.bodyBytes,
      rawKB: Math.round(html.length / 102.4) / 10,
    };
    const fits = row.headerBytes + row.firstScreenBr <= FIRST_ROUND_TRIP;
    // Lighthouse's simulation starts parsing only once the whole document has come: a page past the first
    // round trip paints a round trip later there (docs/decisions/016).
    const whole = row.headerBytes + row.documentBr <= FIRST_ROUND_TRIP;
    rows.push({ ...row, fits, whole });
    console.log(
      `${name}: TTFB ${row.ttfbMs} ms, headers ${row.headerBytes} B, head ${row.headBr} B, head + first screen ${row.firstScreenBr} B, document ${row.documentBr} B${fits ? '' : ' — first screen past the first round trip'}${whole ? '' : ' — document past the first round trip'}`,
    );
  }
  await browser.close();
  mkdirSync('bench-results', { recursive: true });
  writeFileSync('bench-results/first-round-trip.json', JSON.stringify(rows, null, 2));
  console.log(
    '\n| page | TTFB | headers | head (br) | head + first screen (br) | whole document (br) | raw HTML | first screen in the first round trip | whole page in it |\n|---|---|---|---|---|---|---|---|---|',
  );
  for (const r of rows)
    console.log(
      `| ${r.page} | ${r.ttfbMs} ms | ${(r.headerBytes / 1024).toFixed(1)} KB | ${(r.headBr / 1024).toFixed(1)} KB | ${(r.firstScreenBr / 1024).toFixed(1)} KB | ${(r.documentBr / 1024).toFixed(1)} KB | ${r.rawKB} KB | ${r.fits ? 'yes' : 'no'} | ${r.whole ? 'yes' : `no (${r.headerBytes + r.documentBr} B)`} |`,
    );
} finally {
  await server?.stop();
}
