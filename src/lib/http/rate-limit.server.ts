// Fixed-window rate limits kept in the database, so every server instance counts the same hits
// (DESIGN §4, §10). One atomic upsert per hit.
import { sql } from 'drizzle-orm';
import { selectRows } from '../db/client.ts';
import { getDb } from '../db/index.ts';
import { tooManyRequests } from './errors.ts';

export interface Limit {
  /** What is limited and for whom, e.g. `buyout:203.0.113.7`. */
  key: string;
  max: number;
  windowSeconds: number;
}

export async function hit(limit: Limit): Promise<{ allowed: boolean; retryAfterSeconds: number }> {
  const db = await getDb();
  const [row] = await selectRows<{ count: number; retry: number }>(
    db,
    sql`
    INSERT INTO throttles (key, count, reset_at) VALUES (${limit.key}, 1, now() + make_interval(secs => ${limit.windowSeconds}))
    ON CONFLICT (key) DO UPDATE SET
      count = CASE WHEN throttles.reset_at <= now() THEN 1 ELSE throttles.count + 1 END,
      reset_at = CASE WHEN throttles.reset_at <= now() THEN now() + make_interval(secs => ${limit.windowSeconds}) ELSE throttles.reset_at END
    RETURNING count, ceil(extract(epoch FROM reset_at - now()))::int AS retry`,
  );
  const count = Number(row?.count ?? 0);
  return { allowed: count <= limit.max, retryAfterSeconds: Math.max(1, Number(row?.retry ?? limit.windowSeconds)) };
}

/** Throws a 429 with Retry-After once the limit is used up. */
export async function enforce(limit: Limit): Promise<void> {
  const result = await hit(limit);
  if (!result.allowed) throw tooManyRequests(result.retryAfterSeconds);
}

/**
 * Seconds until every one of the limits allows another try, 0 when none is used up: a check that counts
 * nothing, for limits that count only failures (a login is counted when it fails, DESIGN §4).
 */
export async function blockedFor(limits: Limit[]): Promise<number> {
  if (limits.length === 0) return 0;
  const db = await getDb();
  const rows = await selectRows<{ key: string; count: number; retry: number }>(
    db,
    sql`SELECT key, count, ceil(extract(epoch FROM reset_at - now()))::int AS retry FROM throttles
        WHERE key IN (${sql.join(
          limits.map((l) => sql`${l.key}`),
          sql`, `,
        )}) AND reset_at > now()`,
  );
  let wait = 0;
  for (const row of rows) {
    const limit = limits.find((l) => l.key === row.key);
    if (limit && Number(row.count) >= limit.max) wait = Math.max(wait, Math.max(1, Number(row.retry)));
  }
  return wait;
}

/** Throws a 429 with Retry-After while any of the limits is used up, without counting this try. */
export async function refuseWhileBlocked(limits: Limit[]): Promise<void> {
  const wait = await blockedFor(limits);
  if (wait > 0) throw tooManyRequests(wait);
}

/** Counts one failure against each limit (one statement per key, each atomic). */
export async function countFailure(limits: Limit[]): Promise<void> {
  for (const limit of limits) await hit(limit);
}

/** Housekeeping: counters whose window and block have both ended (a new hit starts afresh anyway). */
export async function deleteLapsedThrottles(): Promise<number> {
  const db = await getDb();
  const gone = await selectRows(db, sql`DELETE FROM throttles WHERE reset_at < now() AND (blocked_until IS NULL OR blocked_until < now()) RETURNING key`);
  return gone.length;
}
