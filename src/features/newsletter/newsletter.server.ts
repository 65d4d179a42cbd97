import { getDb } from '~/lib/db/index.ts';
import { newsletterSubscribers } from '~/lib/db/schema.ts';

export const NEWSLETTER_LIMIT = { max: 10, windowSeconds: 600 } as const;

/** Subscribes an address; the same address (in any case) again is a no-op. Returns whether it was new. */
export async function subscribe(email: string, ip: string): Promise<boolean> {
  const db = await getDb();
  const rows = await db
    .insert(newsletterSubscribers)
    .values({ email, ip, source: 'footer' })
    // The only unique key besides the id is lower(email): a conflict means already subscribed.
    .onConflictDoNothing()
    .returning({ id: newsletterSubscribers.id });
  return rows.length > 0;
}
