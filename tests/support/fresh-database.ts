// A fresh, empty database for one test run: a temporary PGlite folder, or, when DATABASE_URL points
// at a PostgreSQL server, a new database on that server that is dropped afterwards.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
// Relative: the e2e web server (tests/support/serve-e2e.ts) loads this file with plain Node.
import type { Database } from '../../src/lib/db/client.ts';

export interface FreshDatabase {
  /** Environment for the server: DATA_DIR, and DATABASE_URL on PostgreSQL. */
  env: Record<string, string>;
  databaseUrl: string | undefined;
  dataDir: string;
  drop(): Promise<void>;
}

/** `template`: on PostgreSQL, the database the new one is a copy of (seeded-database.ts). */
export async function createFreshDatabase(label = 'test', template?: string): Promise<FreshDatabase> {
  const adminUrl = process.env['DATABASE_URL'];
  // The data folder holds the mail outbox on both drivers, and PGlite's files when there is no server.
  const dataDir = mkdtempSync(join(tmpdir(), `shop-${label}-`));
  if (!adminUrl) {
    return {
      env: { DATA_DIR: dataDir },
      databaseUrl: undefined,
      dataDir,
      drop: async () => rmSync(dataDir, { recursive: true, force: true }),
    };
  }
  const { default: pg } = await import('pg');
  const name = `shop_${label}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`.replace(/[^a-z0-9_]/g, '_');
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  // Two copies of one template at once can find it busy for a moment: asked again.
  for (let attempt = 0; ; attempt++) {
    try {
      await admin.query(template ? `CREATE DATABASE ${name} TEMPLATE ${template}` : `CREATE DATABASE ${name}`);
      break;
    } catch (error) {
      if (!template || attempt >= 20 || !/being accessed by other users/.test(String(error))) throw error;
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    env: { DATABASE_URL: url.href, DATA_DIR: dataDir },
    databaseUrl: url.href,
    dataDir,
    async drop() {
      rmSync(dataDir, { recursive: true, force: true });
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

/** Empties the catalogue's tables (ids from 1 again), for tests that import into an empty shop. */
export async function emptyCatalogue(database: Database): Promise<void> {
  await database.query('TRUNCATE product_attributes, product_images, product_variants, products, categories, colors, brands RESTART IDENTITY CASCADE');
}
