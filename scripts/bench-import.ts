// `npm run bench -- --import [--offers 100000] [--photos 24]` (or `node scripts/bench-import.ts`): the
// catalogue import at scale (issue 23, docs/performance.md "Catalogue import").
// 1. Writes a YML feed of --offers offers from the generated catalogue's vocabulary: products of 1–10 sizes
//    sharing a group_id, params, counts, HTML descriptions in CDATA (~1.6 KB an offer).
// 2. `npm run import` into an empty PGlite database, as a shop owner runs it: wall time, offers/s, and the
//    import process's peak resident memory (the budget: 300 MB).
// 3. The same file again (nothing to write), then `--prices-stock` with a tenth of the prices and stock
//    changed (the budget: 10 s for 100,000 offers).
// 4. Photos: --photos photos of a real photo's size and entropy (2000×2667 JPEG, 300–800 KB) through the
//    pipeline, 8 at once: photos per second.
// 5. With BENCH_DATABASE_URL (PostgreSQL; on PGlite the shop and the command cannot share the database):
//    the shop serving from the imported catalogue, its page p95 (autocannon, 8 connections, flat out or
//    at --rate requests/s: home, a
//    category, product pages) when quiet and while a changed feed is imported (the budget: within 2×), and
//    how long after the import a changed price shows on its product page.
// Results: bench-results/import.json and a Markdown table on stdout.
import { createWriteStream, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { commandLine, wholeNumber } from './cli.ts';
import { load } from './load.ts';
import { realisticPhoto } from './realistic-photo.ts';
import { IMPORT_NODE_FLAGS, SERVER_ENV, serverProcess } from './server-flags.mjs';
import { limiter, storePhoto } from '../src/features/media/media.server.ts';
import { escapeHtml } from '../src/lib/html.ts';
import { buildSkeleton, makeProductGenerator } from '../src/lib/seed/generate.ts';

const cli = commandLine('npm run bench -- --import [--offers N] [--photos N] [--rate N] [--keep]', {
  options: {
    offers: { type: 'string', default: '100000' },
    photos: { type: 'string', default: '24' },
    keep: { type: 'boolean', default: false },
    // Shoppers' requests per second during step 5; 0: as fast as 8 connections go (the machine saturated).
    rate: { type: 'string', default: '0' },
  },
});
const values = cli.values;
const target = wholeNumber(cli, '--offers', values.offers, { min: 1 });
const photoCount = wholeNumber(cli, '--photos', values.photos, { min: 0 });
wholeNumber(cli, '--rate', values.rate, { min: 0 });
const work = mkdtempSync(join(tmpdir(), 'bench-import-'));

/** Writes the feed; `vary` changes every tenth product's price and every tenth size's stock. */
async function writeFeed(path: string, vary: boolean): Promise<number> {
  const skeleton = buildSkeleton();
  const generate = makeProductGenerator(20261125, skeleton);
  const out = createWriteStream(path);
  const write = (text: string) => (out.write(text) ? Promise.resolve() : new Promise<void>((r) => out.once('drain', () => r())));
  await write(
    `<?xml version="1.0" encoding="UTF-8"?>\n<yml_catalog date="2026-11-25T12:00:00+03:00">\n<shop>\n<name>Bench</name>\n<company>Bench</company>\n<url>https://bench.example/</url>\n`,
  );
  await write(`<currencies><currency id="RUR" rate="1"/></currencies>\n<categories>\n`);
  for (const c of skeleton.categories)
    await write(`<category id="${c.id}"${c.parentId === null ? '' : ` parentId="${c.parentId}"`}>${escapeHtml(c.name)}</category>\n`);
  await write(`</categories>\n<offers>\n`);
  const brands = new Map(skeleton.brands.map((b) => [b.id, b.name]));
  const colors = new Map(skeleton.colors.map((c) => [c.id, c.name]));
  let offers = 0;
  for (let id = 1; offers < target; id++) {
    const p = generate(id);
    const price = vary && id % 10 === 0 ? p.price + 10_000 : p.price;
    const common =
      `<price>${price / 100}</price>${p.priceOld ? `<oldprice>${p.priceOld / 100}</oldprice>` : ''}<currencyId>RUR</currencyId><categoryId>${p.categoryId}</categoryId>` +
      p.images.map((i) => `<picture>https://cdn.bench.example${i.urlTemplate.replace('{w}', '720')}</picture>`).join('') +
      `<vendor>${escapeHtml(brands.get(p.brandId) ?? '')}</vendor><name>${escapeHtml(p.name)}</name>` +
      `<description><![CDATA[<p>${escapeHtml(p.description)}</p><ul>${p.attributes.map((a) => `<li>${escapeHtml(a.name)}: ${escapeHtml(a.value)}</li>`).join('')}</ul>]]></description>` +
      `<vendorCode>A${id}</vendorCode><sales_notes>Оплата картой и СБП</sales_notes>` +
      `<param name="Цвет">${escapeHtml(colors.get(p.colorId) ?? '')}</param>` +
      p.attributes.map((a) => `<param name="${escapeHtml(a.name)}">${escapeHtml(a.value)}</param>`).join('');
    for (const v of p.variants) {
      if (offers >= target) break;
      offers++;
      const stock = vary && offers % 10 === 0 ? v.stock + 1 : v.stock;
      await write(
        `<offer id="${id}-${v.sort}" group_id="${id}" available="${stock > 0}">${common}<param name="Размер">${escapeHtml(v.label)}</param><count>${stock}</count></offer>\n`,
      );
    }
  }
  await write(`</offers>\n</shop>\n</yml_catalog>\n`);
  await new Promise<void>((r) => out.end(r));
  return offers;
}

interface Run {
  seconds: number;
  peakMb: number;
  summary: Record<string, number>;
}

/** `npm run import` in a child process, which leaves this one free (autocannon keeps measuring meanwhile). */
function importRun(file: string, dataDir: string, args: string[] = [], databaseUrl = ''): Promise<Run> {
  const started = Date.now();
  // Started as `npm run import` starts it: with the server's memory settings.
  const child = spawn(
    process.execPath,
    [...IMPORT_NODE_FLAGS, 'scripts/import.ts', file, '--json', '--skip-photos', '--report', join(work, `report-${started}.csv`), ...args],
    {
      env: { ...process.env, ...SERVER_ENV, DATA_DIR: dataDir, DATABASE_URL: databaseUrl, NODE_ENV: 'production' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  let err = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (err += c.toString()));
  return new Promise((resolve, reject) =>
    child.on('close', (code) => {
      if (code !== 0 && code !== 1) return reject(new Error(`import failed (${code}): ${err}`));
      resolve({
        seconds: (Date.now() - started) / 1000,
        peakMb: Number(/Peak memory (\d+) MB/.exec(out)?.[1] ?? NaN),
        summary: JSON.parse(out.trim().split('\n').at(-1) as string) as Record<string, number>,
      });
    }),
  );
}

/** The shoppers' latency: 8 connections for `seconds`, flat out or at --rate requests a second. */
const p95 = (url: string, paths: string[], seconds: number) =>
  load(url, paths, { seconds, ...(Number(values.rate) > 0 ? { overallRate: Number(values.rate) } : {}) });

/** The shop on PostgreSQL while a feed is imported into its catalogue (see 5. above). */
async function duringImport(databaseUrl: string, feedPath: string, variedPath: string) {
  const { default: pg } = await import('pg');
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  await admin.query('DROP SCHEMA IF EXISTS public CASCADE; DROP SCHEMA IF EXISTS drizzle CASCADE; CREATE SCHEMA public');
  await admin.end();
  const dataDir = join(work, 'pg-data');
  const full = await importRun(feedPath, dataDir, [], databaseUrl);
  const port = 4700 + Math.floor(Math.random() * 200);
  const started = serverProcess({
    DATABASE_URL: databaseUrl,
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    SEED_PRODUCTS: '0',
    NODE_ENV: 'production',
    SITE_URL: `http://127.0.0.1:${port}`,
  });
  const server = spawn(started.command, started.args, { env: started.env, stdio: 'ignore', detached: true });
  const base = `http://127.0.0.1:${port}`;
  try {
    for (let i = 0; ; i++) {
      try {
        if ((await fetch(`${base}/api/health`)).ok) break;
      } catch {
        // not yet
      }
      if (i > 600) throw new Error('the shop did not start');
      await new Promise((r) => setTimeout(r, 250));
    }
    const db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
    const products = (await db.query("SELECT id, slug, price FROM products WHERE external_id LIKE 'yml:g:%0' ORDER BY id LIMIT 40")).rows as {
      id: number;
      slug: string;
      price: number;
    }[];
    const categories = (await db.query('SELECT id, slug FROM categories WHERE level = 2 ORDER BY id LIMIT 5')).rows as { id: number; slug: string }[];
    const paths = ['/', ...categories.map((c) => `/c/${c.id}/${c.slug}`), ...products.map((p) => `/p/${p.id}/${p.slug}`)];
    await p95(base, paths, 5); // warm-up
    const quiet = await p95(base, paths, 15);
    // The varied feed changes every tenth product's price (ids ending in 0): a full import rewrites them.
    const importing = importRun(variedPath, dataDir, ['--partial'], databaseUrl);
    const during = await p95(base, paths, 15);
    const run = await importing;
    const done = Date.now();
    const watched = products[0] as { id: number; slug: string; price: number };
    const now = (await db.query('SELECT price FROM products WHERE id = $1', [watched.id])).rows[0] as { price: number };
    let followedMs = NaN;
    for (let i = 0; i < 240; i++) {
      const html = await (await fetch(`${base}/p/${watched.id}/${watched.slug}`)).text();
      if (html.includes((now.price / 100).toLocaleString('ru-RU').replace(/\u00a0/g, ' ')) || html.includes(String(now.price / 100))) {
        followedMs = Date.now() - done;
        break;
      }
      await new Promise((r) => setTimeout(r, 250));
    }
    await db.end();
    return { full, quiet, during, import: run, priceBefore: watched.price, priceAfter: now.price, followedMs };
  } finally {
    try {
      if (server.pid) process.kill(-server.pid, 'SIGTERM');
    } catch {
      // gone
    }
  }
}

const results: Record<string, unknown> = {};
try {
  const feedPath = join(work, 'feed.yml');
  const variedPath = join(work, 'feed-prices.yml');
  const offers = await writeFeed(feedPath, false);
  await writeFeed(variedPath, true);
  const bytes = statSync(feedPath).size;
  console.log(`Feed: ${offers} offers, ${(bytes / 1024 / 1024).toFixed(0)} MB`);
  const dataDir = join(work, 'data');

  const full = await importRun(feedPath, dataDir);
  console.log('full', full);
  const again = await importRun(feedPath, dataDir);
  console.log('again', again);
  const prices = await importRun(variedPath, dataDir, ['--prices-stock']);
  console.log('prices-stock', prices);
  results['import'] = { offers, bytes, full, again, prices };

  if (photoCount > 0) {
    const photos = await Promise.all(Array.from({ length: photoCount }, (_, i) => realisticPhoto(i + 1)));
    const sizes = photos.map((p) => p.length);
    const media = join(work, 'media');
    mkdirSync(media, { recursive: true });
    const limit = limiter(8);
    const started = Date.now();
    await Promise.all(photos.map((p) => limit(() => storePhoto(p, media))));
    const seconds = (Date.now() - started) / 1000;
    const photoResult = {
      count: photoCount,
      minKb: Math.round(Math.min(...sizes) / 1024),
      maxKb: Math.round(Math.max(...sizes) / 1024),
      seconds,
      perSecond: photoCount / seconds,
    };
    console.log('photos', photoResult);
    results['photos'] = photoResult;
    writeFileSync(join(work, 'sample-photo.jpg'), photos[0] as Buffer);
  }

  const pg = process.env['BENCH_DATABASE_URL'];
  if (pg) results['duringImport'] = await duringImport(pg, feedPath, variedPath);

  mkdirSync('bench-results', { recursive: true });
  writeFileSync('bench-results/import.json', JSON.stringify(results, null, 2));
  const row = (name: string, r: Run) =>
    `| ${name} | ${r.seconds.toFixed(1)} s | ${Math.round(offers / r.seconds).toLocaleString('en')} offers/s | ${r.peakMb} MB | ${JSON.stringify(r.summary)} |`;
  console.log(
    `\n| run (${offers.toLocaleString('en')} offers, ${(bytes / 1024 / 1024).toFixed(0)} MB) | time | rate | peak RSS | summary |\n|---|---|---|---|---|`,
  );
  console.log(row('full import into an empty shop', full));
  console.log(row('the same file again', again));
  console.log(row('--prices-stock, a tenth changed', prices));
  const during = results['duringImport'] as { quiet: Record<string, number>; during: Record<string, number>; followedMs: number } | undefined;
  if (during) {
    const load = Number(values.rate) > 0 ? `${values.rate} requests/s` : '8 connections flat out';
    const cells = (l: Record<string, number>) => `${l['p50']} | ${l['p95']} | ${l['p97_5']} | ${l['p99']} | ${l['requests']} | ${l['errors']}`;
    console.log(`\nShoppers on PostgreSQL (${load}), ms:\n| | p50 | p95 | p97.5 | p99 | requests | errors |\n|---|---|---|---|---|---|---|`);
    console.log(`| quiet | ${cells(during.quiet)} |\n| during the import | ${cells(during.during)} |`);
    console.log(`A changed price showed on its page ${during.followedMs} ms after the import ended.`);
  }
  const ph = results['photos'] as { count: number; minKb: number; maxKb: number; perSecond: number } | undefined;
  if (ph)
    console.log(
      `\nPhotos: ${ph.count} JPEG 2000×2667 (${ph.minKb}–${ph.maxKb} KB) → WebP + AVIF at 360 and 720: ${ph.perSecond.toFixed(2)} photos/s, 8 at once.`,
    );
} finally {
  if (!values.keep) rmSync(work, { recursive: true, force: true });
  else console.log(`Kept: ${work}`);
}
