// A fresh database already initialised, migrated or seeded, copied from a template made once: a test shop's
// start was 4.2 s on an empty database and 1.7 s on a seeded copy (docs/performance.md, "The suite in 8
// minutes"), and PGlite's initdb alone is 4.5 s. Each template is made from a copy of the one before
// (initialised → migrated → seeded), once per run even when workers ask for it at the same moment.
// The templates are kept between runs under node_modules/.cache, named by everything that decides their
// content — the migrations, the seed's code, PGlite's version, the product count and the seed — so a
// change to any of them makes a new one. On PostgreSQL the template is a database of the server
// (`CREATE DATABASE … TEMPLATE`). Relative imports: the e2e web server loads this file with plain Node.
import { createHash, randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { openDatabase, type Database } from '../../src/lib/db/client.ts';
import { prepareDatabase } from '../../src/lib/db/prepare.ts';
import { createFreshDatabase, type FreshDatabase } from './fresh-database.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const CACHE = join(ROOT, 'node_modules/.cache/brandshop-test-databases');
/** What a seeded database is made of. */
const SOURCES = ['drizzle', 'src/lib/db', 'src/lib/seed', 'src/lib/slug.ts', 'src/lib/format.ts', 'node_modules/@electric-sql/pglite/package.json'];

function filesUnder(path: string): string[] {
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path)
    .sort()
    .flatMap((name) => filesUnder(join(path, name)));
}

let fingerprint: string | undefined;
function sourcesFingerprint(): string {
  if (fingerprint) return fingerprint;
  const hash = createHash('sha256');
  for (const file of SOURCES.flatMap((source) => filesUnder(join(ROOT, source))).filter((f) => !f.endsWith('.test.ts'))) {
    hash.update(file.slice(ROOT.length));
    hash.update(readFileSync(file));
  }
  return (fingerprint = hash.digest('hex').slice(0, 12));
}

export interface SeedOptions {
  seedProducts: number;
  seed: number;
}

/**
 * What a template holds: a PGlite cluster on which initdb has run and nothing else ('initialised': opening
 * an empty folder costs PGlite 4.5 s of initdb, copying one 0.2 s), or the migrations applied and
 * `seedProducts` products seeded (0: migrated only).
 */
type Stage = 'initialised' | SeedOptions;

const templateName = (stage: Stage) =>
  `${sourcesFingerprint()}_${stage === 'initialised' ? 'initialised' : stage.seedProducts === 0 ? 'migrated' : `${stage.seedProducts}_${stage.seed}`}`;
/** The template a stage is made from: each stage starts from a copy of the one before. */
const previous = (stage: Stage): Stage | undefined =>
  stage === 'initialised' ? undefined : stage.seedProducts === 0 ? 'initialised' : { seedProducts: 0, seed: stage.seed };

async function fill(target: { dataDir: string } | { databaseUrl: string }, stage: Stage): Promise<void> {
  const database = await openDatabase('databaseUrl' in target ? { databaseUrl: target.databaseUrl, dataDir: '' } : { dataDir: target.dataDir });
  try {
    if (stage !== 'initialised') await prepareDatabase(database, { migrate: true, seedProducts: stage.seedProducts, seed: stage.seed, log: () => {} });
  } finally {
    await database.close();
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Templates being made by this process: two shops started at once wait for one making, not make two. */
const making = new Map<string, Promise<string>>();

function once(name: string, make: () => Promise<string>): Promise<string> {
  let pending = making.get(name);
  if (!pending) {
    pending = make().finally(() => making.delete(name));
    making.set(name, pending);
  }
  return pending;
}

/**
 * The PGlite template's folder, made if missing. Two processes (test workers) wanting the same one take
 * turns by a lock folder, so the second copies what the first made instead of making it again; a lock
 * left by a process that died is taken over after two minutes.
 */
function pgliteTemplate(stage: Stage): Promise<string> {
  const name = templateName(stage);
  const done = join(CACHE, name);
  const ready = () => existsSync(join(done, 'pglite', 'PG_VERSION'));
  return once(name, async () => {
    mkdirSync(CACHE, { recursive: true });
    const lock = `${done}.lock`;
    for (;;) {
      if (ready()) return done;
      try {
        mkdirSync(lock);
        break;
      } catch {
        if (Date.now() - (statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now()) > 120_000) rmSync(lock, { recursive: true, force: true });
        await sleep(100);
      }
    }
    try {
      if (ready()) return done;
      const dir = mkdtempSync(join(CACHE, 'making-'));
      try {
        const before = previous(stage);
        if (before) cpSync(join(await pgliteTemplate(before), 'pglite'), join(dir, 'pglite'), { recursive: true });
        await fill({ dataDir: dir }, stage);
        renameSync(dir, done);
      } catch (error) {
        rmSync(dir, { recursive: true, force: true });
        // A process that took over a lock it thought abandoned may have made it meanwhile.
        if (!ready()) throw error;
      }
      return done;
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  });
}

type Client = { query(text: string): Promise<{ rows: Record<string, unknown>[] }>; end(): Promise<void> };

async function adminClient(adminUrl: string): Promise<Client> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  return client as unknown as Client;
}

/** Any fixed number: the workers making PostgreSQL templates take turns on it. */
const TEMPLATE_LOCK = 7_274_301;

/**
 * The PostgreSQL template's name, made if missing (under a temporary name, then renamed: never half-seeded).
 * Workers take turns by an advisory lock, so one makes what another then copies.
 */
function postgresTemplate(adminUrl: string, stage: SeedOptions): Promise<string> {
  const name = `shop_template_${templateName(stage)}`;
  return once(name, async () => {
    const before = previous(stage);
    const base = before && before !== 'initialised' ? await postgresTemplate(adminUrl, before) : undefined;
    const admin = await adminClient(adminUrl);
    try {
      await admin.query(`SELECT pg_advisory_lock(${TEMPLATE_LOCK})`);
      if ((await admin.query(`SELECT 1 FROM pg_database WHERE datname = '${name}'`)).rows.length > 0) return name;
      const temporary = `shop_making_${randomBytes(4).toString('hex')}`;
      await admin.query(base ? `CREATE DATABASE ${temporary} TEMPLATE ${base}` : `CREATE DATABASE ${temporary}`);
      const url = new URL(adminUrl);
      url.pathname = `/${temporary}`;
      try {
        await fill({ databaseUrl: url.href }, stage);
        await admin.query(`ALTER DATABASE ${temporary} RENAME TO ${name}`);
      } catch (error) {
        await admin.query(`DROP DATABASE IF EXISTS ${temporary} WITH (FORCE)`);
        throw error;
      }
      // Templates of earlier sources are of no more use. Only those: another size of these sources may have just
      // been made by another worker, which is about to copy it (dropping it failed that worker's start).
      const current = `shop_template_${sourcesFingerprint()}_`;
      for (const row of (
        await admin.query(`SELECT datname FROM pg_database WHERE datname LIKE 'shop_template_%' AND left(datname, ${current.length}) <> '${current}'`)
      ).rows)
        await admin.query(`DROP DATABASE IF EXISTS ${String(row['datname'])} WITH (FORCE)`).catch(() => undefined);
      return name;
    } finally {
      await admin.query(`SELECT pg_advisory_unlock(${TEMPLATE_LOCK})`).catch(() => undefined);
      await admin.end();
    }
  });
}

async function fromTemplate(label: string, stage: Stage): Promise<FreshDatabase> {
  const adminUrl = process.env['DATABASE_URL'];
  if (!adminUrl) {
    const template = await pgliteTemplate(stage);
    const fresh = await createFreshDatabase(label);
    cpSync(join(template, 'pglite'), join(fresh.dataDir, 'pglite'), { recursive: true });
    return fresh;
  }
  // A new PostgreSQL database is as empty as an initialised cluster.
  return createFreshDatabase(label, stage === 'initialised' ? undefined : await postgresTemplate(adminUrl, stage));
}

/** A fresh database (as createFreshDatabase) that is already migrated and seeded with `options`. */
export const seededDatabase = (label: string, options: SeedOptions): Promise<FreshDatabase> => fromTemplate(label, options);

/**
 * A fresh, empty database that exists already: on PGlite a cluster initdb has run on (a copy), where
 * createFreshDatabase gives an empty folder. For tests about what happens in a database, not about
 * making one (those keep createFreshDatabase: a new shop's first start, `npm run import` into a new folder).
 */
export const initialisedDatabase = (label: string): Promise<FreshDatabase> => fromTemplate(label, 'initialised');

/** A fresh database, opened and migrated (a copy of a migrated template), for tests that call the services themselves; `dispose` closes and drops it. */
export async function migratedDatabase(label: string): Promise<{ fresh: FreshDatabase; database: Database; dispose(): Promise<void> }> {
  const fresh = await fromTemplate(label, { seedProducts: 0, seed: 0 });
  const database = await openDatabase({ databaseUrl: fresh.databaseUrl, dataDir: fresh.dataDir });
  // Applied already in the template: what is left is to find nothing to do.
  await database.migrate();
  return {
    fresh,
    database,
    async dispose() {
      await database.close();
      await fresh.drop();
    },
  };
}
