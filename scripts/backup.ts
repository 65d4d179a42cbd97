// `npm run backup [-- FILE | --out FILE]`: a consistent copy of the shop's database and data folder (photos,
// outbox, feeds, the operator token) in one .tar.gz, taken while the shop serves and takes orders
// (docs/operations.md "Backups"). The embedded database is copied by the shop that has it open (through
// its operator call) or, when none runs, by this command; PostgreSQL by pg_dump of the server's version.
// The file is named as restore names it (a positional argument), or with --out as before.
// Exit code 0 with the file's path on the last line; 2 when refused (the reason on stderr).
import { statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { env, loadDotEnv } from '../src/lib/env.ts';
import { runningShop } from '../src/lib/running-shop.ts';
import { commandLine } from './cli.ts';

const cli = commandLine('npm run backup -- [FILE | --out FILE]', { allowPositionals: true, options: { out: { type: 'string' } } });
if (cli.positionals.length > 1) cli.fail(`one file, not ${cli.positionals.length}`);
const [file] = cli.positionals;
if (file !== undefined && cli.values.out !== undefined) cli.fail('the file once: FILE or --out FILE, not both');
// Loaded once the arguments are known: a wrong one is answered at once, not after the database driver (scripts/cli.ts).
const { BackupRefused, createBackup } = await import('../src/lib/backup.ts');
loadDotEnv();
const config = env();
const stamp = new Date().toISOString().replace(/[:.]/g, '-');
const out = resolve(file ?? cli.values.out ?? join(config.DATA_DIR, 'backups', `brandshop-${stamp}.tar.gz`));
const shop = runningShop();

try {
  const started = performance.now();
  const manifest = await createBackup({
    config,
    out,
    askRunningShop: shop
      ? async (path) => {
          if (!shop.token) throw new BackupRefused('a shop runs on this data folder, and neither OPERATOR_TOKEN nor its operator-token file is here');
          const res = await fetch(new URL('/api/v1/ecommerce-core/ops/backup', shop.url), {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-operator-token': shop.token },
            body: JSON.stringify({ path }),
          });
          if (!res.ok) throw new BackupRefused(`the running shop refused the snapshot (${res.status})`);
        }
      : undefined,
    log: (line) => console.log(line),
  });
  const megabytes = (statSync(out).size / 1024 / 1024).toFixed(1);
  console.log(
    `Backup of the ${manifest.database === 'pglite' ? 'embedded' : 'PostgreSQL'} database and ${resolve(config.DATA_DIR)}: ${megabytes} MB in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  if (config.MEDIA_STORAGE === 's3')
    // The bucket is not in the file: its objects are named by their content and never change, so the
    // bucket's own versioning or replication keeps them, or a copy into DATA_DIR before the backup does.
    console.log(
      `Product photos are in the bucket s3://${config.S3_BUCKET}, not in this file: keep them with the storage's versioning or replication, or run \`npm run media:migrate -- --to local\` before a backup to have them in DATA_DIR/media (docs/operations.md "Backups").`,
    );
  console.log(out);
} catch (error) {
  if (!(error instanceof BackupRefused)) throw error;
  console.error(`Backup refused: ${error.message}`);
  process.exit(2);
}
