// 1C's exchange protocol ("Обмен с сайтом", the one 1C:Trade, UNF, Retail and MoySklad speak to Bitrix
// and to every shop since), call by call: checkauth (HTTP Basic, then the session cookie it answers),
// init (zip=yes, file_limit), file (parts appended), import (progress until done), and for orders query,
// success and file. Answers are the protocol's own words — success, progress, failure and a reason — in
// windows-1251. docs/exchange-1c.md.
import { createHmac } from 'node:crypto';
import { sameSecret } from '~/lib/same-secret.ts';
import { createReadStream, createWriteStream, existsSync, mkdirSync, readdirSync, rmSync, statSync, truncateSync } from 'node:fs';
import { once } from 'node:events';
import { join, relative, resolve, sep } from 'node:path';
import type { Database } from '~/lib/db/client.ts';
import { getDatabase } from '~/lib/db/index.ts';
import { env } from '~/lib/env.ts';
import { blockedFor, countFailure, type Limit } from '~/lib/http/rate-limit.server.ts';
import { loggableError, logger } from '~/lib/log.ts';
import { metrics } from '~/lib/metrics.ts';
import { catalogueChanged } from '~/features/catalog/read-model.server.ts';
import { unzip } from '~/features/import/import.parts.server.ts';
import type { ImportProblem } from '~/features/import/import.ts';
import { ImportInputError } from '~/features/import/import.server.ts';
import { applyCatalogueFile, asFileError, ExchangeFileError } from './catalogue.server.ts';
import { readState, writeState } from './packages.server.ts';
import { emptyHeader, readCommerceMl, type CmlDocument } from './commerceml.server.ts';
import { encodeCp1251 } from './cp1251.ts';
import { applyOrderDocuments, confirmOrdersSent, ordersDocument, SALE_VERSION } from './sale.server.ts';

export const EXCHANGE_COOKIE = 'shop_exchange';
const SESSION_HOURS = 12;
/** A run whose process has not reported for this long is taken to have died, and is started again. */
const STALE_MS = 60_000;

type Kind = 'catalog' | 'sale';

interface Job {
  status: 'running' | 'done' | 'failed';
  done: number;
  total: number;
  message: string;
  heartbeat: number;
}

/** One answer of the protocol: lines of text in windows-1251. */
function answer(status: number, lines: string[], headers: Record<string, string> = {}): Response {
  return new Response(encodeCp1251(`${lines.join('\n')}\n`) as Uint8Array<ArrayBuffer>, {
    status,
    headers: { 'content-type': 'text/plain; charset=windows-1251', 'cache-control': 'no-store', ...headers },
  });
}
const failure = (status: number, reason: string, headers?: Record<string, string>) => answer(status, ['failure', reason], headers);

function config() {
  const e = env();
  return {
    login: e.EXCHANGE_LOGIN,
    password: e.EXCHANGE_PASSWORD,
    fileLimit: e.EXCHANGE_FILE_LIMIT,
    maxBytes: e.IMPORT_MAX_BYTES,
    dir: resolve(e.DATA_DIR, 'exchange'),
    media: resolve(e.DATA_DIR, 'media'),
    allowPrivate: e.IMPORT_ALLOW_PRIVATE,
    priceType: e.EXCHANGE_PRICE_TYPE,
    oldPriceType: e.EXCHANGE_OLD_PRICE_TYPE,
    stepMs: e.EXCHANGE_STEP_SECONDS * 1000,
  };
}

const sign = (password: string, login: string, expires: number) => createHmac('sha256', password).update(`${login}:${expires}`).digest('base64url');
const same = sameSecret;

/** The session value checkauth answers: an expiry signed with the password, so every process can check it. */
function sessionValue(login: string, password: string, now = Date.now()): string {
  const expires = Math.floor(now / 1000) + SESSION_HOURS * 3600;
  return `${expires}.${sign(password, login, expires)}`;
}

function validSession(value: string | undefined, login: string, password: string): boolean {
  const [expires, mac] = (value ?? '').split('.');
  const at = Number(expires);
  return Number.isInteger(at) && at * 1000 > Date.now() && mac !== undefined && same(mac, sign(password, login, at));
}

function basicCredentials(request: Request): { login: string; password: string } | undefined {
  const header = request.headers.get('authorization') ?? '';
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
  if (!match?.[1]) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon < 0 ? undefined : { login: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

function cookieValue(request: Request): string | undefined {
  for (const part of (request.headers.get('cookie') ?? '').split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === EXCHANGE_COOKIE) return value.join('=');
  }
  return undefined;
}

/** A file name 1C gives, as a path inside the exchange's folder; undefined when it would leave it. */
function insideFolder(folder: string, filename: string): string | undefined {
  if (!filename || filename.length > 500 || filename.includes('\0')) return undefined;
  const path = resolve(folder, filename.replaceAll('\\', '/').replace(/^\/+/, ''));
  return path.startsWith(folder + sep) ? path : undefined;
}

const folderOf = (kind: Kind) => join(config().dir, kind);

/** The file 1C names, inside the exchange's folder, and the key of its run; a refusal when the name leaves the folder. */
function exchangeFile(kind: Kind, filename: string): { path: string; key: string } | Response {
  const folder = folderOf(kind);
  const path = insideFolder(folder, filename);
  if (!path) return failure(400, `the file name "${filename.slice(0, 100)}" is not a path inside the exchange folder`);
  return { path, key: `job:${kind}:${relative(folder, path)}` };
}

/** mode=file: the part appended to the file (1C cuts a file into parts of file_limit). */
async function receiveFile(request: Request, kind: Kind, filename: string): Promise<Response> {
  const { fileLimit, maxBytes } = config();
  const file = exchangeFile(kind, filename);
  if (file instanceof Response) return file;
  const { path, key } = file;
  if (request.method !== 'POST') return failure(405, 'mode=file takes the file in the body of a POST', { allow: 'POST' });
  const declared = Number(request.headers.get('content-length') ?? '0');
  if (declared > fileLimit) return failure(413, `the part is ${declared} bytes, over file_limit=${fileLimit}`);
  mkdirSync(resolve(path, '..'), { recursive: true });
  const before = existsSync(path) ? statSync(path).size : 0;
  if (before + Math.max(0, declared) > maxBytes) return failure(413, `the file would be over the limit of ${maxBytes} bytes (IMPORT_MAX_BYTES)`);
  if (!request.body) return answer(200, ['success']);
  // Read to its end even when over the limit (the excess is dropped): cancelling a request's body midway
  // throws inside the server's HTTP layer. The adapter's backstop ends any body at ADAPTER_BODY_LIMIT.
  const out = createWriteStream(path, { flags: 'a' });
  let seen = 0;
  let over = false;
  try {
    for await (const chunk of request.body as unknown as AsyncIterable<Uint8Array>) {
      seen += chunk.byteLength;
      if (seen > fileLimit) over = true;
      else if (!out.write(chunk)) await once(out, 'drain');
    }
  } catch (error) {
    if (!/body size limit/i.test((error as Error).message)) throw error;
    over = true;
  } finally {
    await new Promise((done) => out.end(done));
  }
  if (over) {
    // The part is not kept: 1C sends it again, smaller.
    truncateSync(path, before);
    return failure(413, `the part is over file_limit=${fileLimit}`);
  }
  // A file sent again is imported again.
  const database = await getDatabase();
  await database.query('DELETE FROM exchange_state WHERE key = $1', [key]);
  return answer(200, ['success']);
}

/** Archives 1C sent (zip=yes) unpacked where they lie, each once. */
async function unpackArchives(folder: string): Promise<void> {
  if (!existsSync(folder)) return;
  for (const entry of readdirSync(folder)) {
    if (!/\.zip$/i.test(entry)) continue;
    const path = join(folder, entry);
    // Unpacked or refused, the archive is gone: a refused one is reported once, not on every later call.
    try {
      await unzip(path, folder, config().maxBytes);
    } finally {
      rmSync(path, { force: true });
    }
  }
}

const running = new Map<string, Promise<void>>();
/** Files whose run is being started (archives unpacked): a poll meanwhile must not start another. */
const starting = new Set<string>();

async function saveJob(key: string, job: Job): Promise<void> {
  await writeState((await getDatabase()).query, key, job);
}

/** Starts the run of one file in this process; its progress and outcome go to exchange_state. */
function startJob(key: string, run: (progress: (done: number, total: number) => void) => Promise<string>): Promise<void> {
  let last = 0;
  let saving: Promise<void> = Promise.resolve();
  const progress = (done: number, total: number) => {
    if (Date.now() - last < 1000) return;
    last = Date.now();
    saving = saving.then(() => saveJob(key, { status: 'running', done, total, message: '', heartbeat: Date.now() })).catch(() => undefined);
  };
  const job = (async () => {
    await saveJob(key, { status: 'running', done: 0, total: 0, message: '', heartbeat: Date.now() });
    try {
      const message = await run(progress);
      await saving;
      // 1C's catalogue is searchable once the run says it is done, not at the next poll.
      await catalogueChanged();
      await saveJob(key, { status: 'done', done: 1, total: 1, message, heartbeat: Date.now() });
      metrics().importRuns.inc({ kind: 'exchange', outcome: 'done' });
    } catch (error) {
      await saving;
      const known = error instanceof ExchangeFileError;
      if (!known) logger.error({ err: loggableError(error) }, 'exchange run failed');
      metrics().importRuns.inc({ kind: 'exchange', outcome: 'failed' });
      await saveJob(key, {
        status: 'failed',
        done: 0,
        total: 0,
        message: known ? (error as Error).message : 'the run failed; see the shop log',
        heartbeat: Date.now(),
      });
    }
  })().finally(() => running.delete(key));
  running.set(key, job);
  return job;
}

const summaryLine = (summary: Record<string, number>, problems: ImportProblem[]) => {
  const first = problems.find((p) => p.severity === 'error');
  return `${Object.entries(summary)
    .map(([k, v]) => `${k}=${v}`)
    .join(' ')}${first ? `; first error: ${first.id ? `${first.id}: ` : ''}${first.reason}` : ''}`;
};

/** Starts the file's run in this process; a Response when it cannot start (an archive refused, no file). */
async function startRun(kind: Kind, folder: string, filename: string, path: string, key: string, database: Database): Promise<Response | undefined> {
  try {
    await unpackArchives(folder);
  } catch (error) {
    if (error instanceof ImportInputError) return failure(200, error.message.replace(folder + sep, ''));
    throw error;
  }
  if (!existsSync(path) || !statSync(path).isFile()) return failure(404, `no file "${filename.slice(0, 100)}" was sent (mode=file) in this exchange`);
  const { maxBytes, media, allowPrivate, priceType, oldPriceType } = config();
  void startJob(key, async (progress) => {
    if (kind === 'catalog') {
      const result = await applyCatalogueFile(database, path, {
        maxBytes,
        priceTypeName: priceType,
        oldPriceTypeName: oldPriceType,
        photos: { dir: media, allowPrivate },
        onProgress: progress,
      });
      logger.info({ file: relative(folder, path), ...result.summary, waiting: result.waiting }, 'exchange catalogue file applied');
      return summaryLine({ ...result.summary }, result.problems);
    }
    const { applied, problems } = await applyOrdersFile(path);
    return summaryLine({ orders: applied, errors: problems.length }, problems);
  });
  return undefined;
}

/** mode=import: the file's run, started on the first call; progress until it is over, then its outcome. */
async function importStep(kind: Kind, filename: string): Promise<Response> {
  const folder = folderOf(kind);
  const file = exchangeFile(kind, filename);
  if (file instanceof Response) return file;
  const { path, key } = file;
  const database = await getDatabase();
  let job = await readState<Job | null>(database.query, key, null);
  const dead = job?.status === 'running' && !running.has(key) && Date.now() - job.heartbeat > STALE_MS;
  // A poll that comes before the run's first state is written (1C asks again at once) finds no job yet:
  // the run this process already started, or is starting, is that file's run, not a second one applying
  // the same groups and products beside it.
  if ((!job && !running.has(key) && !starting.has(key)) || dead) {
    starting.add(key);
    try {
      const refused = await startRun(kind, folder, filename, path, key, database);
      if (refused) return refused;
    } finally {
      starting.delete(key);
    }
  }
  const own = running.get(key);
  if (own) await Promise.race([own, new Promise((done) => setTimeout(done, config().stepMs))]);
  job = await readState<Job | null>(database.query, key, null);
  if (!job || job.status === 'running') {
    const share = job && job.total > 0 ? `${Math.min(99, Math.floor((100 * job.done) / job.total))}%` : '0%';
    return answer(200, ['progress', `${filename}: ${share}`]);
  }
  if (job.status === 'failed') return failure(200, `${filename}: ${job.message}`);
  return answer(200, ['success', `${filename}: ${job.message}`]);
}

/** The orders document 1C sent, its status changes applied. */
async function applyOrdersFile(path: string): Promise<{ applied: number; problems: ImportProblem[] }> {
  const problems: ImportProblem[] = [];
  const documents: CmlDocument[] = [];
  try {
    for await (const event of readCommerceMl(createReadStream(path), { properties: {}, priceTypes: {} }, problems, emptyHeader()))
      if (event.kind === 'documents') documents.push(...event.documents);
  } catch (error) {
    throw asFileError(error);
  }
  return { applied: await applyOrderDocuments(documents, problems), problems };
}

function initFolder(kind: Kind): void {
  const folder = folderOf(kind);
  rmSync(folder, { recursive: true, force: true });
  mkdirSync(folder, { recursive: true });
}

/** Answers one call of the exchange. */
export async function exchange(request: Request, clientAddress: string): Promise<Response> {
  const { login, password, fileLimit } = config();
  if (!login || !password)
    return new Response('Not found\n', { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' } });
  // 1C reads (GET) and sends files (POST); nothing else is part of the protocol.
  if (request.method !== 'GET' && request.method !== 'POST' && request.method !== 'HEAD')
    return failure(405, `the exchange takes GET and POST, not ${request.method}`, { allow: 'GET, POST, HEAD' });
  const url = new URL(request.url);
  const type = url.searchParams.get('type') ?? '';
  const mode = url.searchParams.get('mode') ?? '';
  const filename = url.searchParams.get('filename') ?? '';
  if (type !== 'catalog' && type !== 'sale') return failure(400, `unknown type "${type.slice(0, 40)}": the exchange takes type=catalog and type=sale`);

  // Sign-in: Basic on checkauth (and on any call, as some clients send it each time), else the session.
  const limits: Limit[] = [{ key: `exchange:${clientAddress}`, max: 10, windowSeconds: 900 }];
  const given = basicCredentials(request);
  const session = cookieValue(request) ?? url.searchParams.get('sessid') ?? undefined;
  let signedIn: boolean;
  if (given) {
    const wait = await blockedFor(limits);
    if (wait > 0) return failure(429, `too many failed sign-ins: try again in ${wait} s`, { 'retry-after': String(wait) });
    signedIn = same(given.login, login) && same(given.password, password);
    if (!signedIn) {
      await countFailure(limits);
      // No address or name in the log (personal data); the throttle row keeps the count.
      logger.warn('exchange sign-in failed');
      return failure(401, 'wrong login or password (EXCHANGE_LOGIN, EXCHANGE_PASSWORD)', { 'www-authenticate': 'Basic realm="1C exchange", charset="UTF-8"' });
    }
  } else signedIn = mode !== 'checkauth' && validSession(session, login, password);
  if (!signedIn)
    return failure(401, mode === 'checkauth' ? 'sign in with HTTP Basic' : 'no exchange session: call mode=checkauth first', {
      'www-authenticate': 'Basic realm="1C exchange", charset="UTF-8"',
    });

  switch (mode) {
    case 'checkauth': {
      const value = sessionValue(login, password);
      return answer(200, ['success', EXCHANGE_COOKIE, value, `sessid=${value}`, `timestamp=${Math.floor(Date.now() / 1000)}`], {
        'set-cookie': `${EXCHANGE_COOKIE}=${value}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${SESSION_HOURS * 3600}`,
      });
    }
    case 'init': {
      const database = await getDatabase();
      initFolder(type);
      await database.query('DELETE FROM exchange_state WHERE key LIKE $1', [`job:${type}:%`]);
      return answer(200, ['zip=yes', `file_limit=${fileLimit}`, `sessid=${session ?? ''}`, `version=${SALE_VERSION}`]);
    }
    case 'file': {
      const response = await receiveFile(request, type, filename);
      // Orders from 1C are applied as soon as the document is whole (1C sends no mode=import for them).
      if (type === 'sale' && response.status === 200 && /\.xml$/i.test(filename)) return saleFileArrived(filename);
      return response;
    }
    case 'import':
      return importStep(type, filename);
    case 'query': {
      if (type !== 'sale') return failure(400, 'mode=query is of type=sale');
      const { xml } = await ordersDocument();
      return new Response(encodeCp1251(xml, 'xml') as Uint8Array<ArrayBuffer>, {
        status: 200,
        headers: { 'content-type': 'application/xml; charset=windows-1251', 'cache-control': 'no-store' },
      });
    }
    case 'success': {
      if (type !== 'sale') return answer(200, ['success']);
      await confirmOrdersSent();
      return answer(200, ['success']);
    }
    // What 1C 8.3's exchange sends at the end of a full exchange: nothing is left to do.
    case 'deactivate':
    case 'complete':
      return answer(200, ['success']);
    default:
      return failure(400, `unknown mode "${mode.slice(0, 40)}"`);
  }
}

/** A part of an orders document arrived: applied once the document is whole; success meanwhile. */
async function saleFileArrived(filename: string): Promise<Response> {
  const file = exchangeFile('sale', filename);
  if (file instanceof Response) return file;
  try {
    const { applied, problems } = await applyOrdersFile(file.path);
    logger.info({ file: filename, orders: applied, errors: problems.length }, 'exchange orders file applied');
    return answer(200, ['success', `${filename}: ${summaryLine({ orders: applied, errors: problems.length }, problems)}`]);
  } catch (error) {
    // Cut short: the next part completes it.
    if (error instanceof ExchangeFileError && /cut short/.test(error.message)) return answer(200, ['success']);
    if (error instanceof ExchangeFileError) return failure(200, `${filename}: ${error.message}`);
    throw error;
  }
}
