// A carrier's last error, kept for the console's delivery settings (delivery.setup.server.ts): written from
// wherever a carrier call fails — checkout's questions, shipments, the checks — without importing those.
import { sql } from 'drizzle-orm';
import { getDb } from '~/lib/db/index.ts';
import type { CarrierId } from './delivery.ts';

export const ERROR_KEY = (id: CarrierId) => `carrier-error:${id}`;

/** An error's words, short: the carrier's or the transport's about a call, never a shopper's. */
export const words = (error: unknown) => (error instanceof Error ? error.message : 'error').slice(0, 300);

export async function keep(key: string, value: unknown): Promise<void> {
  await (
    await getDb()
  ).execute(sql`INSERT INTO app_meta (key, value) VALUES (${key}, ${JSON.stringify(value)}::jsonb)
      ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, updated_at = now()`);
}

const noted = new Map<CarrierId, number>();

/**
 * A carrier's failure, kept as its last error (at most every 30 s per process and carrier: a carrier that
 * is down fails every checkout's question).
 */
export function noteCarrierError(id: CarrierId, operation: string, error: unknown): void {
  const now = Date.now();
  if (now - (noted.get(id) ?? 0) < 30_000) return;
  noted.set(id, now);
  void keep(ERROR_KEY(id), { at: new Date(now).toISOString(), operation, message: words(error) }).catch(() => undefined);
}
