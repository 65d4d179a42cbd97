// `npm run import -- <file | folder | .zip | URL> [--dry-run] [--partial] [--json] [--report FILE] [--default-stock N] [--skip-photos] [--prices-stock]`:
// a YML feed into the catalogue (docs/import.md). The file is read through once before anything is written;
// offers go in a batch per transaction, with a progress bar (offers/s and the time left); at the end a
// summary, and a CSV report of every offer that cost a line. Exit code 0 when every offer went in, 1 when
// some did not, 2 when the file could not be read. Uses DATABASE_URL or the PGlite folder in DATA_DIR, like
// the server; on PGlite stop the shop first (an embedded database has one owner at a time).
import { spawnSync } from 'node:child_process';
import { SERVER_ENV, SERVER_NODE_FLAGS } from './server-flags.mjs';

// The server's memory settings (scripts/server-flags.mjs: small young generation, large buffers given back
// to the system when freed), which glibc reads only when a process starts: the command runs itself again
// with them once, before it loads anything heavy.
if (!process.env['SHOP_IMPORT_CHILD']) {
  const child = spawnSync(process.execPath, [...SERVER_NODE_FLAGS, ...process.execArgv, process.argv[1] as string, ...process.argv.slice(2)], {
    stdio: 'inherit',
    env: { ...SERVER_ENV, ...process.env, SHOP_IMPORT_CHILD: '1' },
  });
  process.exit(child.status ?? 1);
}

const { writeFileSync } = await import('node:fs');
const { join } = await import('node:path');
const { parseArgs } = await import('node:util');
const { problemsCsv } = await import('../src/features/import/import.ts');
const { ImportInputError, importYml } = await import('../src/features/import/import.server.ts');
const { prepareInput } = await import('../src/features/import/input.server.ts');
const { openDatabase } = await import('../src/lib/db/client.ts');
const { env, loadDotEnv } = await import('../src/lib/env.ts');
const { rateBar } = await import('../src/lib/progress.ts');

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    'dry-run': { type: 'boolean', default: false },
    partial: { type: 'boolean', default: false },
    'prices-stock': { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
    report: { type: 'string', default: 'import-errors.csv' },
    'default-stock': { type: 'string', default: '5' },
    'skip-photos': { type: 'boolean', default: false },
    'batch-size': { type: 'string', default: '500' },
  },
});
loadDotEnv();
const config = env();
const input = positionals[0];
if (!input || positionals.length > 1) {
  console.error(
    'Usage: npm run import -- <file | folder | .zip | URL> [--dry-run] [--partial] [--json] [--report FILE] [--default-stock N] [--skip-photos] [--prices-stock]',
  );
  process.exit(2);
}
const defaultStock = Number(values['default-stock']);
const batchSize = Number(values['batch-size']);
if (!Number.isInteger(defaultStock) || defaultStock < 0 || !Number.isInteger(batchSize) || batchSize < 1) {
  console.error('--default-stock must be a whole number ≥ 0, --batch-size ≥ 1');
  process.exit(2);
}

const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
let code: number;
let cleanup = () => {};
try {
  await database.migrate();
  const started = Date.now();
  // An address is downloaded, an archive unpacked, into a temporary folder removed at the end.
  const prepared = await prepareInput(input, { maxBytes: config.IMPORT_MAX_BYTES, allowPrivate: config.IMPORT_ALLOW_PRIVATE });
  cleanup = prepared.cleanup;
  const result = await importYml(database, prepared.path, {
    dryRun: values['dry-run'],
    partial: values.partial,
    pricesStock: values['prices-stock'],
    defaultStock,
    batchSize,
    maxBytes: config.IMPORT_MAX_BYTES,
    ...(values['skip-photos'] || values['prices-stock'] ? {} : { photos: { dir: join(config.DATA_DIR, 'media'), allowPrivate: config.IMPORT_ALLOW_PRIVATE } }),
    onProgress: rateBar(values['dry-run'] ? 'dry run' : 'import', 'offers'),
  });
  const { summary, problems } = result;
  const seconds = (Date.now() - started) / 1000;
  console.log(
    `${values['dry-run'] ? 'Would be (nothing written)' : 'Done'} in ${seconds.toFixed(1)} s: ${result.offers} offers — new ${summary.new}, changed ${summary.changed}, ` +
      `unchanged ${summary.unchanged}, hidden ${summary.hidden} products, images ${summary.images}, errors ${summary.errors}` +
      (problems.length > summary.errors ? `, warnings ${problems.length - summary.errors}` : '') +
      `. Peak memory ${Math.round(process.resourceUsage().maxRSS / 1024)} MB.`,
  );
  if (problems.length > 0) {
    writeFileSync(values.report, problemsCsv(problems));
    console.log(`Every offer that cost a line: ${values.report}`);
  }
  if (values.json) console.log(JSON.stringify(summary));
  code = summary.errors > 0 ? 1 : 0;
} catch (error) {
  if (!(error instanceof ImportInputError)) throw error;
  console.error(`The file could not be imported: ${error.message}. The catalogue is as it was.`);
  if (values.json) console.log(JSON.stringify({ error: error.message }));
  code = 2;
} finally {
  cleanup();
  await database.close();
}
process.exit(code);
