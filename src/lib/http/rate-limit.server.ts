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
