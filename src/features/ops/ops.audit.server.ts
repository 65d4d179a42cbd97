// The audit log (issue 24, docs/decisions/019): one append-only line per operator action — who, from
// where, what, and the values before and after. Written where the action happens (an order's change in
// fulfilment/fulfilment.server.ts, an operator's in ops.server.ts), whoever asked for it: the console, the
// operator token's calls, 1C.
import { sql, type SQL } from 'drizzle-orm';
import { z } from '~/lib/zod.ts';
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

export const AUDIT_PAGE_SIZE = 100;
export const AUDIT_OBJECTS = [
  'order',
  'buyout',
  'customer',
  'product',
  'search',
  'delivery',
  'privacy',
  'import',
  'operator',
  'promotion',
  'gift',
  'review',
] as const;

export const auditQuerySchema = z.object({
  actor: z.string().trim().max(254).optional().catch(undefined),
  object: z.enum(AUDIT_OBJECTS).optional().catch(undefined),
  id: z
    .string()
    .trim()
    .max(40)
    .regex(/^[\w-]+$/)
    .optional()
    .catch(undefined),
  after: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER).optional().catch(undefined),
});
export type AuditQuery = z.infer<typeof auditQuerySchema>;

export interface AuditEntry extends AuditLine {
  object_type: string;
  object_id: string;
}

/** The audit log for admins, newest first, by who, what kind of object and which. */
export async function auditLog(query: AuditQuery): Promise<{ rows: AuditEntry[]; next: number | null }> {
  const where: SQL[] = [];
  if (query.actor) where.push(sql`lower(actor) = ${query.actor.toLowerCase()}`);
  if (query.object) where.push(sql`object_type = ${query.object}`);
  if (query.id) where.push(sql`object_id = ${query.id}`);
  if (query.after) where.push(sql`id < ${query.after}`);
  const rows = await selectRows<AuditEntry>(
    await getDb(),
    sql`SELECT id, actor, ip, action, object_type, object_id, before, after, at FROM audit_log
        WHERE ${where.length ? sql.join(where, sql` AND `) : sql`TRUE`} ORDER BY id DESC LIMIT ${AUDIT_PAGE_SIZE + 1}`,
  );
  const more = rows.length > AUDIT_PAGE_SIZE;
  const page = rows.slice(0, AUDIT_PAGE_SIZE);
  return { rows: page, next: more ? Number(page.at(-1)?.id ?? 0) || null : null };
}
