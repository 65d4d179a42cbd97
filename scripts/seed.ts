// `npm run seed -- [--products 100000] [--seed 42] [--batch-size 1000] [--force]`: replaces the catalogue with a freshly
// generated one (for benchmarks; carts, wishlists and orders that point at products are cleared), with
// a progress bar. It refuses in production, and refuses a database that already has customers or orders
// unless told --force: replacing a real shop's catalogue loses its history.
// Uses DATABASE_URL or the PGlite folder in DATA_DIR, like the server. Stop the server first on PGlite:
// an embedded database has one owner at a time.
import { env, loadDotEnv } from '../src/lib/env.ts';
import { progressBar } from '../src/lib/progress.ts';
import { commandLine, wholeNumber } from './cli.ts';

const cli = commandLine('npm run seed -- [--products N] [--seed N] [--batch-size N] [--force]', {
  options: {
    products: { type: 'string', default: '2000' },
    seed: { type: 'string' },
    'batch-size': { type: 'string', default: '1000' },
    force: { type: 'boolean', default: false },
  },
});
const values = cli.values;
const products = wholeNumber(cli, '--products', values.products, { min: 1, max: 1_000_000 });
const batchSize = wholeNumber(cli, '--batch-size', values['batch-size'], { min: 1 });
const givenSeed = values.seed === undefined ? undefined : wholeNumber(cli, '--seed', values.seed);
// Loaded once the arguments are known: a wrong one is answered at once, not after the database driver (scripts/cli.ts).
const { sql } = await import('drizzle-orm');
const { openDatabase, selectRows } = await import('../src/lib/db/client.ts');
const { customers, orders } = await import('../src/lib/db/schema.ts');
const { seedCatalogue } = await import('../src/lib/seed/seed.ts');
loadDotEnv();
const config = env();
const seed = givenSeed ?? config.SEED;

if (config.NODE_ENV === 'production') {
  console.error('npm run seed replaces the catalogue: it does not run with NODE_ENV=production.');
  process.exit(2);
}

const started = Date.now();
const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
await database.migrate();
const [history] = await selectRows<{ customers: number; orders: number }>(
  database.db,
  sql`SELECT (SELECT count(*)::int FROM ${customers}) AS customers, (SELECT count(*)::int FROM ${orders}) AS orders`,
);
if ((history?.customers || history?.orders) && !values.force) {
  console.error(
    `This database has ${history.customers} customers and ${history.orders} orders; seeding would clear their carts, wishlists and orders. Run with --force to do it anyway.`,
  );
  await database.close();
  process.exit(2);
}
console.log(`Seeding ${products} products (seed ${seed}) into ${database.kind === 'postgres' ? 'PostgreSQL' : `PGlite at ${config.DATA_DIR}`}…`);
await seedCatalogue(database, { products, seed, batchSize, onProgress: progressBar('products') });
const [size] = (
  await database.rawTransaction((q) =>
    q(`SELECT pg_size_pretty(pg_database_size(current_database())) AS size, (SELECT count(*)::int FROM product_variants) AS variants`),
  )
).rows;
await database.close();
console.log(`Done in ${((Date.now() - started) / 1000).toFixed(1)} s: ${products} products, ${size?.['variants']} variants; database size ${size?.['size']}.`);
