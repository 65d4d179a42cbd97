// The shop started the ways an operator starts it (npm start, npm run serve, the server itself), on a
// fresh database, with its output kept; and what it takes to watch it stop: its whole tree of
// processes, a request held open half-sent, a connection kept alive.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { connect, type Socket } from 'node:net';
import { delimiter, resolve } from 'node:path';
import { env as shopEnv } from '../../src/lib/env.ts';
import { buildIsStale } from '../../scripts/build-state.mjs';
import { serverProcess } from '../../scripts/server-flags.mjs';
import { createFreshDatabase, type FreshDatabase } from './fresh-database.ts';
import { seededDatabase } from './seeded-database.ts';
import { freePort, SHORT_LIVED_FLAGS, TEST_TOTP_KEY } from './server.ts';

export type StartedBy = 'npm start' | 'npm run serve' | 'server';

export interface ShopProcess {
  child: ChildProcess;
  baseUrl: string;
  port: number;
  database: FreshDatabase;
  output: () => string;
  /** The JSON log lines so far. */
  logLines: () => Record<string, unknown>[];
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Every process of the shop: the started one and all it started, by pid. */
  tree: () => number[];
  /** Kills whatever is left (the test's own clean-up) and drops the database. */
  dispose: () => Promise<void>;
}

/** The processes under `pid`, at any depth, as `ps` sees them now. */
export function descendants(pid: number): number[] {
  const table = spawnSync('ps', ['-e', '-o', 'pid=,ppid='], { encoding: 'utf8' })
    .stdout.trim()
    .split('\n')
    .map((line) => line.trim().split(/\s+/).map(Number) as [number, number]);
  const found: number[] = [];
  const walk = (parent: number) => {
    for (const [child, ppid] of table) {
      if (ppid === parent && !found.includes(child)) {
        found.push(child);
        walk(child);
      }
    }
  };
  walk(pid);
  return found;
}

export const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

const TEMPLATE_PRODUCTS = 30;

/** A fresh database for a shop of the default size, migrated and seeded (a copy of a template: seeded-database.ts). */
const copyOfTemplate = (): Promise<FreshDatabase> => seededDatabase('life', { seedProducts: TEMPLATE_PRODUCTS, seed: shopEnv().SEED });

/**
 * The database a start's settings call for: the default template; a seeded copy of the size asked for; and
 * a new, empty folder when nothing is to be seeded — a shop's very first start, which makes its database.
 */
async function databaseFor(env: Record<string, string>): Promise<FreshDatabase> {
  const products = env['SEED_PRODUCTS'];
  if (products === undefined) return copyOfTemplate();
  if (Number(products) > 0 && env['AUTO_MIGRATE'] !== 'false') return seededDatabase('life', { seedProducts: Number(products), seed: shopEnv().SEED });
  return createFreshDatabase('life');
}

export async function startShop(by: StartedBy, env: Record<string, string> = {}, database?: FreshDatabase): Promise<ShopProcess> {
  // npm start would build first, under the other tests' running server: the build must be current.
  if (by === 'npm start' && buildIsStale()) throw new Error('The build is older than the sources: run `npm run build` first (npm test does).');
  const fresh = database ?? (await databaseFor(env));
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const shopEnv = {
    ...fresh.env,
    ...(fresh.databaseUrl ? {} : { DATABASE_URL: '' }),
    HOST: '127.0.0.1',
    PORT: String(port),
    SITE_URL: baseUrl,
    SEED_PRODUCTS: String(TEMPLATE_PRODUCTS),
    NODE_ENV: 'test',
    LOG_LEVEL: 'info',
    OPS_TOTP_KEY: TEST_TOTP_KEY,
    ...env,
  };
  // npm and the commands it runs find the project's Node 24 first, as `npm start` does for a user.
  const path = [resolve('node_modules/.bin'), process.env['PATH'] ?? ''].join(delimiter);
  let child: ChildProcess;
  if (by === 'server') {
    const started = serverProcess(shopEnv);
    // Started to be stopped (tests/support/server.ts SHORT_LIVED_FLAGS); `npm start` and `npm run serve` run as a user's.
    started.args.unshift(...SHORT_LIVED_FLAGS);
    child = spawn(started.command, started.args, { env: { ...started.env, PATH: path }, stdio: ['ignore', 'pipe', 'pipe'] });
  } else {
    child = spawn('npm', by === 'npm start' ? ['start'] : ['run', 'serve'], {
      env: { ...process.env, ...shopEnv, PATH: path },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  }
  const chunks: string[] = [];
  child.stdout?.on('data', (c: Buffer) => chunks.push(c.toString()));
  child.stderr?.on('data', (c: Buffer) => chunks.push(c.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((r) => child.once('exit', (code, signal) => r({ code, signal })));
  const seen = new Set<number>();
  const tree = () => {
    for (const pid of [child.pid ?? 0, ...descendants(child.pid ?? 0)]) if (pid) seen.add(pid);
    return [...seen];
  };
  const shop: ShopProcess = {
    child,
    baseUrl,
    port,
    database: fresh,
    output: () => chunks.join(''),
    logLines: () =>
      chunks
        .join('')
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as Record<string, unknown>),
    exited,
    tree,
    async dispose() {
      for (const pid of tree()) if (alive(pid)) process.kill(pid, 'SIGKILL');
      await fresh.drop();
    },
  };
  return shop;
}

/** Reads `read()` every 100 ms until `done` says yes; throws with the last value after `timeoutMs`. */
export async function until<T>(read: () => T | Promise<T>, done: (value: T) => boolean, what: string, timeoutMs = 50_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`${what}: still ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Waits until none of these processes is left. */
export const allGone = (pids: number[]) =>
  until(
    () => pids.filter(alive),
    (left) => left.length === 0,
    'processes left',
  );

/** Waits until /api/ready answers 200 (the shop has warmed up); throws when the process ends first. */
export async function waitUntilReady(shop: ShopProcess, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let ended = false;
  void shop.exited.then(() => (ended = true));
  while (Date.now() < deadline) {
    if (ended) throw new Error(`the shop exited before it was ready:\n${shop.output().slice(-3000)}`);
    const status = await fetch(`${shop.baseUrl}/api/ready`)
      .then((r) => r.status)
      .catch(() => 0);
    if (status === 200) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`not ready in ${timeoutMs} ms:\n${shop.output().slice(-3000)}`);
}

/** One HTTP/1.1 exchange on a socket of our own, which stays open (keep-alive) for the next. */
export class RawConnection {
  private buffer = Buffer.alloc(0);
  private waiting: (() => void) | undefined;
  closed = false;
  readonly socket: Socket;

  private constructor(socket: Socket) {
    this.socket = socket;
    socket.on('data', (chunk: Buffer) => {
      this.buffer = Buffer.concat([this.buffer, chunk]);
      this.waiting?.();
    });
    socket.on('close', () => {
      this.closed = true;
      this.waiting?.();
    });
    socket.on('error', () => undefined);
  }

  static open(port: number): Promise<RawConnection> {
    return new Promise((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => resolve(new RawConnection(socket)));
      socket.once('error', reject);
    });
  }

  write(text: string | Buffer): void {
    this.socket.write(text);
  }

  /** Reads one whole answer (by content-length or chunks); null when the connection closed first. */
  async answer(timeoutMs = 30_000): Promise<{ status: number; headers: Record<string, string>; body: string } | null> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const parsed = this.parse();
      if (parsed) return parsed;
      if (this.closed) return null;
      if (Date.now() > deadline) throw new Error('no answer in time');
      await new Promise<void>((r) => {
        this.waiting = r;
        setTimeout(r, 200);
      });
    }
  }

  private parse(): { status: number; headers: Record<string, string>; body: string } | null {
    const end = this.buffer.indexOf('\r\n\r\n');
    if (end === -1) return null;
    const [statusLine = '', ...lines] = this.buffer.subarray(0, end).toString('latin1').split('\r\n');
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
    }
    let rest = this.buffer.subarray(end + 4);
    let body: Buffer;
    if (headers['transfer-encoding'] === 'chunked') {
      const parts: Buffer[] = [];
      for (;;) {
        const lineEnd = rest.indexOf('\r\n');
        if (lineEnd === -1) return null;
        const size = parseInt(rest.subarray(0, lineEnd).toString(), 16);
        if (rest.length < lineEnd + 2 + size + 2) return null;
        parts.push(rest.subarray(lineEnd + 2, lineEnd + 2 + size));
        rest = rest.subarray(lineEnd + 2 + size + 2);
        if (size === 0) break;
      }
      body = Buffer.concat(parts);
    } else {
      const length = Number(headers['content-length'] ?? 0);
      if (rest.length < length) return null;
      body = rest.subarray(0, length);
      rest = rest.subarray(length);
    }
    this.buffer = rest;
    return { status: Number(statusLine.split(' ')[1]), headers, body: body.toString('utf8') };
  }

  close(): void {
    this.socket.destroy();
  }
}

/** The shop's buyout form as a request whose body arrives in two parts: the request is in flight between them. */
export function halfSentBuyout(name: string): { head: Buffer; rest: Buffer } {
  const body = Buffer.from(JSON.stringify({ name, phone: '+7 (912) 345-67-89', messenger: 'telegram', agreementPersonal: true, agreementPromo: true }));
  const cut = Math.floor(body.length / 2);
  const head = Buffer.from(
    `POST /api/v1/ecommerce-core/redemption-request/ HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAccept-Language: ru\r\nContent-Length: ${body.length}\r\n\r\n`,
  );
  return { head: Buffer.concat([head, body.subarray(0, cut)]), rest: body.subarray(cut) };
}
