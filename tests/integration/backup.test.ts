// `npm run backup` while the shop serves a stream of orders, then `npm run restore` into a fresh folder
// (or a fresh PostgreSQL database): every order acknowledged before the backup began is there, and the
// data folder (the outbox's mail, the operator token) came along. Restore refuses a folder whose
// database a running shop has open, and a database that is there unless told (--force).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/lib/db/client.ts';
import { backupMembers } from '../../src/lib/backup.ts';
import { createFreshDatabase, type FreshDatabase } from '../support/fresh-database.ts';
import { inStock, placeGuestOrder } from '../support/in-stock.ts';
import { startShop, waitUntilReady, type ShopProcess } from '../support/shop-process.ts';

let shop: ShopProcess;
let target: FreshDatabase;
const folder = mkdtempSync(join(tmpdir(), 'shop-backups-'));
const file = join(folder, 'shop.tar.gz');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** `npm run backup` / `npm run restore` as an operator runs them, with the shop's own environment. */
function command(script: 'backup' | 'restore', args: string[], database: FreshDatabase): Promise<{ status: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [`scripts/${script}.ts`, ...args], {
      env: { ...process.env, ...database.env, ...(database.databaseUrl ? {} : { DATABASE_URL: '' }) },
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    child.on('close', (status) => resolve({ status, out, err }));
  });
}

beforeAll(async () => {
  shop = await startShop('server', { SEED_PRODUCTS: '400', LOG_LEVEL: 'warn' });
  await waitUntilReady(shop);
  target = await createFreshDatabase('restored');
}, 180_000);

afterAll(async () => {
  await shop?.dispose();
  await target?.drop();
  rmSync(folder, { recursive: true, force: true });
});

describe('backup and restore', () => {
  it('a backup taken during a stream of orders holds every order acknowledged before it began', async () => {
    const items: { id: number; variant_code: string }[] = [];
    for (const category of [3, 4, 5, 6, 7, 8]) items.push(...(await inStock(shop.baseUrl, 5, category).catch(() => [])));
    expect(items.length).toBeGreaterThan(10);
    const acknowledged: { code: string; at: number }[] = [];
    const unexpected: number[] = [];
    let streaming = true;
    const stream = (async () => {
      for (let k = 0; streaming && items.length > 0; k++) {
        const item = items[k % items.length]!;
        const placed = await placeGuestOrder(shop.baseUrl, item);
        if (placed.status === 201) acknowledged.push({ code: placed.body.data!.code, at: Date.now() });
        // A size sold out by the stream itself leaves the rotation.
        else if (placed.status === 409) items.splice(items.indexOf(item), 1);
        else unexpected.push(placed.status);
        // A shopper's pace, under the checkout's limit of 200 orders per address in ten minutes.
        await sleep(25);
      }
    })();
    await sleep(2_000);
    const began = Date.now();
    const before = acknowledged.filter((o) => o.at < began).map((o) => o.code);
    // The file as restore takes it, a positional argument (the refusal below names it with --out).
    const backup = await command('backup', [file], shop.database);
    const after = acknowledged.length;
    streaming = false;
    await stream;
    expect(unexpected).toEqual([]);
    expect(backup.err).toBe('');
    expect(backup.status).toBe(0);
    expect(backup.out.trim().split('\n').at(-1)).toBe(file);
    expect(before.length).toBeGreaterThan(3);
    // Orders went on while it ran (the shop kept serving).
    expect(after).toBeGreaterThan(before.length);
    const members = backupMembers(file);
    expect(members).toEqual(expect.arrayContaining(['manifest.json', shop.database.databaseUrl ? 'database.dump' : 'database.tar.gz', 'data/operator-token']));
    expect(members.some((m) => m.startsWith('data/pglite'))).toBe(false);

    // The same folder, while the shop has its database open: refused, whatever the flags.
    if (!shop.database.databaseUrl) {
      const refused = await command('restore', [file, '--force'], shop.database);
      expect(refused.status).toBe(2);
      expect(refused.err).toContain('stop it first');
    }

    const restored = await command('restore', [file], target);
    expect(restored.err).toBe('');
    expect(restored.status).toBe(0);
    const db = await openDatabase({ databaseUrl: target.databaseUrl, dataDir: target.dataDir });
    try {
      const { rows } = await db.query('SELECT code FROM orders');
      const codes = new Set(rows.map((r) => String(r['code'])));
      expect(before.filter((code) => !codes.has(code))).toEqual([]);
      // Nothing but orders the shop acknowledged (the last ones may have come after the snapshot).
      expect([...codes].filter((code) => !acknowledged.some((o) => o.code === code))).toEqual([]);
    } finally {
      await db.close();
    }
    expect(existsSync(join(target.dataDir, 'operator-token'))).toBe(true);
  }, 120_000);

  it('refuses to replace a database that is there, unless told', async () => {
    const again = await command('restore', [file], target);
    expect(again.status).toBe(2);
    expect(again.err).toContain('--force');
    const forced = await command('restore', [file, '--force'], target);
    expect(forced.status).toBe(0);
    // The embedded database that was there is kept aside, not deleted.
    if (!target.databaseUrl) expect(readdirSync(target.dataDir).some((name) => name.startsWith('pglite.replaced-'))).toBe(true);
  }, 60_000);

  it('refuses what is not a backup, and says why', async () => {
    const missing = await command('restore', [join(folder, 'nothing.tar.gz')], target);
    expect(missing.status).toBe(2);
    expect(missing.err).toContain('no such file');
    const notOne = await command('restore', ['package.json'], target);
    expect(notOne.status).toBe(2);
    expect(notOne.err).toContain('is not a shop backup');
    const exists = await command('backup', ['--out', file], shop.database);
    expect(exists.status).toBe(2);
    expect(exists.err).toContain('exists already');
  });

  it.skipIf(Boolean(process.env['DATABASE_URL']))('the running shop writes its snapshot only as a new file in the temporary folder', async () => {
    const token = readFileSync(join(shop.database.dataDir, 'operator-token'), 'utf8').trim();
    const ask = (path: unknown, key = token) =>
      fetch(`${shop.baseUrl}/api/v1/ecommerce-core/ops/backup`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-operator-token': key },
        body: JSON.stringify({ path }),
      });
    expect((await ask(join(folder, 'snap.tar.gz'), 'not-the-token')).status).toBe(403);
    for (const path of ['/etc/shop-snapshot.tar.gz', join(folder, '..', '..', 'etc', 'snap.tar.gz'), 'snap.tar.gz', join(folder, 'snap.zip'), 5])
      expect((await ask(path)).status, String(path)).toBe(422);
    expect(existsSync('/etc/shop-snapshot.tar.gz')).toBe(false);
    expect((await ask(file)).status).toBe(409);
    expect((await ask(join(folder, 'no-such-folder', 'snap.tar.gz'))).status).toBe(409);
    const made = await ask(join(folder, 'snap.tar.gz'));
    expect(made.status).toBe(200);
    expect(((await made.json()) as { data: { bytes: number } }).data.bytes).toBeGreaterThan(0);
  });

  it('the restored shop starts and serves its orders', async () => {
    const restoredShop = await startShop('server', { LOG_LEVEL: 'warn' }, target);
    try {
      await waitUntilReady(restoredShop);
      const res = await fetch(`${restoredShop.baseUrl}/api/ready`);
      expect(res.status).toBe(200);
      process.kill(restoredShop.child.pid ?? 0, 'SIGTERM');
      expect(await restoredShop.exited).toEqual({ code: 0, signal: null });
    } finally {
      for (const pid of restoredShop.tree()) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // gone
        }
      }
    }
  }, 120_000);
});
