// The server's one database handle, opened and prepared on first use and shared by every request,
// closed last when the process stops (src/lib/runtime.ts).
import { env } from '../env.ts';
import { logger } from '../log.ts';
import { secureTotpSecrets, TotpKeyError } from '../totp-secrets.ts';
import { readAtScrape } from '../metrics.ts';
import { beforeExit, STOP_ORDER } from '../runtime.ts';
import { openDatabase, type Database, type Db } from './client.ts';
import { prepareDatabase } from './prepare.ts';

let ready: Promise<Database> | undefined;

export function getDatabase(): Promise<Database> {
  ready ??= (async () => {
    const config = env();
    const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
    try {
      await prepareDatabase(database, { migrate: config.AUTO_MIGRATE, seedProducts: config.SEED_PRODUCTS, seed: config.SEED });
      await secureTotpSecrets(
        database,
        (line) => logger.info(line),
        (line) => logger.warn(line),
      );
    } catch (error) {
      // The next try opens it again: an embedded database must never be open twice in one process.
      await database.close().catch(() => undefined);
      // Keys that do not open the console's secrets are the configuration's fault, which no retry mends:
      // the start is refused in one line that names the variable (docs/decisions/022).
      if (error instanceof TotpKeyError) refuseStart(error.message);
      throw error;
    }
    return database;
  })().catch((error: unknown) => {
    // Let the next request try again instead of caching the failure forever.
    ready = undefined;
    throw error;
  });
  return ready;
}

function refuseStart(message: string): never {
  console.error(`The shop cannot start: ${message}`);
  process.exit(1);
}

export async function getDb(): Promise<Db> {
  return (await getDatabase()).db;
}

beforeExit('database', STOP_ORDER.database, async () => {
  const open = ready;
  if (!open) return;
  const database = await open.catch(() => undefined);
  await database?.close();
});

readAtScrape('gauge', 'shop_db_connections', "PostgreSQL's pool: connections by state (in use, idle) and requests waiting for one", ['state'], async () => {
  const load = ready ? (await ready).load() : undefined;
  if (load?.kind !== 'pool') return [];
  return [
    { labels: { state: 'in_use' }, value: load.total - load.idle },
    { labels: { state: 'idle' }, value: load.idle },
    { labels: { state: 'waiting' }, value: load.waiting },
  ];
});
readAtScrape('gauge', 'shop_db_queue', 'The embedded database: calls waiting or running (it answers one at a time)', [], async () => {
  const load = ready ? (await ready).load() : undefined;
  return load?.kind === 'queue' ? [{ value: load.pending }] : [];
});
