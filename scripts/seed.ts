// `npm run seed -- --products 100000 [--seed 42] [--force]`: replaces the catalogue with a freshly
// generated one (for benchmarks; carts, wishlists and orders that point at products are cleared), with
// a progress bar. It refuses in production, and refuses a database that already has customers or orders
// unless told --force: replacing a real shop's catalogue loses its history.
// Uses DATABASE_URL or the PGlite folder in DATA_DIR, like the server. Stop the server first on PGlite:
// an embedded database has one owner at a time.
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { openDatabase, selectRows } from '../src/lib/db/client.ts';
import { customers, orders } from '../src/lib/db/schema.ts';
import { env, loadDotEnv } from '../src/lib/env.ts';
import { progressBar } from '../src/lib/progress.ts';
import { seedCatalogue } from '../src/lib/seed/seed.ts';

const { values } = parseArgs({
  options: {
    products: { type: 'string', default: '2000' },
    seed: { type: 'string' },
    'batch-size': { type: 'string', default: '1000' },
    force: { type: 'boolean', default: false },
  },
});
loadDotEnv();
const products = Number(values.products);
const config = env();
const seed = values.seed === undefined ? config.SEED : Number(values.seed);
if (!Number.isInteger(products) || products < 1 || products > 1_000_000) {
  console.error('--products must be a whole number from 1 to 1000000');
  process.exit(2);
}
if (!Number.isInteger(seed)) {
  console.error('--seed must be a whole number');
  process.exit(2);
}

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
await seedCatalogue(database, { products, seed, batchSize: Number(values['batch-size']), onProgress: progressBar('products') });
const [size] = (
  await database.rawTransaction((q) =>
    q(`SELECT pg_size_pretty(pg_database_size(current_database())) AS size, (SELECT count(*)::int FROM product_variants) AS variants`),
  )
).rows;
await database.close();
console.log(`Done in ${((Date.now() - started) / 1000).toFixed(1)} s: ${products} products, ${size?.['variants']} variants; database size ${size?.['size']}.`);
