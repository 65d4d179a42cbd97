// A rolling restart with nothing lost, with real parts: Debian's nginx — and, apart, Debian's Varnish with
// xkey (issue 54) — in front of two shop processes on PostgreSQL, configured and started with the very files
// docs/operations.md gives ("One machine with systemd and nginx": the environment file, the unit's ExecStart,
// environment and stop signal, the nginx site; "Varnish with xkey": the VCL and the environment's additions).
// Shoppers browse, fill server carts and place orders through the front while each process is restarted in
// turn, twice, the way the page says (restart one, wait until it is ready, then the other). Then: no shopper
// request failed, every acknowledged order is in the database exactly once, and the stock is what the
// orders left.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { request } from 'node:http';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/lib/db/client.ts';
import { documentedFile, nginxBinary, parseEnvFile, parseUnit, varnishBinary, type Unit } from '../support/deploy.ts';
import { createFreshDatabase, type FreshDatabase } from '../support/fresh-database.ts';
import { freePort } from '../support/server.ts';
import { until } from '../support/shop-process.ts';

const API = '/api/v1/ecommerce-core';
const onPostgres = Boolean(process.env['DATABASE_URL']);
type Front = 'nginx' | 'varnish';
const off = { missing: 'the rolling restart runs on PostgreSQL only (DATABASE_URL unset); CI runs it against PostgreSQL' };
const binaries: Record<Front, { path: string } | { missing: string }> = onPostgres
  ? { nginx: nginxBinary(), varnish: varnishBinary() }
  : { nginx: off, varnish: off };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const STOCK = 100_000;

interface Instance {
  port: number;
  child: ChildProcess;
  output: string[];
  exited: Promise<number | null>;
}

describe.each(['nginx', 'varnish'] as const)('a rolling restart behind %s', (frontKind: Front) => {
  const binary = binaries[frontKind];
  const skip = 'missing' in binary ? binary.missing : undefined;
  if (skip) console.warn(`[rolling restart behind ${frontKind}] SKIPPED: ${skip}`);
  let fresh: FreshDatabase;
  let db: Database;
  let unit: Unit;
  let env: Record<string, string>;
  let dir: string;
  let frontProcess: ChildProcess | undefined;
  const frontLog: string[] = [];
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

  /** nginx with the documented site, in a folder of its own. */
  function startNginx(path: string, a: number, b: number, listen: number): ChildProcess {
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
    return spawn(path, ['-p', dir, '-c', join(dir, 'nginx.conf'), '-g', 'daemon off;'], { stdio: 'inherit' });
  }

  /** Varnish with the documented VCL (-j none: no jail; the tests are root or an ordinary user, neither the package's varnish user). */
  function startVarnish(path: string, a: number, b: number, listen: number): ChildProcess {
    const vcl = documentedFile('/etc/varnish/default.vcl').replace('.port = "4321"', `.port = "${a}"`).replace('.port = "4322"', `.port = "${b}"`);
    writeFileSync(join(dir, 'default.vcl'), vcl);
    const child = spawn(path, ['-F', '-j', 'none', '-n', join(dir, 'work'), '-a', `127.0.0.1:${listen}`, '-f', join(dir, 'default.vcl'), '-s', 'malloc,64m'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.on('data', (c: Buffer) => frontLog.push(c.toString()));
    child.stderr?.on('data', (c: Buffer) => frontLog.push(c.toString()));
    return child;
  }

  /** Both processes in the front's rotation: Varnish's probe has seen each one ready (its window). */
  const bothServing = () => (frontKind === 'varnish' ? sleep(3_500) : Promise.resolve());

  beforeAll(async () => {
    if (skip) return;
    unit = parseUnit(documentedFile('/etc/systemd/system/brandshop@.service'));
    fresh = await createFreshDatabase('roll');
    dir = mkdtempSync(join(tmpdir(), `shop-${frontKind}-`));
    const [a, b, listen] = [await freePort(), await freePort(), await freePort()];
    front = `http://127.0.0.1:${listen}`;
    env = {
      ...parseEnvFile(documentedFile('/etc/brandshop.env')),
      // Behind Varnish the page's additions: the purge, and the stop's delay beyond its probe's window.
      ...(frontKind === 'varnish' ? { ...parseEnvFile(documentedFile('added to /etc/brandshop.env behind Varnish')), CDN_PURGE_URLS: front } : {}),
      DATABASE_URL: fresh.databaseUrl!,
      DATA_DIR: fresh.dataDir,
      SITE_URL: front,
      SEED_PRODUCTS: '200',
      LOG_LEVEL: 'info',
    };
    const path = (binary as { path: string }).path;
    frontProcess = frontKind === 'nginx' ? startNginx(path, a, b, listen) : startVarnish(path, a, b, listen);
    startInstance(a);
    startInstance(b);
    await Promise.all([ready(a), ready(b)]);
    await until(
      () =>
        fetch(`${front}/`).then(
          (r) => r.status,
          () => 0,
        ),
      (status) => status === 200,
      `${frontKind} did not answer 200:\n${frontLog.join('').slice(-2000)}`,
      60_000,
    );
    await bothServing();
    db = await openDatabase({ databaseUrl: fresh.databaseUrl, dataDir: fresh.dataDir });
    // Enough of everything that no order meets an empty shelf: the stock is then only what orders took.
    await db.query('UPDATE product_variants SET stock = $1', [STOCK]);
  }, 300_000);

  afterAll(async () => {
    for (const instance of instances.values()) instance.child.kill('SIGKILL');
    frontProcess?.kill(frontKind === 'nginx' ? 'SIGQUIT' : 'SIGTERM');
    await db?.close();
    await fresh?.drop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it.skipIf(Boolean(skip))(
    'loses no request and no order, and keeps the stock right, while each process restarts twice',
    async () => {
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
          // An order every third round: under the checkout's 200 orders per address in 10 minutes however long
          // the restarts take (a slow host's Varnish run reached it at one a round).
          if (k % 3 === 0) await order(from, { items: [{ id: p.id, quantity: 1, variant_code: variants.get(p.id) }], contact, delivery });
          await sleep(300);
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
          if (k % 3 === 0) await order(from, { contact, delivery }, auth);
          // An unpaid order leaves the cart as it was: emptied here, so the next order is of the next item.
          await send(from, `${API}/customer/cart/clear`, json({}, auth));
          await sleep(300);
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
          // Shoppers on both processes again before the next one goes (behind Varnish: once its probe has
          // seen the process ready, as the page says).
          await sleep(1000);
          await bothServing();
        }
      }
      running = false;
      await Promise.all(shoppers);

      console.log(`[rolling restart behind ${frontKind}] ${requests} shopper requests, ${acknowledged.length} orders, 4 restarts, ${failures.length} failed`);
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
    },
    300_000,
  );
});
