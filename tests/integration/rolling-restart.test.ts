// A rolling restart with nothing lost, with real parts: Debian's nginx in front of two shop processes on
// PostgreSQL, configured and started with the very files docs/operations.md gives ("One machine with
// systemd and nginx": the environment file, the unit's ExecStart, environment and stop signal, the nginx
// site). Shoppers browse, fill server carts and place orders through nginx while each process is
// restarted in turn, twice, the way the page says (restart one, wait until it is ready, then the other).
// Then: no shopper request failed, every acknowledged order is in the database exactly once, and the
// stock is what the orders left.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { request } from 'node:http';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/lib/db/client.ts';
import { documentedFile, nginxBinary, parseEnvFile, parseUnit, type Unit } from '../support/deploy.ts';
import { createFreshDatabase, type FreshDatabase } from '../support/fresh-database.ts';
import { freePort } from '../support/server.ts';
import { until } from '../support/shop-process.ts';

const API = '/api/v1/ecommerce-core';
const onPostgres = Boolean(process.env['DATABASE_URL']);
const nginx = onPostgres ? nginxBinary() : undefined;
const skipWhy = !onPostgres
  ? 'the rolling restart runs on PostgreSQL only (DATABASE_URL unset); CI runs it against PostgreSQL'
  : nginx && 'missing' in nginx
    ? nginx.missing
    : undefined;
if (skipWhy) console.warn(`[rolling restart] SKIPPED: ${skipWhy}`);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const STOCK = 100_000;

interface Instance {
  port: number;
  child: ChildProcess;
  output: string[];
  exited: Promise<number | null>;
}

describe.skipIf(Boolean(skipWhy))('a rolling restart behind nginx', () => {
  let fresh: FreshDatabase;
  let db: Database;
  let unit: Unit;
  let env: Record<string, string>;
  let dir: string;
  let nginxProcess: ChildProcess;
  let front = '';
  const instances = new Map<number, Instance>();
  // Every process's output, the restarted ones' too.
  const logs: string[] = [];

  /** Starts one unit instance as systemd would: its working directory, environment file and ExecStart. */
  function startInstance(port: number): Instance {
    const root = resolve('.');
    const [command = '', ...args] = unit.execStart.map((part) => part.replaceAll('/srv/brandshop', root).replaceAll('%i', String(port)));
    const environment = Object.fromEntries(Object.entries(unit.environment).map(([k, v]) => [k, v.replaceAll('%i', String(port))]));
    const child = spawn(command, args, {
      cwd: unit.workingDirectory.replaceAll('/srv/brandshop', root),
      // systemd gives the unit only its own environment, not the caller's.
      env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', ...env, ...environment },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const output: string[] = [];
    const keep = (c: Buffer) => {
      output.push(c.toString());
      logs.push(c.toString());
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    const instance = { port, child, output, exited };
    instances.set(port, instance);
    return instance;
  }

  async function ready(port: number): Promise<void> {
    const status = () =>
      fetch(`http://127.0.0.1:${port}/api/ready`).then(
        (r) => r.status,
        () => 0,
      );
    await until(status, (s) => s === 200, `process on ${port} not ready`, 120_000).catch((error: Error) => {
      throw new Error(`${error.message}:\n${instances.get(port)?.output.join('').slice(-3000)}`);
    });
  }

  /** `systemctl restart brandshop@port`: KillSignal to the main process (KillMode=mixed), wait, start again. */
  async function restart(port: number): Promise<number | null> {
    const old = instances.get(port)!;
    old.child.kill(unit.killSignal);
    const code = await Promise.race([old.exited, sleep(unit.timeoutStopSeconds * 1000).then(() => 'overran' as const)]);
    if (code === 'overran') throw new Error(`process on ${port} did not stop within TimeoutStopSec`);
    startInstance(port);
    return code;
  }

  beforeAll(async () => {
    unit = parseUnit(documentedFile('/etc/systemd/system/brandshop@.service'));
    fresh = await createFreshDatabase('roll');
    dir = mkdtempSync(join(tmpdir(), 'shop-nginx-'));
    const [a, b, listen] = [await freePort(), await freePort(), await freePort()];
    front = `http://127.0.0.1:${listen}`;
    env = {
      ...parseEnvFile(documentedFile('/etc/brandshop.env')),
      DATABASE_URL: fresh.databaseUrl!,
      DATA_DIR: fresh.dataDir,
      SITE_URL: front,
      SEED_PRODUCTS: '200',
      LOG_LEVEL: 'info',
    };
    const site = documentedFile('/etc/nginx/sites-available/brandshop')
      .replaceAll('127.0.0.1:4321', `127.0.0.1:${a}`)
      .replaceAll('127.0.0.1:4322', `127.0.0.1:${b}`)
      .replace(/listen 80;/, `listen 127.0.0.1:${listen};`);
    for (const temp of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) mkdirSync(join(dir, temp));
    writeFileSync(join(dir, 'site.conf'), site);
    writeFileSync(
      join(dir, 'nginx.conf'),
      [
        // As root, nginx's workers would otherwise run as nobody, who cannot write the temporary folders.
        process.getuid?.() === 0 ? 'user root;' : '',
        'worker_processes 1;',
        `pid ${dir}/nginx.pid;`,
        `error_log ${dir}/error.log warn;`,
        'events { worker_connections 1024; }',
        `http { access_log ${dir}/access.log; client_body_temp_path ${dir}/body; proxy_temp_path ${dir}/proxy; fastcgi_temp_path ${dir}/fastcgi; uwsgi_temp_path ${dir}/uwsgi; scgi_temp_path ${dir}/scgi; include ${dir}/site.conf; }`,
      ].join('\n'),
    );
    nginxProcess = spawn((nginx as { path: string }).path, ['-p', dir, '-c', join(dir, 'nginx.conf'), '-g', 'daemon off;'], { stdio: 'inherit' });
    startInstance(a);
    startInstance(b);
    await Promise.all([ready(a), ready(b)]);
    db = await openDatabase({ databaseUrl: fresh.databaseUrl, dataDir: fresh.dataDir });
    // Enough of everything that no order meets an empty shelf: the stock is then only what orders took.
    await db.query('UPDATE product_variants SET stock = $1', [STOCK]);
  }, 300_000);

  afterAll(async () => {
    for (const instance of instances.values()) instance.child.kill('SIGKILL');
    nginxProcess?.kill('SIGQUIT');
    await db?.close();
    await fresh?.drop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('loses no request and no order, and keeps the stock right, while each process restarts twice', async () => {
    expect(unit.killMode).toBe('mixed');
    const products = ((await (await fetch(`${front}${API}/products?per_page=40`)).json()) as { data: { products: { id: number; url: string }[] } }).data
      .products;
    const variants = new Map<number, string>();
    for (const p of products.slice(0, 12)) {
      const product = (await (await fetch(`${front}${API}/product/${p.id}`)).json()) as { data: { variants: { code: string; available: boolean }[] } };
      const code = product.data.variants.find((v) => v.available)?.code;
      if (code) variants.set(p.id, code);
    }
    const chosen = products.filter((p) => variants.has(p.id));
    expect(chosen.length).toBeGreaterThan(5);

    const failures: string[] = [];
    const acknowledged: { key: string; code: string }[] = [];
    let requests = 0;
    let running = true;
    const contact = { name: 'Ольга Смирнова', email: 'olga@example.ru', phone: '+7 (999) 111-22-33' };
    const delivery = { method: 'courier', city: 'Казань', address: 'Баумана, 1' };

    /**
     * One request through nginx from the shopper's own address (127.0.0.x: nginx names it in
     * X-Forwarded-For, the shop believes it from nginx alone); anything but the expected statuses fails.
     */
    const send = async (from: string, path: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}, expected = [200]) => {
      requests++;
      try {
        const answer = await new Promise<{ status: number; body: string }>((done, reject) => {
          const req = request(
            `${front}${path}`,
            {
              method: init.method ?? 'GET',
              headers: { ...init.headers, ...(init.body ? { 'content-length': String(Buffer.byteLength(init.body)) } : {}) },
              localAddress: from,
              agent: false,
            },
            (res) => {
              const parts: Buffer[] = [];
              res.on('data', (c: Buffer) => parts.push(c));
              res.on('end', () => done({ status: res.statusCode ?? 0, body: Buffer.concat(parts).toString() }));
              res.on('error', reject);
            },
          );
          req.on('error', reject);
          req.end(init.body);
        });
        if (!expected.includes(answer.status)) failures.push(`${init.method ?? 'GET'} ${path}: ${answer.status} ${answer.body.slice(0, 120)}`);
        return answer;
      } catch (error) {
        failures.push(`${init.method ?? 'GET'} ${path}: ${error instanceof Error ? error.message : 'error'}`);
        return { status: 0, body: '' };
      }
    };
    const json = (body: unknown, headers: Record<string, string> = {}) => ({
      method: 'POST',
      headers: { 'content-type': 'application/json', 'accept-language': 'ru', ...headers },
      body: JSON.stringify(body),
    });

    const order = async (from: string, body: unknown, headers: Record<string, string> = {}) => {
      const key = randomUUID();
      const placed = await send(from, `${API}/checkout/place-order`, json(body, { ...headers, 'idempotency-key': key }), [201]);
      if (placed.status === 201) acknowledged.push({ key, code: (JSON.parse(placed.body) as { data: { code: string } }).data.code });
    };

    /** A guest: pages, the product's data, an order of what the browser's cart holds. */
    async function guest(n: number) {
      const from = `127.0.0.${10 + n}`;
      for (let k = n; running; k++) {
        const p = chosen[k % chosen.length]!;
        await send(from, '/');
        await send(from, new URL(p.url, front).pathname);
        await send(from, `${API}/product/${p.id}`);
        await order(from, { items: [{ id: p.id, quantity: 1, variant_code: variants.get(p.id) }], contact, delivery });
        await sleep(100);
      }
    }

    /** A customer: signs up once, then fills the server cart and orders from it. */
    async function customer(n: number) {
      const from = `127.0.0.${10 + n}`;
      const signed = await send(
        from,
        `${API}/auth/customer-registration`,
        json({ email: `roll.${n}.${randomUUID().slice(0, 8)}@example.ru`, phone: '+7 (999) 111-22-33', password: 'перезапуск без потерь' }),
        [201],
      );
      const token = (JSON.parse(signed.body || '{}') as { data?: { access_token?: string } }).data?.access_token;
      if (!token) return;
      const auth = { authorization: `Bearer ${token}` };
      for (let k = n; running; k++) {
        const p = chosen[(k * 7) % chosen.length]!;
        await send(from, `/c/3`, {}, [200, 301]);
        await send(
          from,
          `${API}/customer/cart/store-cart-item`,
          json({ item: { id: p.id, quantity: 2, variant_code: variants.get(p.id), uid: randomUUID() } }, auth),
        );
        await send(from, `${API}/customer/cart/cart-items-list`, { headers: auth });
        await order(from, { contact, delivery }, auth);
        // An unpaid order leaves the cart as it was: emptied here, so the next order is of the next item.
        await send(from, `${API}/customer/cart/clear`, json({}, auth));
        await sleep(100);
      }
    }

    const shoppers = [guest(0), guest(1), guest(2), customer(3), customer(4)];
    await sleep(1500);
    const exitCodes: (number | null)[] = [];
    const ports = [...instances.keys()];
    for (let round = 0; round < 2; round++) {
      for (const port of ports) {
        exitCodes.push(await restart(port));
        await ready(port);
        // Shoppers on both processes again before the next one goes.
        await sleep(1000);
      }
    }
    running = false;
    await Promise.all(shoppers);

    console.log(`[rolling restart] ${requests} shopper requests, ${acknowledged.length} orders, 4 restarts, ${failures.length} failed`);
    expect(failures).toEqual([]);
    expect(exitCodes).toEqual([0, 0, 0, 0]);
    expect(requests).toBeGreaterThan(100);
    expect(acknowledged.length).toBeGreaterThan(10);

    // Every acknowledged order once, and no order nobody was told of.
    const { rows } = await db.query('SELECT idempotency_key, code, status FROM orders');
    expect(rows.length).toBe(acknowledged.length);
    const byKey = new Map(rows.map((r) => [r['idempotency_key'], r]));
    for (const a of acknowledged) expect(byKey.get(a.key)?.['code']).toBe(a.code);
    // The stock of each size is what the orders took from it (nothing was cancelled).
    const { rows: off } = await db.query(
      `SELECT v.code, v.stock, coalesce(sum(l.quantity), 0)::int AS taken FROM product_variants v
         LEFT JOIN order_lines l ON l.variant_id = v.id GROUP BY v.id HAVING count(l.id) > 0 AND v.stock <> $1 - coalesce(sum(l.quantity), 0)`,
      [STOCK],
    );
    expect(off).toEqual([]);
    // Each shopper was known by its own address behind nginx (the checkout's limit counts per address).
    const { rows: limits } = await db.query(`SELECT key FROM throttles WHERE key LIKE 'checkout:%' ORDER BY key`);
    expect(limits.map((r) => r['key'])).toEqual([
      'checkout:127.0.0.10',
      'checkout:127.0.0.11',
      'checkout:127.0.0.12',
      'checkout:127.0.0.13',
      'checkout:127.0.0.14',
    ]);
    expect(rows.every((r) => r['status'] === 'pending')).toBe(true);
    // Each stop was the graceful one, and said so.
    expect(logs.join('').match(/"msg":"stopped"/g)).toHaveLength(4);
    expect(logs.join('')).not.toContain('second signal');
  }, 300_000);
});
