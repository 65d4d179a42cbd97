// `npm run bench -- --cdn [--products 20000] [--seconds 15] [--rate 40]` (or `node scripts/bench-cdn.ts`): what a
// purge costs the origin (issue 41, docs/performance.md "A CDN in front"). Needs BENCH_DATABASE_URL
// (PostgreSQL: two processes share it; its public schema is emptied) and Debian's Varnish with
// varnish-modules (`apt-get install varnish varnish-modules`).
// 1. Two shop processes (CDN_PURGE=xkey) on a seeded catalogue of --products, behind Varnish with the VCL of
//    docs/operations.md.
// 2. Shoppers through the cache the whole time: autocannon, 8 connections flat out, on the hot pages (the
//    home page, the catalogue, five categories, forty products) — the import benchmark's set-up.
// 3. The origin's p95 for pages no cache has seen (product pages asked once each, straight at a process, at
//    --rate a second): while all is quiet, and in the --seconds after a change that purges every page of the
//    cache (a category renamed: the `menu` tag), while the shoppers' misses fetch the purged pages again.
//    The budget: after the purge within 1.5× of quiet.
// Results: bench-results/cdn.json and a Markdown table on stdout.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { commandLine, wholeNumber } from './cli.ts';
import { load, type Load } from './load.ts';
import { serverProcess } from './server-flags.mjs';

const cli = commandLine('npm run bench -- --cdn [--products N] [--seconds N] [--rate N] [--keep]', {
  options: {
    products: { type: 'string', default: '20000' },
    seconds: { type: 'string', default: '15' },
    rate: { type: 'string', default: '40' },
    keep: { type: 'boolean', default: false },
  },
});
const products = wholeNumber(cli, '--products', cli.values.products, { min: 100 });
const seconds = wholeNumber(cli, '--seconds', cli.values.seconds, { min: 3 });
const rate = wholeNumber(cli, '--rate', cli.values.rate, { min: 1 });
const databaseUrl = process.env['BENCH_DATABASE_URL'];
if (!databaseUrl) {
  console.error('BENCH_DATABASE_URL (a PostgreSQL database the benchmark may empty) is needed: two processes share it.');
  process.exit(2);
}
if (spawnSync('/usr/sbin/varnishd', ['-V']).status !== 0) {
  console.error("Debian's Varnish is needed: apt-get install varnish varnish-modules");
  process.exit(2);
}

const work = mkdtempSync(join(tmpdir(), 'bench-cdn-'));
const children: ChildProcess[] = [];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** The fenced block of docs/operations.md whose first line is `# <path>`, without that line. */
function documentedFile(path: string): string {
  for (const match of readFileSync('docs/operations.md', 'utf8').matchAll(/```\w*\n([\s\S]*?)```/g)) {
    const [first, ...rest] = (match[1] ?? '').split('\n');
    if (first?.trim() === `# ${path}`) return rest.join('\n');
  }
  throw new Error(`docs/operations.md gives no ${path}`);
}

async function until(what: string, ready: () => Promise<boolean>, timeoutMs = 600_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await ready().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs / 1000} s`);
    await sleep(250);
  }
}

function varnishCounters(dir: string): Record<string, number> {
  const out = spawnSync('varnishstat', ['-n', join(dir, 'work'), '-1', '-f', 'MAIN.cache_hit', '-f', 'MAIN.cache_miss'], { encoding: 'utf8' }).stdout;
  return Object.fromEntries([...out.matchAll(/^MAIN\.(\w+)\s+(\d+)/gm)].map((m) => [m[1] as string, Number(m[2])]));
}

const results: Record<string, unknown> = { products, seconds, rate };
try {
  const { default: pg } = await import('pg');
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  await db.query('DROP SCHEMA IF EXISTS public CASCADE; DROP SCHEMA IF EXISTS drizzle CASCADE; CREATE SCHEMA public');

  const [portA, portB, listen] = [await freePort(), await freePort(), await freePort()];
  const front = `http://127.0.0.1:${listen}`;
  const vcl = documentedFile('/etc/varnish/default.vcl').replace('.port = "4321"', `.port = "${portA}"`).replace('.port = "4322"', `.port = "${portB}"`);
  writeFileSync(join(work, 'default.vcl'), vcl);
  children.push(
    spawn(
      '/usr/sbin/varnishd',
      ['-F', '-j', 'none', '-n', join(work, 'work'), '-a', `127.0.0.1:${listen}`, '-f', join(work, 'default.vcl'), '-s', 'malloc,256m'],
      {
        stdio: 'ignore',
      },
    ),
  );
  const shop = (port: number) => {
    const started = serverProcess({
      DATABASE_URL: databaseUrl,
      DATA_DIR: join(work, 'data'),
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      SEED_PRODUCTS: String(products),
      NODE_ENV: 'production',
      SITE_URL: front,
      CDN_PURGE: 'xkey',
      CDN_PURGE_URLS: front,
      TRUST_PROXY: '127.0.0.1',
    });
    const child = spawn(started.command, started.args, { env: started.env, stdio: ['ignore', 'ignore', 'inherit'], detached: true });
    children.push(child);
  };
  // The first migrates and seeds; the second starts on what it made.
  shop(portA);
  await until('the first process', async () => (await fetch(`http://127.0.0.1:${portA}/api/ready`)).ok);
  shop(portB);
  await until('the second process', async () => (await fetch(`http://127.0.0.1:${portB}/api/ready`)).ok);
  await until('the cache', async () => (await fetch(`${front}/`)).ok, 60_000);

  const rows = (await db.query('SELECT id, slug FROM products WHERE is_active ORDER BY id')).rows as { id: number; slug: string }[];
  const categories = (await db.query('SELECT id, slug FROM categories WHERE level = 2 ORDER BY id LIMIT 5')).rows as { id: number; slug: string }[];
  const hot = ['/', '/catalog', ...categories.map((c) => `/c/${c.id}/${c.slug}`), ...rows.slice(0, 40).map((p) => `/p/${p.id}/${p.slug}`)];
  // Pages no cache has seen: each asked once, straight at the first process (its page cache has not seen them either).
  const cold = rows.slice(40).map((p) => `/p/${p.id}/${p.slug}`);
  const half = Math.floor(cold.length / 2);
  const asked = Math.min(half, rate * seconds);
  const origin = `http://127.0.0.1:${portA}`;

  await load(front, hot, { seconds: 5 }); // the cache warmed
  const shoppers = load(front, hot, { seconds: 3 * seconds + 10 });
  await sleep(3_000);
  const before = varnishCounters(work);
  const quiet = await load(origin, cold.slice(0, asked), { amount: asked, overallRate: rate, connections: 4 });
  // Every page of the cache purged: a category renamed (the `menu` tag), as the console or 1C would.
  const [renamed] = (await db.query('SELECT name FROM categories WHERE id = $1', [categories[0]?.id])).rows as { name: string }[];
  const newName = `${renamed?.name ?? ''} и новинки`;
  await db.query('UPDATE categories SET name = $2 WHERE id = $1', [categories[0]?.id, newName]);
  const changed = Date.now();
  let purgedMs = NaN;
  // The cache shows the new name in every page's menu once the purge reached it.
  const watch = (async () => {
    while (Date.now() - changed < 30_000) {
      if ((await (await fetch(`${front}/catalog`)).text()).includes(newName)) return (purgedMs = Date.now() - changed);
      await sleep(50);
    }
    return NaN;
  })();
  const afterPurge = await load(origin, cold.slice(half, half + asked), { amount: asked, overallRate: rate, connections: 4 });
  await watch;
  const after = varnishCounters(work);
  const shopping = await shoppers;
  await db.query('UPDATE categories SET name = $2 WHERE id = $1', [categories[0]?.id, renamed?.name]);
  await db.end();

  Object.assign(results, { quiet, afterPurge, shopping, purgedMs, varnish: { before, after } });
  mkdirSync('bench-results', { recursive: true });
  writeFileSync('bench-results/cdn.json', JSON.stringify(results, null, 2));
  const ms = (n: number) => n.toFixed(1);
  const row = (name: string, l: Load) => `| ${name} | ${ms(l.p50)} | ${ms(l.p95)} | ${ms(l.p99)} | ${l.requests} | ${l.errors} |`;
  console.log(`\nThe origin's uncached product pages (${rate}/s, ${products.toLocaleString('en')} products, two processes on PostgreSQL), ms:`);
  console.log('| | p50 | p95 | p99 | requests | errors |\n|---|---|---|---|---|---|');
  console.log(row('quiet (the cache serving the shoppers)', quiet));
  console.log(row('right after a purge of every page', afterPurge));
  console.log(`p95 after the purge / quiet: ${(afterPurge.p95 / quiet.p95).toFixed(2)} (budget 1.5)`);
  console.log(
    `The new name was in the cache's pages ${purgedMs} ms after the change; misses over the two measurements: ${(after['cache_miss'] ?? 0) - (before['cache_miss'] ?? 0)}, hits ${(after['cache_hit'] ?? 0) - (before['cache_hit'] ?? 0)}.`,
  );
  console.log(`Shoppers through the cache the whole time: ${row('8 connections', shopping)}`);
} finally {
  for (const child of children) {
    try {
      if (child.pid) process.kill(child.spawnargs[0]?.includes('varnishd') ? child.pid : -child.pid, 'SIGTERM');
    } catch {
      // gone
    }
  }
  if (!cli.values.keep) rmSync(work, { recursive: true, force: true });
  else console.log(`Kept: ${work}`);
}
