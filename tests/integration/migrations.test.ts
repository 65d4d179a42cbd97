// Upgrades, not only fresh databases: drizzle's migrator applies the journal's entries whose time is after
// the last one the database applied, so an entry dated before its predecessor is silently skipped on every
// database that already had the predecessor (0013 and 0014 were, until issue 24's second session).
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultMigrationsDir, openDatabase } from '~/lib/db/client.ts';
import type { FreshDatabase } from '../support/fresh-database.ts';
import { initialisedDatabase } from '../support/seeded-database.ts';

interface Journal {
  entries: { idx: number; when: number; tag: string }[];
}
const journal = JSON.parse(readFileSync(join(defaultMigrationsDir(), 'meta/_journal.json'), 'utf8')) as Journal;
const folders: string[] = [];
const databases: FreshDatabase[] = [];
afterAll(async () => {
  for (const f of folders) rmSync(f, { recursive: true, force: true });
  for (const d of databases) await d.drop();
});

/** The migrations folder as it was when `last` was the newest entry. */
function migrationsUpTo(last: number): string {
  const folder = mkdtempSync(join(tmpdir(), 'shop-migrations-'));
  folders.push(folder);
  cpSync(defaultMigrationsDir(), folder, { recursive: true });
  const cut: Journal = { entries: journal.entries.filter((e) => e.idx <= last) };
  writeFileSync(join(folder, 'meta/_journal.json'), JSON.stringify(cut));
  return folder;
}

const hasTable = async (query: (text: string) => Promise<{ rows: Record<string, unknown>[] }>, table: string) =>
  (await query(`SELECT to_regclass('public.${table}') AS t`)).rows[0]?.['t'] !== null;

describe('migrations', () => {
  it('are dated in the order they are numbered', () => {
    const whens = journal.entries.map((e) => e.when);
    expect(whens).toEqual([...whens].sort((a, b) => a - b));
    expect(new Set(whens).size).toBe(whens.length);
    expect(journal.entries.map((e) => e.idx)).toEqual(journal.entries.map((_, i) => i));
  });

  it('bring a database from each earlier migration up to the last one', async () => {
    // From 0011 (before the dated-ahead 0012) and from 0012: both must end with the console's tables and
    // the orders' search column.
    for (const from of [11, 12]) {
      const fresh = await initialisedDatabase(`migr${from}`);
      databases.push(fresh);
      const old = await openDatabase({ databaseUrl: fresh.databaseUrl, dataDir: fresh.dataDir, migrationsDir: migrationsUpTo(from) });
      await old.migrate();
      expect(await hasTable(old.query, 'operators')).toBe(false);
      await old.close();
      const current = await openDatabase({ databaseUrl: fresh.databaseUrl, dataDir: fresh.dataDir });
      await current.migrate();
      expect(await hasTable(current.query, 'operators')).toBe(true);
      expect(await hasTable(current.query, 'audit_log')).toBe(true);
      const { rows } = await current.query(
        `INSERT INTO orders (code, status, contact_name, contact_phone, contact_email, delivery_address, items_total, total)
         VALUES ('BS-00000001', 'pending', 'Анна Кузнецова', '+7 (912) 345-67-89', 'Anna@Mail.ru', '{}', 1, 1) RETURNING search_text`,
      );
      expect(rows[0]?.['search_text']).toBe('анна кузнецова anna@mail.ru 79123456789');
      await current.close();
    }
  });

  it('apply again, harmlessly, the ones a database created while 0013 and 0014 sorted before 0012 already has', async () => {
    const fresh = await initialisedDatabase('migr14');
    databases.push(fresh);
    const old = await openDatabase({ databaseUrl: fresh.databaseUrl, dataDir: fresh.dataDir, migrationsDir: migrationsUpTo(14) });
    await old.migrate();
    await old.query(`INSERT INTO audit_log (actor, action, object_type, object_id) VALUES ('test', 'x', 'order', 'BS-1')`);
    // What such a database's journal says: 0012 is the newest it applied.
    const when12 = journal.entries[12]?.when;
    await old.query(`DELETE FROM drizzle.__drizzle_migrations WHERE created_at > ${when12}`);
    await old.close();
    const current = await openDatabase({ databaseUrl: fresh.databaseUrl, dataDir: fresh.dataDir });
    await current.migrate();
    const { rows } = await current.query(`SELECT count(*)::int AS n FROM audit_log`);
    expect(rows[0]?.['n']).toBe(1);
    await expect(current.query(`DELETE FROM audit_log`)).rejects.toThrow(/append-only/);
    await current.close();
  });
});
