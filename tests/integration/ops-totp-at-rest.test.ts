// The console's TOTP secrets at rest (docs/decisions/022): sealed with OPS_TOTP_KEY in the database, so that
// neither the database nor the data folder (what `npm run backup` takes) holds an operator's secret or the
// key; sign-in with TOTP still works; a start with a wrong key, or in production without one, is refused in
// one line naming the variable; secrets still in the clear are sealed at start, and a rotation
// (OPS_TOTP_KEY_PREVIOUS) seals them again with the new key. One shop started again and again on one database.
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/lib/db/client.ts';
import { parseKey32 } from '../../src/lib/env.ts';
import { sealedKeyId, totpKey } from '../../src/lib/totp-secrets.ts';
import { enrol, operatorCall, setUpAndSignIn } from '../support/ops.ts';
import type { FreshDatabase } from '../support/fresh-database.ts';
import { TEST_TOTP_KEY, type TestServer } from '../support/server.ts';
import { startShop, waitUntilReady, type ShopProcess, type StartedBy } from '../support/shop-process.ts';

let database: FreshDatabase | undefined;
let last: ShopProcess | undefined;
// The last shop's processes, and the database every start shared.
afterAll(() => last?.dispose());

/** The shop on the test's one database, ready; its own database on the first start. */
async function started(env: Record<string, string> = {}, by: StartedBy = 'server'): Promise<ShopProcess> {
  last = await startShop(by, env, database);
  database = last.database;
  await waitUntilReady(last);
  return last;
}

async function stopped(shop: ShopProcess): Promise<void> {
  process.kill(shop.child.pid ?? 0, 'SIGTERM');
  expect(await shop.exited).toEqual({ code: 0, signal: null });
}

/** A start that must be refused: its exit code and what it printed. */
async function refused(env: Record<string, string>, by: StartedBy = 'server'): Promise<{ code: number | null; output: string }> {
  last = await startShop(by, env, database);
  const { code } = await last.exited;
  return { code, output: last.output() };
}

/** The ops helpers take a test server: the shop's address and data folder are what they use. */
const asServer = (shop: ShopProcess): TestServer => ({ baseUrl: shop.baseUrl, database: shop.database, stop: async () => {} });

async function secrets(): Promise<{ email: string; totp_secret: string }[]> {
  const db = await openDatabase({ databaseUrl: database?.databaseUrl, dataDir: database?.dataDir as string });
  try {
    return (await db.query('SELECT email, totp_secret FROM operators ORDER BY email')).rows as { email: string; totp_secret: string }[];
  } finally {
    await db.close();
  }
}

/** Every file under a folder, read as bytes. */
function filesUnder(dir: string): Buffer[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .map((e) => readFileSync(join(e.parentPath, e.name)));
}

const secretOf = (otpauth: string) => new URL(otpauth).searchParams.get('secret') as string;
const keyIdOf = (base64: string) => totpKey('', parseKey32(base64) as Buffer).id;
const CLARA_SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';

describe("the console's TOTP secrets at rest", () => {
  it('are sealed with OPS_TOTP_KEY, kept out of the database and the data folder, refused with a wrong key, and rotated', async () => {
    // Production without a key: the shop serves, but will not make an operator whose secret it cannot seal.
    let shop = await started({ NODE_ENV: 'production', OPS_TOTP_KEY: '' });
    const noKey = await operatorCall(asServer(shop), { action: 'add', email: 'anna@shop.ru', role: 'admin' });
    expect(noKey.status).toBe(503);
    expect(((await noKey.json()) as { message: string }).message).toMatch(/^Магазину не задан ключ OPS_TOTP_KEY/);
    await stopped(shop);

    // With the key: two operators, one of them set up and signed in with a code from the app.
    shop = await started();
    const anna = await enrol(asServer(shop), 'anna@shop.ru', 'admin');
    const boris = await enrol(asServer(shop), 'boris@shop.ru', 'manager');
    await setUpAndSignIn(shop.baseUrl, 'anna@shop.ru', anna);
    await stopped(shop);

    const stored = await secrets();
    expect(stored.map((r) => [r.email, sealedKeyId(r.totp_secret)])).toEqual([
      ['anna@shop.ru', keyIdOf(TEST_TOTP_KEY)],
      ['boris@shop.ru', keyIdOf(TEST_TOTP_KEY)],
    ]);
    // Neither secret is anywhere in the data folder (the embedded database's files, the operator token…),
    // in base32 as apps take it or in bytes; nor is the key.
    const data = filesUnder(database?.dataDir as string);
    expect(data.length).toBeGreaterThan(0);
    for (const secret of [secretOf(anna.otpauth), secretOf(boris.otpauth)]) {
      expect(stored.some((r) => r.totp_secret.includes(secret))).toBe(false);
      expect(data.filter((file) => file.includes(secret))).toHaveLength(0);
    }
    expect(data.filter((file) => file.includes(TEST_TOTP_KEY) || file.includes(parseKey32(TEST_TOTP_KEY) as Buffer))).toHaveLength(0);

    // An operator from before the key: a secret in the clear, as an upgraded database holds it.
    const db = await openDatabase({ databaseUrl: database?.databaseUrl, dataDir: database?.dataDir as string });
    await db.query(`INSERT INTO operators (email, role, totp_secret) VALUES ('clara@shop.ru', 'manager', $1)`, [CLARA_SECRET]);
    await db.close();

    // A wrong key, from npm start and from the server itself: refused in one line that names the variable.
    const wrongKey = randomBytes(32).toString('base64');
    for (const by of ['npm start', 'server'] as const) {
      const { code, output } = await refused({ OPS_TOTP_KEY: wrongKey }, by);
      expect(code, output).toBe(1);
      expect(output).toMatch(
        /^The shop cannot start: OPS_TOTP_KEY does not open the TOTP secrets of 2 of 3 operators: they were sealed with another key; .*$/m,
      );
      expect(output).not.toMatch(/^\s+at /m);
    }
    // Production without the key, secrets sealed: refused the same way.
    const missing = await refused({ NODE_ENV: 'production', OPS_TOTP_KEY: '' });
    expect(missing.code).toBe(1);
    expect(missing.output).toMatch(
      /^The shop cannot start: OPS_TOTP_KEY is not set, and the TOTP secrets of 2 operators are sealed with a key: set OPS_TOTP_KEY to that key/m,
    );
    // Nothing was changed by the refused starts.
    expect((await secrets()).find((r) => r.email === 'clara@shop.ru')?.totp_secret).toBe(CLARA_SECRET);

    // Rotation: the new key, and the old one as the previous. The start seals the clear secret and seals the
    // others again; the operator who had not set up yet does it now, with a code checked against the secret.
    const newKey = randomBytes(32).toString('hex');
    shop = await started({ OPS_TOTP_KEY: newKey, OPS_TOTP_KEY_PREVIOUS: TEST_TOTP_KEY });
    const messages = shop.logLines().map((l) => l['msg']);
    expect(messages).toContain('TOTP secrets: 1 sealed with OPS_TOTP_KEY');
    expect(messages).toContain('TOTP secrets: 2 sealed again with OPS_TOTP_KEY (they were sealed with OPS_TOTP_KEY_PREVIOUS)');
    await setUpAndSignIn(shop.baseUrl, 'boris@shop.ru', boris);
    await stopped(shop);
    const rotated = await secrets();
    expect(rotated.map((r) => sealedKeyId(r.totp_secret))).toEqual([keyIdOf(newKey), keyIdOf(newKey), keyIdOf(newKey)]);
    expect(rotated.some((r) => r.totp_secret.includes(CLARA_SECRET))).toBe(false);

    // The previous key dropped: the shop starts, and npm run operator's calls work (a new secret, sealed).
    shop = await started({ OPS_TOTP_KEY: newKey });
    const list = (await (await operatorCall(asServer(shop))).json()) as { data: { email: string }[] };
    expect(list.data.map((o) => o.email)).toEqual(['anna@shop.ru', 'boris@shop.ru', 'clara@shop.ru']);
    const reset = await operatorCall(asServer(shop), { action: 'reset-2fa', email: 'anna@shop.ru' });
    expect(reset.status).toBe(200);
    const again = ((await reset.json()) as { data: { setup_url: string; otpauth: string } }).data;
    await setUpAndSignIn(shop.baseUrl, 'anna@shop.ru', again);
    await stopped(shop);
    const anew = (await secrets()).find((r) => r.email === 'anna@shop.ru')?.totp_secret ?? '';
    expect(sealedKeyId(anew)).toBe(keyIdOf(newKey));
    expect(anew).not.toContain(secretOf(again.otpauth));
  }, 300_000);
});
