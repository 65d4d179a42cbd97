// A fresh database already migrated and seeded, copied from a template made once: a test shop's start was
// 4.2 s on an empty database and 1.7 s on a seeded copy (docs/performance.md, "The suite in 8 minutes").
// The templates are kept between runs under node_modules/.cache, named by everything that decides their
// content — the migrations, the seed's code, PGlite's version, the product count and the seed — so a
// change to any of them makes a new one. On PostgreSQL the template is a database of the server
// (`CREATE DATABASE … TEMPLATE`). Relative imports: the e2e web server loads this file with plain Node.
import { createHash, randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { openDatabase } from '../../src/lib/db/client.ts';
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

const templateName = ({ seedProducts, seed }: SeedOptions) => `${sourcesFingerprint()}_${seedProducts}_${seed}`;

async function seedInto(target: { dataDir: string } | { databaseUrl: string }, options: SeedOptions): Promise<void> {
  const database = await openDatabase('databaseUrl' in target ? { databaseUrl: target.databaseUrl, dataDir: '' } : { dataDir: target.dataDir });
  try {
    await prepareDatabase(database, { migrate: true, seedProducts: options.seedProducts, seed: options.seed, log: () => {} });
  } finally {
    await database.close();
  }
}

/** The PGlite template's folder, made if missing; several processes may race to make it: the first rename wins. */
async function pgliteTemplate(options: SeedOptions): Promise<string> {
  const done = join(CACHE, templateName(options));
  if (existsSync(join(done, 'pglite', 'PG_VERSION'))) return done;
  mkdirSync(CACHE, { recursive: true });
  const making = mkdtempSync(join(CACHE, 'making-'));
  try {
    await seedInto({ dataDir: making }, options);
    renameSync(making, done);
  } catch (error) {
    rmSync(making, { recursive: true, force: true });
    if (!existsSync(join(done, 'pglite', 'PG_VERSION'))) throw error;
  }
  return done;
}

type Client = { query(text: string): Promise<{ rows: Record<string, unknown>[] }>; end(): Promise<void> };

async function adminClient(adminUrl: string): Promise<Client> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  return client as unknown as Client;
}

/** The PostgreSQL template's name, made if missing (made under a temporary name, then renamed: never half-seeded). */
async function postgresTemplate(adminUrl: string, options: SeedOptions): Promise<string> {
  const name = `shop_template_${templateName(options)}`;
  const admin = await adminClient(adminUrl);
  try {
    const exists = async () => (await admin.query(`SELECT 1 FROM pg_database WHERE datname = '${name}'`)).rows.length > 0;
    if (await exists()) return name;
    const making = `shop_making_${randomBytes(4).toString('hex')}`;
    await admin.query(`CREATE DATABASE ${making}`);
    const url = new URL(adminUrl);
    url.pathname = `/${making}`;
    try {
      await seedInto({ databaseUrl: url.href }, options);
      await admin.query(`ALTER DATABASE ${making} RENAME TO ${name}`);
    } catch (error) {
      await admin.query(`DROP DATABASE IF EXISTS ${making} WITH (FORCE)`);
      if (!(await exists())) throw error;
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
    await admin.end();
  }
}

/** A fresh database (as createFreshDatabase) that is already migrated and seeded with `options`. */
export async function seededDatabase(label: string, options: SeedOptions): Promise<FreshDatabase> {
  const adminUrl = process.env['DATABASE_URL'];
  if (!adminUrl) {
    const template = await pgliteTemplate(options);
    const fresh = await createFreshDatabase(label);
    cpSync(join(template, 'pglite'), join(fresh.dataDir, 'pglite'), { recursive: true });
    return fresh;
  }
  const template = await postgresTemplate(adminUrl, options);
  return createFreshDatabase(label, template);
}
