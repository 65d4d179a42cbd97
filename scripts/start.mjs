// `npm start`: build if needed, prepare the database (migrations, and the seed on first start, with a
// progress bar), then run the Node server. Runs on the project's Node 24 (the node@24 devDependency).
import { spawnSync } from 'node:child_process';
import { buildIsStale } from './build-state.mjs';
import { commandLine } from './cli.ts';

// --build: build even when the sources look unchanged.
const cli = commandLine('npm start -- [--build]', { options: { build: { type: 'boolean', default: false } } });
process.env.ASTRO_TELEMETRY_DISABLED = '1';
// A stop asked for while the shop is being built or its database prepared takes effect once the step
// at hand is done (a migration is never cut in half), and the command exits 0 without starting the server.
/** @type {string | undefined} */
let stopRequested;
const stopLater = (signal) => {
  if (!stopRequested) console.log(`${signal}: stopping once this step is done…`);
  stopRequested = signal;
};
process.on('SIGINT', stopLater);
process.on('SIGTERM', stopLater);
const stopIfAsked = async (database) => {
  if (!stopRequested) return;
  await database?.close();
  process.exit(0);
};
// ./.env first: the build and the server both read it (SITE_URL reaches the canonical links).
const { env, loadDotEnv } = await import('../src/lib/env.ts');
loadDotEnv();
const config = env();

if (buildIsStale() || cli.values.build) {
  console.log('Building the shop…');
  const build = spawnSync('npm', ['run', 'build'], { stdio: 'inherit' });
  await stopIfAsked();
  if (build.status !== 0) process.exit(build.status ?? 1);
}

// Migrate and seed before the server opens the port, so the first visitor never waits for it.
const { openDatabase } = await import('../src/lib/db/client.ts');
const { prepareDatabase } = await import('../src/lib/db/prepare.ts');
const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
await stopIfAsked(database);
await prepareDatabase(database, { migrate: config.AUTO_MIGRATE, seedProducts: config.SEED_PRODUCTS, seed: config.SEED });
// The console's TOTP secrets sealed, or the start refused before the server is started (docs/decisions/022).
const { secureTotpSecrets, TotpKeyError } = await import('../src/lib/totp-secrets.ts');
try {
  await secureTotpSecrets(database, (line) => console.log(line));
} catch (error) {
  await database.close();
  if (!(error instanceof TotpKeyError)) throw error;
  console.error(`The shop cannot start: ${error.message}`);
  process.exit(1);
}
await database.close();
await stopIfAsked();
process.off('SIGINT', stopLater);
process.off('SIGTERM', stopLater);

console.log(`Starting the shop on http://${config.HOST}:${config.PORT} (database: ${config.DATABASE_URL ? 'PostgreSQL' : `PGlite in ${config.DATA_DIR}`})`);
// The same process as `npm run serve` (its V8 flags and environment).
await import('./serve.mjs');
