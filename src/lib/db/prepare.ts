// What every start does before serving: apply migrations, then seed an empty catalogue once.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { progressBar } from '../progress.ts';
import { readSeedState, seedCatalogue } from '../seed/seed.ts';
import { defaultMigrationsDir, selectRows, type Database } from './client.ts';
import { products } from './schema.ts';

export interface PrepareOptions {
  migrate: boolean;
  seedProducts: number;
  seed: number;
  log?: (message: string) => void;
}

export async function prepareDatabase(database: Database, options: PrepareOptions): Promise<void> {
  const log = options.log ?? ((m: string) => console.log(m));
  // Instances starting together take turns, so only one migrates and seeds (DESIGN §10).
  await database.exclusive(async () => {
    if (options.migrate) await database.migrate();
    // Nothing to seed: the seed's own bookkeeping is not even asked (its table may not exist yet).
    if (options.seedProducts === 0) return;
    const state = await readSeedState(database);
    if (state?.status === 'done') return;
    if (!state) {
      // A catalogue loaded some other way (an import) is never overwritten by the seed.
      const [row] = await selectRows<{ n: number }>(database.db, sql`SELECT count(*)::int AS n FROM ${products}`);
      const existing = row?.n ?? 0;
      if (existing > 0) return;
    } else {
      log('A previous seed was interrupted; seeding again.');
    }
    const started = Date.now();
    log(`Seeding the catalogue with ${options.seedProducts} products (seed ${options.seed})…`);
    await seedCatalogue(database, {
      products: options.seedProducts,
      seed: options.seed,
      onProgress: progressBar('products'),
    });
    log(`Catalogue seeded in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
  });
}

/**
 * Whether every migration of the migrations folder is applied (drizzle's own record keeps each one's
 * time from the journal): /api/ready says no while a deploy that runs migrations by hand has not yet.
 */
export async function migrationsApplied(database: Database, migrationsDir = defaultMigrationsDir()): Promise<boolean> {
  const journal = JSON.parse(readFileSync(join(migrationsDir, 'meta', '_journal.json'), 'utf8')) as { entries: { when: number }[] };
  const newest = Math.max(...journal.entries.map((e) => e.when));
  const [row] = await selectRows<{ newest: string | null }>(database.db, sql`SELECT max(created_at)::text AS newest FROM drizzle.__drizzle_migrations`).catch(
    () => [{ newest: null }],
  );
  return row?.newest != null && Number(row.newest) >= newest;
}
