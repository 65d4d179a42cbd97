// Starts the production build (`node scripts/server.mjs`, Astro's handler behind the page-cache front) on a free loopback port against a fresh
// database, and stops the whole process group afterwards (DESIGN §8: never through npm start).
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:net';
import { openDatabase, type Database } from '../../src/lib/db/client.ts';
import { env } from '../../src/lib/env.ts';
import type { FreshDatabase } from './fresh-database.ts';
import { seededDatabase } from './seeded-database.ts';
import { serverProcess } from '../../scripts/server-flags.mjs';

/**
 * The key the test shops seal the console's TOTP secrets with (OPS_TOTP_KEY, docs/decisions/022): given
 * explicitly, so no test leaves a development key file behind; one per test process, so a shop started
 * again on the same data opens what it sealed.
 */
export const TEST_TOTP_KEY = randomBytes(32).toString('base64');

/** Where the e2e web server tells the tests about itself (its data folder holds the mail outbox). */
export const e2eInfoFile = (port: number) => join(tmpdir(), `brandshop-e2e-${port}.json`);

export interface TestServer {
  baseUrl: string;
  database: FreshDatabase;
  stop(): Promise<void>;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

async function waitForHealth(baseUrl: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited early with code ${child.exitCode}`);
    try {
      const res = await fetch(`${baseUrl}/api/health`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`server at ${baseUrl} did not become healthy in ${timeoutMs} ms`);
}

export interface TestServerOptions<T> {
  seedProducts?: number;
  env?: Record<string, string>;
  label?: string;
  port?: number;
  /** Another server's database (PostgreSQL): a second process of the same shop, which leaves the database to its owner. */
  database?: FreshDatabase;
  /** A shop that serves the whole run (the shared and e2e shops): V8 compiles PGlite's hot code fully. */
  wholeRun?: boolean;
  /** Writes the test's own data (factories) into the fresh, seeded database before the server opens it. */
  prepare?: (database: Database, fresh: FreshDatabase) => Promise<T>;
}

/**
 * A test file's own shop lives for a few requests, and V8's optimising compiler was a third of its start:
 * it recompiles PGlite's WebAssembly on background threads as the database opens. Liftoff alone (as `npm run
 * import` runs): a start 5.7 → 3.8 CPU-s, nine files with their own shops 0.80× the CPU and 0.82× the time.
 * The shops that serve a whole run keep the optimised code: the fuzz file took 1.09× as long on Liftoff.
 */
export const SHORT_LIVED_FLAGS = ['--liftoff-only'];

export async function startTestServer<T = undefined>(options: TestServerOptions<T> = {}): Promise<TestServer & { prepared: T | undefined }> {
  if (!existsSync('dist/server/entry.mjs')) throw new Error('No build found: run `npm run build` first (npm test does it for you).');
  const seedProducts = options.seedProducts ?? 400;
  // Migrated and seeded already (a copy of a template made once): the server's own start finds nothing to do.
  const owned = !options.database;
  const database = options.database ?? (await seededDatabase(options.label ?? 'it', { seedProducts, seed: env().SEED }));
  let prepared: T | undefined;
  if (options.prepare) {
    // The test's data, written before the server opens the database (PGlite is one process's database).
    const db = await openDatabase({ databaseUrl: database.databaseUrl, dataDir: database.dataDir });
    try {
      prepared = await options.prepare(db, database);
    } finally {
      await db.close();
    }
  }
  const port = options.port ?? (await freePort());
  const baseUrl = `http://127.0.0.1:${port}`;
  const started = serverProcess({
    ...database.env,
    ...(database.databaseUrl ? {} : { DATABASE_URL: '' }),
    HOST: '127.0.0.1',
    PORT: String(port),
    NODE_ENV: 'test',
    SITE_URL: baseUrl,
    SEED_PRODUCTS: String(seedProducts),
    OPS_TOTP_KEY: TEST_TOTP_KEY,
    // Errors and warnings only: the request log would drown the test output.
    LOG_LEVEL: 'warn',
    ...options.env,
  });
  // Only under a test runner: the measuring scripts (Lighthouse, taps, benchmarks) start this shop as a user's.
  const underTest = process.env['VITEST'] !== undefined || process.env['TEST_WORKER_INDEX'] !== undefined;
  if (underTest && !options.wholeRun) started.args.unshift(...SHORT_LIVED_FLAGS);
  const child = spawn(started.command, started.args, { detached: true, stdio: ['ignore', 'inherit', 'inherit'], env: started.env });
  try {
    await waitForHealth(baseUrl, child, 90_000);
  } catch (error) {
    try {
      if (child.pid) process.kill(-child.pid, 'SIGKILL');
    } catch {
      // already gone
    }
    if (owned) await database.drop();
    throw error;
  }
  return {
    baseUrl,
    database,
    prepared,
    async stop() {
      const running = () => child.exitCode === null && child.signalCode === null;
      const killGroup = (signal: NodeJS.Signals) => {
        try {
          if (child.pid) process.kill(-child.pid, signal);
        } catch {
          // already gone
        }
      };
      if (running()) {
        const exited = new Promise((r) => child.once('exit', r));
        killGroup('SIGTERM');
        await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
        if (running()) killGroup('SIGKILL');
      }
      if (owned) await database.drop();
    },
  };
}
