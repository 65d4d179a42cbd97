// `npm run import -- <file | folder | .zip | URL> [--dry-run] [--partial] [--json] [--report FILE] [--default-stock N] [--skip-photos] [--prices-stock]`:
// a YML feed into the catalogue (docs/import.md). The file is read through once before anything is written;
// offers go in a batch per transaction, with a progress bar (offers/s and the time left); at the end a
// summary, and a CSV report of every offer that cost a line. Exit code 0 when every offer went in, 1 when
// some did not, 2 when the file could not be read. The report goes to --report FILE, else to
// DATA_DIR/import-reports/import-<time>.csv, never into the folder the command was started from (one was
// committed from there once). Uses DATABASE_URL or the PGlite folder in DATA_DIR, like
// the server. An embedded database has one owner at a time: when a shop owns it (DATA_DIR/shop.json names a
// live process), the run is handed to that shop through its operator call and followed from here.
import { spawnSync } from 'node:child_process';
import { commandLine, wholeNumber } from './cli.ts';
import { IMPORT_NODE_FLAGS, SERVER_ENV } from './server-flags.mjs';

// Read first, so that wrong arguments are refused before the command starts itself again or loads anything.
const cli = commandLine(
  'npm run import -- FILE|FOLDER|ZIP|URL [--dry-run] [--partial] [--prices-stock] [--json] [--report FILE] [--default-stock N] [--skip-photos] [--batch-size N]',
  {
    allowPositionals: true,
    options: {
      'dry-run': { type: 'boolean', default: false },
      partial: { type: 'boolean', default: false },
      'prices-stock': { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
      report: { type: 'string' },
      'default-stock': { type: 'string', default: '5' },
      'skip-photos': { type: 'boolean', default: false },
      'batch-size': { type: 'string', default: '500' },
    },
  },
);
const values = cli.values;
const input = cli.positionals[0] ?? cli.fail('the feed to import is missing');
if (cli.positionals.length > 1) cli.fail(`one feed at a time, not ${cli.positionals.length}`);
const defaultStock = wholeNumber(cli, '--default-stock', values['default-stock'], { min: 0 });
const batchSize = wholeNumber(cli, '--batch-size', values['batch-size'], { min: 1 });

// The server's memory settings (scripts/server-flags.mjs: small young generation, large buffers given back
// to the system when freed), which glibc reads only when a process starts. `npm run import` starts Node
// with them (package.json); started any other way, the command runs itself again with them once, before
// it loads anything heavy (a second start costs about a second).
const startedWith = (flags: readonly string[], env: Record<string, string>) =>
  flags.every((flag) => process.execArgv.includes(flag)) && Object.entries(env).every(([name, value]) => process.env[name] === value);
if (!process.env['SHOP_IMPORT_CHILD'] && !startedWith(IMPORT_NODE_FLAGS, SERVER_ENV)) {
  const child = spawnSync(process.execPath, [...IMPORT_NODE_FLAGS, ...process.execArgv, process.argv[1] as string, ...process.argv.slice(2)], {
    stdio: 'inherit',
    env: { ...SERVER_ENV, ...process.env, SHOP_IMPORT_CHILD: '1' },
  });
  process.exit(child.status ?? 1);
}

// Shoppers first: the shop shares the machine's cores with the import, so the import yields them
// (a nice value of 10; docs/performance.md "The shop during an import").
try {
  (await import('node:os')).setPriority(10);
} catch {
  // Not allowed here: the import runs at the usual priority.
}
const { mkdirSync, writeFileSync } = await import('node:fs');
const { dirname, join, resolve } = await import('node:path');
const { problemsCsv } = await import('../src/features/import/import.ts');
type ImportSummary = import('../src/features/import/import.ts').ImportSummary;
type RunView = import('../src/features/import/import.runs.server.ts').RunView;
const { ImportInputError, importOptions, importYml } = await import('../src/features/import/import.server.ts');
const { prepareInput } = await import('../src/features/import/input.server.ts');
const { embeddedDatabaseCreated, openDatabase } = await import('../src/lib/db/client.ts');
const { env, loadDotEnv } = await import('../src/lib/env.ts');
const { operatorTokenFile } = await import('../src/lib/operator-token.ts');
const { runningShop } = await import('../src/lib/running-shop.ts');
const { rateBar } = await import('../src/lib/progress.ts');

loadDotEnv();
const config = env();

/** The shop that owns the embedded database, when one is running: its address and operator key. */
function shopToHandTo(): { url: string; token: string } | undefined {
  const owner = runningShop();
  if (!owner) return undefined;
  // The shop makes its key before it listens: a running shop without one has had it taken away.
  if (!owner.token) {
    console.error(`The shop at ${owner.url} owns the database, and there is no OPERATOR_TOKEN nor ${operatorTokenFile()} to hand it the import.`);
    process.exit(2);
  }
  return { url: owner.url, token: owner.token };
}

interface Outcome {
  summary: ImportSummary;
  offers: number;
  problems: number;
  report: string;
}

/** Where the CSV report goes: --report as given, else a file of its own per run under DATA_DIR. */
function reportPath(started: number): string {
  if (values.report) return resolve(values.report);
  const stamp = new Date(started).toISOString().replace(/[:.]/g, '-');
  return resolve(config.DATA_DIR, 'import-reports', `import-${stamp}.csv`);
}

/** What a finished run prints, writes and exits with. */
function finish(outcome: Outcome, started: number, where: string): number {
  const { summary } = outcome;
  console.log(
    `${values['dry-run'] ? 'Would be (nothing written)' : 'Done'} in ${((Date.now() - started) / 1000).toFixed(1)} s${where}: ${outcome.offers} offers — new ${summary.new}, changed ${summary.changed}, ` +
      `unchanged ${summary.unchanged}, hidden ${summary.hidden} products, images ${summary.images}, errors ${summary.errors}` +
      (outcome.problems > summary.errors ? `, warnings ${outcome.problems - summary.errors}` : '') +
      `. Peak memory ${Math.round(process.resourceUsage().maxRSS / 1024)} MB.`,
  );
  if (outcome.problems > 0) {
    const report = reportPath(started);
    mkdirSync(dirname(report), { recursive: true });
    writeFileSync(report, outcome.report);
    console.log(`Every offer that cost a line: ${report}`);
  }
  if (values.json) console.log(JSON.stringify(summary));
  return summary.errors > 0 ? 1 : 0;
}

function unreadable(message: string): number {
  console.error(`The file could not be imported: ${message}. The catalogue is as it was.`);
  if (values.json) console.log(JSON.stringify({ error: message }));
  return 2;
}

const options = {
  dry_run: values['dry-run'],
  partial: values.partial,
  prices_stock: values['prices-stock'],
  default_stock: defaultStock,
  skip_photos: values['skip-photos'],
  batch_size: batchSize,
};

/** The run done by the shop that owns the database, its progress drawn here. */
async function handOver(shop: { url: string; token: string }, path: string): Promise<number> {
  const started = Date.now();
  const headers = { 'content-type': 'application/json', 'x-operator-token': shop.token };
  const api = `${shop.url}/api/v1/ecommerce-core/ops/imports`;
  console.log(`The shop at ${shop.url} owns the database (${join(config.DATA_DIR, 'shop.json')}): it does the import.`);
  const answer = await fetch(api, { method: 'POST', headers, body: JSON.stringify({ path: resolve(path), options }) });
  const body = (await answer.json()) as { success: boolean; data?: { id: number }; message?: string };
  if (!answer.ok || !body.data) {
    console.error(`The shop refused the import (${answer.status}): ${body.message ?? ''}`);
    return 2;
  }
  const bar = rateBar(values['dry-run'] ? 'dry run' : 'import', 'offers');
  for (;;) {
    await new Promise((done) => setTimeout(done, 300));
    const res = await fetch(`${api}/${body.data.id}?report=1`, { headers });
    const run = ((await res.json()) as { data?: RunView & { report: string | null } }).data;
    if (!run) throw new Error(`the shop answered ${res.status} about run ${body.data.id}`);
    if (run.status === 'running') {
      if (run.total > 0) bar(run.done, run.total);
      continue;
    }
    if (run.status === 'failed' || !run.summary) return unreadable(run.message);
    bar(run.total, run.total);
    return finish({ summary: run.summary, offers: run.offers, problems: run.problems, report: run.report ?? '' }, started, ' by the shop');
  }
}

let code: number;
let cleanup = () => {};
const shop = shopToHandTo();
if (shop) {
  try {
    const prepared = await prepareInput(input, { maxBytes: config.IMPORT_MAX_BYTES, allowPrivate: config.IMPORT_ALLOW_PRIVATE });
    cleanup = prepared.cleanup;
    code = await handOver(shop, prepared.path);
  } catch (error) {
    if (!(error instanceof ImportInputError)) throw error;
    code = unreadable(error.message);
  } finally {
    cleanup();
  }
  process.exit(code);
}

// An empty data folder: PGlite's initdb holds ~670 MB for two seconds and V8 keeps much of it afterwards,
// so the database is created by this command started once more, which exits before the import begins
// (docs/import.md "Memory").
if (process.env['SHOP_IMPORT_CREATE_DATABASE']) {
  const created = await openDatabase({ databaseUrl: '', dataDir: config.DATA_DIR });
  await created.migrate();
  await created.close();
  process.exit(0);
}
if (!config.DATABASE_URL && !embeddedDatabaseCreated(config.DATA_DIR)) {
  const created = spawnSync(process.execPath, [...process.execArgv, ...process.argv.slice(1)], {
    stdio: 'inherit',
    env: { ...process.env, SHOP_IMPORT_CREATE_DATABASE: '1' },
  });
  if (created.status !== 0) process.exit(2);
}

const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
try {
  await database.migrate();
  const started = Date.now();
  // An address is downloaded, an archive unpacked, into a temporary folder removed at the end.
  const prepared = await prepareInput(input, { maxBytes: config.IMPORT_MAX_BYTES, allowPrivate: config.IMPORT_ALLOW_PRIVATE });
  cleanup = prepared.cleanup;
  const result = await importYml(
    database,
    prepared.path,
    importOptions(
      options,
      { maxBytes: config.IMPORT_MAX_BYTES, dataDir: config.DATA_DIR, allowPrivate: config.IMPORT_ALLOW_PRIVATE },
      rateBar(values['dry-run'] ? 'dry run' : 'import', 'offers'),
    ),
  );
  code = finish({ summary: result.summary, offers: result.offers, problems: result.problems.length, report: problemsCsv(result.problems) }, started, '');
} catch (error) {
  if (!(error instanceof ImportInputError)) throw error;
  code = unreadable(error.message);
} finally {
  cleanup();
  await database.close();
}
process.exit(code);
