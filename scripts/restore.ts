// `npm run restore -- FILE [--force]`: puts a backup of `npm run backup` back — the embedded database
// into DATA_DIR, or the PostgreSQL dump into DATABASE_URL's database, and the data folder's files
// (docs/operations.md "Backups"). Refuses to replace a database that is there unless --force (the
// embedded one is then moved aside, not deleted), and never touches one a running shop has open.
// Exit code 0 when restored; 2 when refused (the reason on stderr).
import { env, loadDotEnv } from '../src/lib/env.ts';
import { runningShop } from '../src/lib/running-shop.ts';
import { commandLine } from './cli.ts';

const cli = commandLine('npm run restore -- FILE [--force]', { allowPositionals: true, options: { force: { type: 'boolean', default: false } } });
const file = cli.positionals[0] ?? cli.fail('the backup file is missing');
if (cli.positionals.length > 1) cli.fail(`one file, not ${cli.positionals.length}`);
// Loaded once the arguments are known: a wrong one is answered at once, not after the database driver (scripts/cli.ts).
const { BackupRefused, restoreBackup } = await import('../src/lib/backup.ts');
loadDotEnv();
const config = env();
try {
  await restoreBackup({ config, file, force: cli.values.force, runningShopPid: runningShop()?.pid, log: (line) => console.log(line) });
} catch (error) {
  if (!(error instanceof BackupRefused)) throw error;
  console.error(`Restore refused: ${error.message}`);
  process.exit(2);
}
