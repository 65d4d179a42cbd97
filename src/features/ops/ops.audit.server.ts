// The audit log (issue 24, docs/decisions/019): one append-only line per operator action — who, from
// where, what, and the values before and after. Written where the action happens (an order's change in
// orders.actions.server.ts, an operator's in ops.server.ts), whoever asked for it: the console, the
// operator token's calls, 1C.
import { sql } from 'drizzle-orm';
import { selectRows } from '~/lib/db/client.ts';
import { getDb } from '~/lib/db/index.ts';

/** Who acts, and from where: what the audit log records. */
export interface Actor {
  operatorId: number | null;
  /** The operator's e-mail; 'operator-token' for the token's calls, '1c' for the exchange. */
  name: string;
  ip: string;
}

/** One line of the audit log: append-only (migration 0013 refuses changes). */
export async function audit(actor: Actor, action: string, objectType: string, objectId: string, before: unknown, after: unknown): Promise<void> {
  const db = await getDb();
  const json = (value: unknown) => (value === null || value === undefined ? null : JSON.stringify(value));
  await db.execute(
    sql`INSERT INTO audit_log (operator_id, actor, ip, action, object_type, object_id, before, after)
        VALUES (${actor.operatorId}, ${actor.name}, ${actor.ip}, ${action}, ${objectType}, ${objectId}, ${json(before)}::jsonb, ${json(after)}::jsonb)`,
  );
}

export interface AuditLine extends Record<string, unknown> {
  id: number;
  actor: string;
  ip: string;
  action: string;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  at: Date;
}

/** What was done to one object, oldest first (an order's notes and changes on its page). */
export async function auditOf(objectType: string, objectId: string): Promise<AuditLine[]> {
  const db = await getDb();
  return selectRows<AuditLine>(
    db,
    sql`SELECT id, actor, ip, action, before, after, at FROM audit_log WHERE object_type = ${objectType} AND object_id = ${objectId} ORDER BY at, id LIMIT 500`,
  );
}
