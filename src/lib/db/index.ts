// The server's one database handle, opened and prepared on first use and shared by every request.
import { env } from '../env.ts';
import { openDatabase, type Database, type Db } from './client.ts';
import { prepareDatabase } from './prepare.ts';

let ready: Promise<Database> | undefined;

export function getDatabase(): Promise<Database> {
  ready ??= (async () => {
    const config = env();
    const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
    await prepareDatabase(database, { migrate: config.AUTO_MIGRATE, seedProducts: config.SEED_PRODUCTS, seed: config.SEED });
    return database;
  })().catch((error: unknown) => {
    // Let the next request try again instead of caching the failure forever.
    ready = undefined;
    throw error;
  });
  return ready;
}

export async function getDb(): Promise<Db> {
  return (await getDatabase()).db;
}
