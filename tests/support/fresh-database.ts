// A fresh, empty database for one test run: a temporary PGlite folder, or, when DATABASE_URL points
// at a PostgreSQL server, a new database on that server that is dropped afterwards.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface FreshDatabase {
  /** Environment for the server or client: DATABASE_URL or DATA_DIR. */
  env: Record<string, string>;
  databaseUrl: string | undefined;
  dataDir: string;
  drop(): Promise<void>;
}

export async function createFreshDatabase(label = 'test'): Promise<FreshDatabase> {
  const adminUrl = process.env['DATABASE_URL'];
  if (!adminUrl) {
    const dataDir = mkdtempSync(join(tmpdir(), `shop-${label}-`));
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
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    env: { DATABASE_URL: url.href },
    databaseUrl: url.href,
    dataDir: '',
    async drop() {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}
