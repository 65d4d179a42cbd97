// A CDN in front of the shop (docs/operations.md "A CDN in front"): the purges a change owes, sent by one
// adapter (Varnish's xkey, Cloudflare's purge-by-tag API, or none). The database's triggers write each
// changed thing's cache tags to the `cdn_purges` outbox in the transaction of the change (migration
// 0027), whoever made it: the console, an import, 1C, an order selling out a size. The `purge-cdn` job
// reads them, sends each tag once and deletes what was sent; a failed send stays for the next run, which
// waits longer each time. A tag is sent only once every live process answers from a newer catalogue
// (`cdn_origins`, written here by each process): the cache's next fetch then never meets a process still
// showing the page as it was.
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { catalogueIndexVersion, getCatalogIndex } from '~/features/catalog/read-model.server.ts';
import { selectRows } from '~/lib/db/client.ts';
import { getDatabase, getDb } from '~/lib/db/index.ts';
import { env } from '~/lib/env.ts';
import { buildId, cacheTag } from '~/lib/http/cache-tags.ts';
import { loggableError, logger } from '~/lib/log.ts';
import { metrics, readAtScrape } from '~/lib/metrics.ts';
import { beforeExit, STOP_ORDER, whenReady } from '~/lib/runtime.ts';

/** The outbox's name for "everything": a new build's pages name new scripts. */
export const EVERYTHING = '*';

export interface PurgeAdapter {
  readonly kind: 'xkey' | 'cloudflare';
  /** Tags one request may carry. */
  readonly batch: number;
  /** Purges these tags (EVERYTHING for all), or throws; `retryAfterMs` on the error when the other side said. */
  purge(tags: readonly string[]): Promise<void>;
}

export class PurgeRefused extends Error {
  readonly retryAfterMs: number | undefined;
  constructor(message: string, retryAfterMs?: number) {
    super(message);
    this.retryAfterMs = retryAfterMs;
  }
}

const TIMEOUT_MS = 10_000;

/** Varnish with varnish-modules: `PURGE /` with the tags in an xkey header, to every cache listed. */
export function xkeyAdapter(urls: readonly string[]): PurgeAdapter {
  return {
    kind: 'xkey',
    // Varnish takes request headers up to 8 KB (http_req_hdr_len): 100 tags of ~12 bytes stay far below.
    batch: 100,
    async purge(tags) {
      const keys = tags.map((t) => (t === EVERYTHING ? cacheTag.shop : t)).join(' ');
      await Promise.all(
        urls.map(async (url) => {
          const response = await fetch(new URL('/', url), { method: 'PURGE', headers: { xkey: keys }, signal: AbortSignal.timeout(TIMEOUT_MS) });
          await response.arrayBuffer().catch(() => undefined);
          if (!response.ok) throw new PurgeRefused(`${new URL(url).host} answered ${response.status}`, retryAfter(response));
        }),
      );
    },
  };
}

/**
 * Cloudflare's purge API (POST /zones/{zone}/purge_cache): up to 100 tags a request, and a token bucket
 * per account (CLOUDFLARE_PURGES_PER_MINUTE, CLOUDFLARE_PURGE_BURST): requests wait for a token here
 * rather than meet a 429, and a 429 all the same is waited out by its Retry-After.
 */
export function cloudflareAdapter(options: { apiUrl: string; zoneId: string; token: string; perMinute: number; burst: number }): PurgeAdapter {
  const bucket = { tokens: options.burst, at: Date.now() };
  const take = async () => {
    for (;;) {
      const now = Date.now();
      bucket.tokens = Math.min(options.burst, bucket.tokens + ((now - bucket.at) / 60_000) * options.perMinute);
      bucket.at = now;
      if (bucket.tokens >= 1) {
        bucket.tokens -= 1;
        return;
      }
      const waitMs = ((1 - bucket.tokens) / options.perMinute) * 60_000;
      // A long wait is the next run's: the job must not hold its turn for minutes.
      if (waitMs > 2_000) throw new PurgeRefused('the purge rate of the Cloudflare plan is used up', waitMs);
      await new Promise((r) => setTimeout(r, waitMs));
    }
  };
  return {
    kind: 'cloudflare',
    batch: 100,
    async purge(tags) {
      await take();
      const body = tags.includes(EVERYTHING) ? { purge_everything: true } : { tags };
      const response = await fetch(`${options.apiUrl.replace(/\/$/, '')}/zones/${options.zoneId}/purge_cache`, {
        method: 'POST',
        headers: { authorization: `Bearer ${options.token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
      const answer = (await response.json().catch(() => null)) as { success?: boolean; errors?: { code?: number; message?: string }[] } | null;
      if (response.status === 429) {
        // Our count was wrong (another client on the account): empty the bucket too.
        bucket.tokens = 0;
        throw new PurgeRefused('Cloudflare answered 429 (rate limited)', retryAfter(response) ?? 60_000);
      }
      if (!response.ok || answer?.success !== true) {
        const reason = answer?.errors?.map((e) => `${e.code ?? '?'} ${e.message ?? ''}`.trim()).join('; ') || `HTTP ${response.status}`;
        throw new PurgeRefused(`Cloudflare refused the purge: ${reason}`, retryAfter(response));
      }
    },
  };
}

function retryAfter(response: Response): number | undefined {
  const value = response.headers.get('retry-after');
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

/** The adapter the environment names, or undefined for none. */
export function configuredAdapter(): PurgeAdapter | undefined {
  const e = env();
  if (e.CDN_PURGE === 'xkey') return xkeyAdapter(e.CDN_PURGE_URLS ?? []);
  if (e.CDN_PURGE === 'cloudflare')
    return cloudflareAdapter({
      apiUrl: e.CLOUDFLARE_API_URL,
      zoneId: e.CLOUDFLARE_ZONE_ID ?? '',
      token: e.CLOUDFLARE_API_TOKEN ?? '',
      perMinute: e.CLOUDFLARE_PURGES_PER_MINUTE,
      burst: e.CLOUDFLARE_PURGE_BURST,
    });
  return undefined;
}

// ---------------------------------------------------------------- the processes' catalogue versions

// A process that has not said its version for this long is taken for stopped: its row no longer holds purges back.
const ORIGIN_SILENT_SECONDS = 15;
const ORIGIN_EVERY_MS = 500;
const ORIGIN_REFRESH_MS = 5_000;
const PROCESS = `${process.pid}-${randomUUID().slice(0, 8)}`;

const origin = { timer: undefined as ReturnType<typeof setTimeout> | undefined, said: -1, saidAt: 0, stopped: false };

/** Says this process's catalogue version when it moved (and every few seconds), asking for a newer index first. */
async function sayVersion(): Promise<void> {
  // The index looks at the database every 2 s when asked: asking here keeps an idle process current too.
  await getCatalogIndex();
  const version = catalogueIndexVersion();
  if (version === undefined || (version === origin.said && Date.now() - origin.saidAt < ORIGIN_REFRESH_MS)) return;
  const db = await getDb();
  await db.execute(sql`INSERT INTO cdn_origins (process, version, seen_at) VALUES (${PROCESS}, ${version}, now())
    ON CONFLICT (process) DO UPDATE SET version = excluded.version, seen_at = excluded.seen_at`);
  origin.said = version;
  origin.saidAt = Date.now();
}

function startOrigin(): void {
  const tick = () => {
    origin.timer = undefined;
    void sayVersion()
      .catch((error: unknown) => logger.warn({ err: loggableError(error) }, 'cdn: could not say the catalogue version'))
      .finally(() => {
        if (!origin.stopped) origin.timer = setTimeout(tick, ORIGIN_EVERY_MS).unref();
      });
  };
  tick();
}

async function stopOrigin(): Promise<void> {
  origin.stopped = true;
  if (origin.timer) clearTimeout(origin.timer);
  // Gone at once rather than after ORIGIN_SILENT_SECONDS: purges do not wait on a stopped process.
  await (await getDb()).execute(sql`DELETE FROM cdn_origins WHERE process = ${PROCESS}`).catch(() => undefined);
}

/** A build this database has not seen purges everything once: pages cached before it name the old scripts. */
async function purgeOnNewBuild(): Promise<void> {
  const id = buildId();
  if (!id) return;
  const db = await getDb();
  const [seen] = await selectRows<{ value: unknown }>(db, sql`SELECT value FROM app_meta WHERE key = 'cdn_build'`);
  if (seen?.value === id) return;
  await db.transaction(async (tx) => {
    // Version -1: no catalogue change to wait for, only this build, which is serving.
    await tx.execute(sql`INSERT INTO cdn_purges (tag, version) VALUES (${EVERYTHING}, -1)`);
    await tx.execute(sql`INSERT INTO app_meta (key, value) VALUES ('cdn_build', ${JSON.stringify(id)}::jsonb)
      ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = now()`);
  });
}

// ---------------------------------------------------------------- the purge job

// Rows one run reads: tens of thousands of tags of a big price list go out over several runs.
const ROWS_PER_RUN = 5_000;
const BACKOFF_MS = [1_000, 2_000, 5_000, 15_000, 60_000, 300_000];
const state = { failures: 0, notBefore: 0, lastError: '' };

/**
 * One run: the tags every live process has caught up with, each once, oldest first; answers how many
 * tags were sent (or dropped, with no adapter). Failed sends stay queued and the next try waits longer.
 */
export async function purgeQueued(adapter: PurgeAdapter | undefined = configuredAdapter(), now = Date.now()): Promise<number> {
  if (now < state.notBefore) return 0;
  const db = await getDb();
  let floor = Number.MAX_SAFE_INTEGER;
  if (adapter) {
    const [live] = await selectRows<{ floor: string | null }>(
      db,
      sql`SELECT min(version)::text AS floor FROM cdn_origins WHERE seen_at > now() - make_interval(secs => ${ORIGIN_SILENT_SECONDS})`,
    );
    // No process has said its version yet (this one has just started): the next run.
    if (live?.floor == null) return 0;
    floor = Number(live.floor);
  }
  const rows = await selectRows<{ id: string; tag: string }>(
    db,
    sql`SELECT id::text AS id, tag FROM cdn_purges WHERE version < ${floor} ORDER BY id LIMIT ${ROWS_PER_RUN}`,
  );
  if (rows.length === 0) return 0;
  const byTag = new Map<string, string[]>();
  for (const row of rows) byTag.set(row.tag, [...(byTag.get(row.tag) ?? []), row.id]);
  const done = async (tags: readonly string[]) => {
    const ids = tags.flatMap((t) => byTag.get(t) ?? []);
    await db.execute(sql`DELETE FROM cdn_purges WHERE id = ANY(${`{${ids.join(',')}}`}::bigint[])`);
  };
  const m = metrics();
  if (!adapter) {
    await done([...byTag.keys()]);
    return 0;
  }
  // Everything purged makes every other tag of the run needless.
  const tags = byTag.has(EVERYTHING) ? [EVERYTHING] : [...byTag.keys()];
  let sent = 0;
  try {
    for (let i = 0; i < tags.length; i += adapter.batch) {
      const batch = tags.slice(i, i + adapter.batch);
      await adapter.purge(batch);
      m.cdnPurgeRequests.inc({ adapter: adapter.kind, outcome: 'ok' });
      await done(batch);
      sent += batch.length;
    }
    if (byTag.has(EVERYTHING)) await done([...byTag.keys()]);
    state.failures = 0;
    state.notBefore = 0;
  } catch (error) {
    m.cdnPurgeRequests.inc({ adapter: adapter.kind, outcome: 'failed' });
    const wait = BACKOFF_MS[Math.min(state.failures, BACKOFF_MS.length - 1)] as number;
    state.failures += 1;
    state.notBefore = Date.now() + Math.max(wait, error instanceof PurgeRefused ? (error.retryAfterMs ?? 0) : 0);
    state.lastError = error instanceof Error ? error.message : String(error);
    logger.warn(
      { err: loggableError(error), adapter: adapter.kind, waiting: tags.length - sent, retryInMs: state.notBefore - Date.now() },
      'cdn: purge failed',
    );
  }
  m.cdnPurgedTags.inc({ adapter: adapter.kind }, sent);
  return sent;
}

/** For tests: forget the back-off. */
export function resetPurgeBackoff(): void {
  Object.assign(state, { failures: 0, notBefore: 0, lastError: '' });
}

readAtScrape('gauge', 'shop_cdn_purges_waiting', 'Cache tags queued for the CDN and not yet purged', [], async () => {
  const [row] = await selectRows<{ n: number }>(await getDb(), sql`SELECT count(*)::int AS n FROM cdn_purges`);
  return [{ value: row?.n ?? 0 }];
});
readAtScrape('gauge', 'shop_cdn_purge_oldest_seconds', 'Age of the oldest cache tag waiting to be purged (0 when none waits)', [], async () => {
  const [row] = await selectRows<{ oldest: number | null }>(
    await getDb(),
    sql`SELECT extract(epoch FROM now() - min(queued_at))::float8 AS oldest FROM cdn_purges`,
  );
  return [{ value: row?.oldest ?? 0 }];
});
readAtScrape('gauge', 'shop_cdn_purge_failures', 'Purge attempts failed in a row (0 after a success)', [], () => [{ value: state.failures }]);

/** Starts saying this process's catalogue version (when a CDN is purged) and queues the new build's purge. */
export function startCdn(): void {
  if (env().CDN_PURGE === 'none') return;
  startOrigin();
  void getDatabase()
    .then(() => purgeOnNewBuild())
    .catch((error: unknown) => logger.warn({ err: loggableError(error) }, 'cdn: could not queue the new build’s purge'));
}

whenReady('cdn', startCdn);
beforeExit('cdn', STOP_ORDER.jobs, stopOrigin);
