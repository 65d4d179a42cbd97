// `npm run seed` replaces the catalogue: it refuses in production, and refuses a database that already
// has customers or orders unless told --force. Run on a database of its own (PGlite or PostgreSQL).
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '~/lib/db/client.ts';
import { customers } from '~/lib/db/schema.ts';
import { createFreshDatabase, type FreshDatabase } from '../support/fresh-database.ts';

let fresh: FreshDatabase;
const seed = (args: string[], env: Record<string, string> = {}) =>
  spawnSync(process.execPath, ['scripts/seed.ts', '--products', '20', ...args], {
    env: { ...process.env, DATABASE_URL: '', ...fresh.env, NODE_ENV: 'test', ...env },
    encoding: 'utf8',
  });

beforeAll(async () => {
  fresh = await createFreshDatabase('seedcli');
});
afterAll(async () => {
  await fresh.drop();
});

describe('npm run seed', () => {
  it('seeds an empty database', () => {
    const run = seed([]);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/Done in .* 20 products/);
  });

  it('refuses a database with customers unless forced', async () => {
    const database = await openDatabase({ databaseUrl: fresh.databaseUrl, dataDir: fresh.dataDir });
    await database.db.insert(customers).values({ email: 'anna@example.ru', passwordHash: 'x' });
    await database.close();
    const refused = seed([]);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain('1 customers and 0 orders');
    expect(refused.stderr).toContain('--force');
    expect(seed(['--force']).status).toBe(0);
  });

  it('never runs in production', () => {
    const run = seed(['--force'], { NODE_ENV: 'production' });
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('NODE_ENV=production');
  });
});
