// The shop's own signing secret (ORDER_SECRET, or one made once and kept in the database so every process
// signs alike) and the keys derived from it per purpose: the order result pages' hashes, the delivery
// quotes' seals, the mails' unsubscribe links.
import { createHmac, randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { selectRows } from './db/client.ts';
import { getDb } from './db/index.ts';
import { env } from './env.ts';

let secret: Promise<string> | undefined;

/** ORDER_SECRET, or one made once and kept in the database so every process signs alike. */
export function shopSecret(): Promise<string> {
  secret ??= (async () => {
    const configured = env().ORDER_SECRET;
    if (configured) return configured;
    const db = await getDb();
    await db.execute(
      sql`INSERT INTO app_meta (key, value) VALUES ('order_secret', to_jsonb(${randomBytes(32).toString('hex')}::text)) ON CONFLICT (key) DO NOTHING`,
    );
    const [row] = await selectRows<{ value: string }>(db, sql`SELECT value #>> '{}' AS value FROM app_meta WHERE key = 'order_secret'`);
    if (!row) throw new Error('order secret missing');
    return row.value;
  })().catch((error: unknown) => {
    secret = undefined;
    throw error;
  });
  return secret;
}

/** A key of the shop's own for one purpose, derived from the secret. */
export async function purposeKey(purpose: string): Promise<Buffer> {
  return createHmac('sha256', await shopSecret())
    .update(`purpose:${purpose}`)
    .digest();
}
