// `npm run seed -- --products 100000 [--seed 42]`: replaces the catalogue with a freshly generated one
// (for benchmarks; carts, wishlists and orders that point at products are cleared), with a progress bar.
// Uses DATABASE_URL or the PGlite folder in DATA_DIR, like the server. Stop the server first on PGlite:
// an embedded database has one owner at a time.
import { parseArgs } from 'node:util';
import { openDatabase } from '../src/lib/db/client.ts';
import { env, loadDotEnv } from '../src/lib/env.ts';
import { progressBar } from '../src/lib/progress.ts';
import { seedCatalogue } from '../src/lib/seed/seed.ts';

const { values } = parseArgs({
  options: { products: { type: 'string', default: '2000' }, seed: { type: 'string' }, 'batch-size': { type: 'string', default: '1000' } },
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

const started = Date.now();
const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
await database.migrate();
console.log(`Seeding ${products} products (seed ${seed}) into ${database.kind === 'postgres' ? 'PostgreSQL' : `PGlite at ${config.DATA_DIR}`}…`);
await seedCatalogue(database, { products, seed, batchSize: Number(values['batch-size']), onProgress: progressBar('products') });
const [size] = (
  await database.rawTransaction((q) =>
    q(`SELECT pg_size_pretty(pg_database_size(current_database())) AS size, (SELECT count(*)::int FROM product_variants) AS variants`),
  )
).rows;
await database.close();
console.log(`Done in ${((Date.now() - started) / 1000).toFixed(1)} s: ${products} products, ${size?.['variants']} variants; database size ${size?.['size']}.`);
