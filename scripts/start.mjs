// `npm start`: build if needed, prepare the database (migrations, and the seed on first start, with a
// progress bar), then run the Node server. Runs on the project's Node 24 (the node@24 devDependency).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

process.env.ASTRO_TELEMETRY_DISABLED = '1';
// ./.env first: the build and the server both read it (SITE_URL reaches the canonical links).
const { env, loadDotEnv } = await import('../src/lib/env.ts');
loadDotEnv();
const config = env();

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

const entry = 'dist/server/entry.mjs';
const sources = ['src', 'public/icons', 'drizzle', 'astro.config.mjs', 'uno.config.ts', 'package.json'];
const builtAt = existsSync(entry) ? statSync(entry).mtimeMs : 0;
const changedAt = Math.max(...sources.filter(existsSync).map((p) => (statSync(p).isDirectory() ? newestMtime(p) : statSync(p).mtimeMs)));
if (builtAt < changedAt || process.argv.includes('--build')) {
  console.log('Building the shop…');
  const build = spawnSync('npm', ['run', 'build'], { stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

// Migrate and seed before the server opens the port, so the first visitor never waits for it.
const { openDatabase } = await import('../src/lib/db/client.ts');
const { prepareDatabase } = await import('../src/lib/db/prepare.ts');
const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
await prepareDatabase(database, { migrate: config.AUTO_MIGRATE, seedProducts: config.SEED_PRODUCTS, seed: config.SEED });
await database.close();

console.log(`Starting the shop on http://${config.HOST}:${config.PORT} (database: ${config.DATABASE_URL ? 'PostgreSQL' : `PGlite in ${config.DATA_DIR}`})`);
// The same process as `npm run serve` (its V8 flags and environment).
await import('./serve.mjs');
