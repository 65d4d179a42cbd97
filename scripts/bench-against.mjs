// `npm run bench -- --against DIR [--products 100000] [--runs 3] [--duration 10] [--connections 16]`: uncached
// product and category pages per second of this build beside another built checkout of the shop (DIR: a
// worktree of an earlier commit after `npm install && npm run build`), in one run, alternating which goes
// first, each server alone on the machine while it is measured (issue 59: ratios, not figures that move with
// the host's hour). Both serve PAGE_CACHE_SECONDS=0 from PGlite copies of one catalogue, seeded once by the
// other checkout's code (so its migrations are a prefix of ours) into bench-results/against/. Each run: the
// server started, every measured page asked once (its cards and listings kept, as under real traffic), then
// --duration seconds of the product rotation and of the category rotation. Prints medians and ratios.
// --browser: the phone's side instead, both servers up (page cache on, as shoppers meet them) and measured
// alternately by this checkout's own tools: Lighthouse mobile (`scripts/lighthouse.ts`, one run a time) on
// --pages (home,category,product), and the throttled phone of `scripts/interactions.ts` on the product page,
// where the figure is, per run, the last of the header, bottom navigation and buy box to hydrate after FCP.
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import autocannon from 'autocannon';
import { commandLine, wholeNumber } from './cli.ts';
import { freePort, waitFor } from './bench-http.mjs';

const cli = commandLine('npm run bench -- --against DIR [--products N] [--runs N] [--duration S] [--connections N]', {
  options: {
    against: { type: 'string' },
    products: { type: 'string', default: '100000' },
    runs: { type: 'string', default: '3' },
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '16' },
    browser: { type: 'boolean', default: false },
    pages: { type: 'string', default: 'home,category,product' },
  },
});
const other = resolve(cli.values.against ?? '');
if (!existsSync(`${other}/dist/server/entry.mjs`)) {
  console.error(`--against ${other}: no built shop there (run npm install && npm run build in it first)`);
  process.exit(2);
}
const products = wholeNumber(cli, '--products', cli.values.products, { min: 1 });
const runs = wholeNumber(cli, '--runs', cli.values.runs, { min: 1 });
const duration = wholeNumber(cli, '--duration', cli.values.duration, { min: 1 });
const connections = wholeNumber(cli, '--connections', cli.values.connections, { min: 1 });

const root = resolve(`bench-results/against/${products}`);
const seeded = `${root}/other`;
if (!existsSync(`${seeded}/bench-products`)) {
  console.log(`— seeding ${products} products with ${other}'s code`);
  mkdirSync(root, { recursive: true });
  const status = spawnSync(process.execPath, ['scripts/seed.ts', '--products', String(products)], {
    cwd: other,
    stdio: 'inherit',
    env: { ...process.env, DATA_DIR: seeded, DATABASE_URL: '' },
  }).status;
  if (status !== 0) process.exit(status ?? 1);
  writeFileSync(`${seeded}/bench-products`, String(products));
}
const ours = `${root}/this`;
if (!existsSync(ours)) cpSync(seeded, ours, { recursive: true });

const sides = [
  { name: 'other', dir: other, data: seeded },
  { name: 'this', dir: process.cwd(), data: ours },
];

function load(url, paths) {
  return new Promise((done, fail) => {
    autocannon(
      { url, connections, duration, headers: { 'accept-encoding': 'gzip, deflate, br' }, requests: paths.map((path) => ({ method: 'GET', path })) },
      (error, result) => (error ? fail(error) : done({ rps: result.requests.average, p99: result.latency.p99, errors: result.errors + result.non2xx })),
    );
  });
}

/** One side's server started on its own data with the page cache off, measured, stopped. */
async function measure(side) {
  const { base, stop } = await started(side, { PAGE_CACHE_SECONDS: '0' });
  try {
    const productPaths = [];
    for (let page = 1; productPaths.length < 200; page++) {
      const res = await (await fetch(`${base}/api/v1/ecommerce-core/products?per_page=60&sort=new&page=${page}`)).json();
      productPaths.push(...res.data.products.map((p) => p.url));
    }
    const tree = (await (await fetch(`${base}/api/v1/ecommerce-core/mega-categories`)).json()).data;
    const categoryPaths = [];
    const walk = (nodes) => nodes.forEach((n) => (categoryPaths.push(n.url), walk(n.childs.data)));
    walk(tree);
    for (const path of [...productPaths, ...categoryPaths]) await (await fetch(`${base}${path}`)).arrayBuffer();
    return { product: await load(base, productPaths), category: await load(base, categoryPaths) };
  } finally {
    stop();
    await new Promise((r) => setTimeout(r, 1500));
  }
}

if (cli.values.browser) {
  await browserSide();
  process.exit(0);
}

/** One side's server started on its own data (page cache as configured), until `stop` is called. */
async function started(side, extraEnv = {}) {
  const { serverProcess } = await import(`${side.dir}/scripts/server-flags.mjs`);
  const port = await freePort();
  const { command, args, env } = serverProcess({
    DATA_DIR: side.data,
    DATABASE_URL: '',
    HOST: '127.0.0.1',
    PORT: String(port),
    LOG_LEVEL: 'warn',
    ...extraEnv,
  });
  const server = spawn(command, args, { cwd: side.dir, env, stdio: process.env.BENCH_VERBOSE ? 'inherit' : 'ignore', detached: true });
  const base = `http://127.0.0.1:${port}`;
  await waitFor(`${base}/api/health`);
  await waitFor(`${base}/api/v1/ecommerce-core/products?per_page=60`);
  return {
    base,
    stop: () => {
      try {
        process.kill(-server.pid, 'SIGTERM');
      } catch {
        // already gone
      }
    },
  };
}

async function browserSide() {
  const { readFileSync } = await import('node:fs');
  const pages = cli.values.pages.split(',');
  const servers = {};
  for (const side of sides) servers[side.name] = await started(side);
  const tool = (script, args) => {
    const status = spawnSync(process.execPath, [script, ...args], { stdio: ['ignore', 'ignore', 'inherit'] }).status;
    if (status !== 0 && status !== 1) throw new Error(`${script} ${args.join(' ')} exited with ${status}`);
  };
  const seen = { other: {}, this: {} };
  const note = (side, key, value) => (seen[side][key] ??= []).push(value);
  try {
    for (let run = 0; run < runs; run++) {
      for (const side of run % 2 === 0 ? sides : [...sides].reverse()) {
        const { base } = servers[side.name];
        for (const page of pages) {
          tool('scripts/lighthouse.ts', [base, '--page', page, '--runs', '1']);
          const [row] = JSON.parse(readFileSync('bench-results/lighthouse.json', 'utf8'));
          for (const [key, value] of [
            ['FCP s', row.fcpS],
            ['LCP s', row.lcpS],
            ['TBT ms', row.tbtMs],
            ['CLS', row.cls],
            ['KB', row.transferKB],
          ])
            note(side.name, `${page} ${key}`, value);
        }
        tool('scripts/interactions.ts', [base, '--page', 'product', '--skip-inp', '--runs', '1']);
        const [row] = JSON.parse(readFileSync('bench-results/interactions.json', 'utf8')).hydration;
        note(side.name, 'product FCP (phone) ms', row.fcp);
        note(side.name, 'product last first-screen island ms', Math.max(row.islands.header, row.islands['bottom-nav'], row.islands.buy));
        console.log(
          `run ${run + 1} ${side.name}: ${Object.entries(seen[side.name])
            .map(([k, v]) => `${k} ${v.at(-1)}`)
            .join(', ')}`,
        );
      }
    }
  } finally {
    for (const { stop } of Object.values(servers)) stop();
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const lines = [`| median of ${runs} | ${other} | this | ratio |`, '| --- | --- | --- | --- |'];
  for (const key of Object.keys(seen.this)) {
    const a = median(seen.other[key]);
    const b = median(seen.this[key]);
    lines.push(`| ${key} | ${a} | ${b} | ${a ? (b / a).toFixed(2) + '×' : '—'} |`);
  }
  console.log('\n' + lines.join('\n'));
  writeFileSync('bench-results/against-browser.json', JSON.stringify({ other, runs, seen }, null, 2));
}

const results = { other: [], this: [] };
for (let run = 0; run < runs; run++) {
  for (const side of run % 2 === 0 ? sides : [...sides].reverse()) {
    const result = await measure(side);
    results[side.name].push(result);
    console.log(
      `run ${run + 1} ${side.name}: product ${result.product.rps.toFixed(1)}/s (p99 ${result.product.p99} ms, ${result.product.errors} errors), category ${result.category.rps.toFixed(1)}/s (p99 ${result.category.p99} ms, ${result.category.errors} errors)`,
    );
  }
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const lines = ['| pages per second, uncached | ' + other + ' | this | ratio |', '| --- | --- | --- | --- |'];
for (const kind of ['product', 'category']) {
  const a = median(results.other.map((r) => r[kind].rps));
  const b = median(results.this.map((r) => r[kind].rps));
  lines.push(`| ${kind} | ${a.toFixed(1)} | ${b.toFixed(1)} | ${(b / a).toFixed(2)}× |`);
}
console.log(`\nMedians of ${runs} runs of ${duration} s, ${connections} connections, ${products} products:\n` + lines.join('\n'));
mkdirSync('bench-results', { recursive: true });
writeFileSync('bench-results/against.json', JSON.stringify({ other, products, runs, duration, connections, results }, null, 2));
