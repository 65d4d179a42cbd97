// Stopping the shop the ways operators and their supervisors do (docs/operations.md "Stopping and
// restarting"): SIGTERM or SIGINT to whichever process was started — npm start, npm run serve, or the
// server itself — turns readiness 503, finishes the request in flight, refuses new connections, and
// leaves no process behind, every one exiting 0. A second signal ends it at once; a request that does not
// finish within SHUTDOWN_GRACE_SECONDS is cut; a parent killed outright takes the server with it.
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/lib/db/client.ts';
import { prepareDatabase } from '../../src/lib/db/prepare.ts';
import { alive, allGone, halfSentBuyout, RawConnection, startShop, until, waitUntilReady, type ShopProcess, type StartedBy } from '../support/shop-process.ts';

let shop: ShopProcess | undefined;
afterEach(async () => {
  await shop?.dispose();
  shop = undefined;
});

// The process handling is the same whatever the database: on PostgreSQL (CI's second run) only what
// touches the database runs again — the stop that closes the pool, readiness before migrations.
const onPostgres = Boolean(process.env['DATABASE_URL']);
const processOnly = it.skipIf(onPostgres);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const logged = (s: ShopProcess, msg: string) => until(() => s.logLines().some((l) => l['msg'] === msg), Boolean, `log line "${msg}"`);

async function buyoutRows(s: ShopProcess, name: string): Promise<number> {
  const database = await openDatabase({ databaseUrl: s.database.databaseUrl, dataDir: s.database.dataDir });
  try {
    const { rows } = await database.query('SELECT count(*)::int AS n FROM buyout_requests WHERE name = $1', [name]);
    return Number(rows[0]?.['n']);
  } finally {
    await database.close();
  }
}

describe.each<StartedBy>(['npm start', 'npm run serve', 'server'])('SIGTERM to %s', (by) => {
  it.skipIf(onPostgres && by !== 'server')('finishes the request in flight, takes no new connection, and every process exits 0', async () => {
    shop = await startShop(by, { SHUTDOWN_GRACE_SECONDS: '30' });
    await waitUntilReady(shop);
    const tree = shop.tree();
    // npm, the command npm runs, and the server it starts (no shell left between them: `exec`).
    expect(tree).toHaveLength(by === 'npm start' || by === 'npm run serve' ? 3 : 1);

    const idle = await RawConnection.open(shop.port);
    idle.write('GET /api/health HTTP/1.1\r\nHost: shop\r\n\r\n');
    expect((await idle.answer())?.status).toBe(200);
    const name = `${{ 'npm start': 'Анна', 'npm run serve': 'Вера', server: 'Ольга' }[by]} Остановкина`;
    const inFlight = await RawConnection.open(shop.port);
    const { head, rest } = halfSentBuyout(name);
    inFlight.write(head);
    await sleep(500);

    process.kill(shop.child.pid ?? 0, 'SIGTERM');
    await logged(shop, 'stopping: no new connections, finishing requests');
    // The idle connection is closed, and no new one is taken.
    await until(() => idle.closed, Boolean, 'idle connection closed');
    await expect(RawConnection.open(shop.port)).rejects.toThrow(/ECONNREFUSED/);
    // The request in flight is answered in full, and its connection closed after it.
    inFlight.write(rest);
    const answer = await inFlight.answer();
    expect(answer?.status).toBe(201);
    expect(JSON.parse(answer?.body ?? '{}')).toMatchObject({ success: true });
    expect(answer?.headers['connection']).toBe('close');

    expect(await shop.exited).toEqual({ code: 0, signal: null });
    await allGone(tree);
    const lines = shop.logLines();
    expect(lines.some((l) => l['msg'] === 'stopped')).toBe(true);
    expect(lines.filter((l) => l['msg'] === 'stopping: a step did not finish')).toEqual([]);
    // What was acknowledged is in the database, which was closed cleanly (it opens again at once).
    expect(await buyoutRows(shop, name)).toBe(1);
  });
});

describe('stopping', () => {
  processOnly('readiness turns 503 at once; with SHUTDOWN_DELAY_SECONDS the process serves on until its port closes', async () => {
    shop = await startShop('server', { SHUTDOWN_DELAY_SECONDS: '3' });
    await waitUntilReady(shop);
    // A balancer's pooled keep-alive connection, idle as the stop begins.
    const pooled = await RawConnection.open(shop.port);
    pooled.write('GET /api/health HTTP/1.1\r\nHost: shop\r\n\r\n');
    expect((await pooled.answer())?.status).toBe(200);
    process.kill(shop.child.pid ?? 0, 'SIGTERM');
    await logged(shop, 'stopping: readiness 503');
    // It is not closed under the balancer during the delay (a POST it sent there could not be repeated):
    // what arrives on it is answered, with Connection: close, and the connection ends after the answer.
    await sleep(500);
    expect(pooled.closed).toBe(false);
    pooled.write('POST /api/v1/ecommerce-core/newsletter/subscribe HTTP/1.1\r\nHost: shop\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}');
    const late = await pooled.answer();
    expect(late?.status).toBe(422);
    expect(late?.headers['connection']).toBe('close');
    await until(() => pooled.closed, Boolean, 'pooled connection closed after its answer');
    const ready = await fetch(`${shop.baseUrl}/api/ready`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toEqual({ success: false, message: 'Сервис временно недоступен', errors: { ready: ['draining'] } });
    // Still serving what a balancer that has not yet noticed sends it, each answer closing its connection.
    const health = await fetch(`${shop.baseUrl}/api/health`);
    expect(health.status).toBe(200);
    expect(health.headers.get('connection')).toBe('close');
    expect(shop.logLines().some((l) => l['msg'] === 'stopping: no new connections, finishing requests')).toBe(false);
    await logged(shop, 'stopping: no new connections, finishing requests');
    expect(await shop.exited).toEqual({ code: 0, signal: null });
  });

  it('readiness is 503 while the process cannot serve yet, though it is alive; ready once it can', async () => {
    // No migrations applied and nothing seeded: the warm-up fails and is tried again every 2 s.
    shop = await startShop('server', { AUTO_MIGRATE: 'false', SEED_PRODUCTS: '0' });
    const health = await until(
      () =>
        fetch(`${shop!.baseUrl}/api/health`).then(
          (r) => r.status,
          () => 0,
        ),
      (status) => status !== 0,
      'listening',
    );
    expect(health).toBe(200);
    const ready = await fetch(`${shop.baseUrl}/api/ready`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toEqual({ success: false, message: 'Сервис временно недоступен', errors: { ready: ['starting'] } });
    if (shop.database.databaseUrl) {
      // A deploy that runs its migrations apart (AUTO_MIGRATE=false on the instances): once they are applied, the process becomes ready by itself.
      const database = await openDatabase({ databaseUrl: shop.database.databaseUrl, dataDir: shop.database.dataDir });
      try {
        await prepareDatabase(database, { migrate: true, seedProducts: 20, seed: 1, log: () => {} });
      } finally {
        await database.close();
      }
      await waitUntilReady(shop);
    }
  });

  processOnly('a second signal exits at once, without waiting for the request in flight', async () => {
    shop = await startShop('server', { SHUTDOWN_GRACE_SECONDS: '600' });
    await waitUntilReady(shop);
    const stuck = await RawConnection.open(shop.port);
    stuck.write(halfSentBuyout('Ольга Третья').head);
    await sleep(300);
    process.kill(shop.child.pid ?? 0, 'SIGTERM');
    await logged(shop, 'stopping: no new connections, finishing requests');
    process.kill(shop.child.pid ?? 0, 'SIGTERM');
    // 143 is the immediate exit's code: the graceful one would have waited ten minutes for the request.
    expect(await shop.exited).toEqual({ code: 143, signal: null });
    expect(shop.logLines().some((l) => l['msg'] === 'stopping: second signal, exiting at once')).toBe(true);
  });

  processOnly('a request that does not finish within SHUTDOWN_GRACE_SECONDS is cut, and the process still exits 0', async () => {
    shop = await startShop('server', { SHUTDOWN_GRACE_SECONDS: '1' });
    await waitUntilReady(shop);
    const stuck = await RawConnection.open(shop.port);
    stuck.write(halfSentBuyout('Ольга Четвёртая').head);
    await sleep(300);
    process.kill(shop.child.pid ?? 0, 'SIGTERM');
    expect(await shop.exited).toEqual({ code: 0, signal: null });
    expect(await stuck.answer()).toBeNull();
    expect(shop.logLines().some((l) => l['msg'] === 'stopping: grace period over, closing the remaining connections')).toBe(true);
  });

  processOnly('Ctrl-C in a terminal (SIGINT to every process of npm start at once) is one graceful stop', async () => {
    shop = await startShop('npm start');
    await waitUntilReady(shop);
    const tree = shop.tree();
    for (const pid of tree) process.kill(pid, 'SIGINT');
    const exit = await shop.exited;
    expect(exit.signal).toBeNull();
    await allGone(tree);
    const lines = shop.logLines();
    expect(lines.some((l) => l['msg'] === 'stopped')).toBe(true);
    expect(lines.some((l) => l['msg'] === 'stopping: second signal, exiting at once')).toBe(false);
  });

  processOnly.each<StartedBy>(['npm start', 'npm run serve'])('npm killed outright (%s) leaves no orphan: the shop stops gracefully', async (by) => {
    shop = await startShop(by);
    await waitUntilReady(shop);
    const tree = shop.tree();
    process.kill(shop.child.pid ?? 0, 'SIGKILL');
    await allGone(tree);
    expect(shop.logLines().some((l) => l['msg'] === 'stopped')).toBe(true);
  });

  processOnly('the server whose parent is killed outright stops gracefully', async () => {
    shop = await startShop('npm run serve');
    await waitUntilReady(shop);
    const [, serve, server] = shop.tree();
    process.kill(serve ?? 0, 'SIGKILL');
    await until(
      () => alive(server ?? 0),
      (on) => !on,
      'server still running',
    );
    const lines = shop.logLines();
    expect(lines.some((l) => l['msg'] === 'stopping: readiness 503' && l['reason'] === 'parent process gone')).toBe(true);
    expect(lines.some((l) => l['msg'] === 'stopped')).toBe(true);
  });
});
