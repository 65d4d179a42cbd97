// The console's promotions (issue 56, managers; docs/promotions.md "The console"): the list, one
// promotion's form, its codes one by one or in a batch, and the batch as CSV. Every write is audited,
// forgets this process's automatic promotions at once and moves the catalogue's version, so the other
// processes and the storefront's prices follow within seconds.
import { randomInt } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { selectRows } from '~/lib/db/client.ts';
import { getDb } from '~/lib/db/index.ts';
import { HttpError } from '~/lib/http/errors.ts';
import { audit, type Actor } from '~/features/ops/ops.audit.server.ts';
import { getDeliveryOptions } from '~/features/content/content.server.ts';
import { catalogueChanged } from '~/features/catalog/read-model.server.ts';
import { forgetPromotions, normalizeCode, type PromotionFields } from '../promotions/promotions.server.ts';
import type { PromotionRule, PromotionTarget } from '../promotions/promotions.ts';
import { CODE_BATCH_MAX, type PromotionCodesAction, type PromotionForm, type PromotionStatus } from '../promotions/promotions.schema.ts';

export interface ConsolePromotionRow extends Omit<PromotionFields, 'starts_at' | 'ends_at'>, Record<string, unknown> {
  status: PromotionStatus;
  starts_at: Date | null;
  ends_at: Date | null;
  codes: number;
  updated_at: Date;
}

/** Whether a promotion acts now, will, has ended, or is set aside: what the list shows beside its status. */
export type PromotionPhase = 'running' | 'scheduled' | 'ended' | 'used_up' | 'paused' | 'archived';

export function phaseOf(row: Pick<ConsolePromotionRow, 'status' | 'starts_at' | 'ends_at' | 'uses' | 'limit_total'>, now = new Date()): PromotionPhase {
  if (row.status !== 'active') return row.status;
  if (row.ends_at && new Date(row.ends_at) <= now) return 'ended';
  if (row.starts_at && new Date(row.starts_at) > now) return 'scheduled';
  if (row.limit_total !== null && row.uses >= row.limit_total) return 'used_up';
  return 'running';
}

/** The list's tabs: what is set up (active and paused) or put away. */
export type PromotionsTab = 'current' | 'archived';

export async function consolePromotions(tab: PromotionsTab): Promise<{ rows: ConsolePromotionRow[]; counts: Record<PromotionsTab, number> }> {
  const db = await getDb();
  const rows = await selectRows<ConsolePromotionRow>(
    db,
    sql`SELECT p.*, (SELECT count(*)::int FROM promotion_codes c WHERE c.promotion_id = p.id) AS codes
          FROM promotions p
         WHERE ${tab === 'archived' ? sql`p.status = 'archived'` : sql`p.status <> 'archived'`}
         ORDER BY p.id DESC LIMIT 500`,
  );
  const [counts] = await selectRows<{ current: number; archived: number }>(
    db,
    sql`SELECT count(*) FILTER (WHERE status <> 'archived')::int AS current, count(*) FILTER (WHERE status = 'archived')::int AS archived FROM promotions`,
  );
  return { rows, counts: { current: counts?.current ?? 0, archived: counts?.archived ?? 0 } };
}

export interface PromotionChoices {
  categories: { id: number; name: string; level: number }[];
  brands: { id: number; name: string }[];
  /** The delivery ways a delivery promotion may name: the editors' methods and the carriers' two. */
  methods: { id: string; name: string }[];
}

/** What a promotion's form offers to tick: categories in the menu's order, brands by name, delivery ways. */
export async function promotionChoices(): Promise<PromotionChoices> {
  const db = await getDb();
  const categories = await selectRows<{ id: number; name: string; level: number }>(
    db,
    sql`WITH RECURSIVE tree(id, name, level, path) AS (
          SELECT id, name, 0, ARRAY[sort, id] FROM categories WHERE parent_id IS NULL
          UNION ALL SELECT c.id, c.name, t.level + 1, t.path || ARRAY[c.sort, c.id] FROM categories c JOIN tree t ON c.parent_id = t.id
        )
        SELECT id, name, level FROM tree ORDER BY path LIMIT 2000`,
  );
  const brands = await selectRows<{ id: number; name: string }>(db, sql`SELECT id, name FROM brands ORDER BY lower(name) LIMIT 5000`);
  const editors = (await getDeliveryOptions()).map((o) => ({ id: o.id, name: o.name }));
  const carriers = [
    { id: 'pickup', name: 'pickup' },
    { id: 'courier', name: 'courier' },
  ].filter((c) => !editors.some((o) => o.id === c.id));
  return { categories, brands, methods: [...editors, ...carriers] };
}

export interface PromotionCode extends Record<string, unknown> {
  code: string;
  limit_total: number | null;
  uses: number;
  created_at: Date;
}

export interface ConsolePromotion {
  promotion: ConsolePromotionRow;
  /** The newest codes (the CSV has them all). */
  codes: PromotionCode[];
  choices: PromotionChoices;
}

/** The codes a promotion's page lists; the rest are in its CSV. */
export const CODES_SHOWN = 50;

export async function consolePromotion(id: number): Promise<ConsolePromotion | null> {
  const db = await getDb();
  const [promotion] = await selectRows<ConsolePromotionRow>(
    db,
    sql`SELECT p.*, (SELECT count(*)::int FROM promotion_codes c WHERE c.promotion_id = p.id) AS codes FROM promotions p WHERE p.id = ${id}`,
  );
  if (!promotion) return null;
  const codes = await selectRows<PromotionCode>(
    db,
    sql`SELECT code, limit_total, uses, created_at FROM promotion_codes WHERE promotion_id = ${id} ORDER BY id DESC LIMIT ${CODES_SHOWN}`,
  );
  return { promotion, codes, choices: await promotionChoices() };
}

/** The ids ticked in the form as `<prefix><id>`: numbers only, each once. */
const ticked = (form: Record<string, unknown>, prefix: string): string[] =>
  Object.keys(form)
    .filter((name) => name.startsWith(prefix) && form[name] === 'on')
    .map((name) => name.slice(prefix.length));

/** The rule the form describes; the schema has checked that each kind's values are there. */
function ruleOf(form: PromotionForm, methods: string[]): PromotionRule {
  const percent = form.percent ?? 100;
  const threshold = form.threshold ?? 0;
  switch (form.kind) {
    case 'percent':
      return { kind: 'percent', percent };
    case 'amount':
      return { kind: 'amount', amount: form.amount ?? 0 };
    case 'buy_get':
      return { kind: 'buy_get', buy: form.buy ?? 1, get: form.get ?? 1, percent };
    case 'order_percent':
      return { kind: 'order_percent', percent, threshold };
    case 'order_amount':
      return { kind: 'order_amount', amount: form.amount ?? 0, threshold };
    case 'delivery':
      return { kind: 'delivery', percent, threshold, methods };
  }
}

/** The form's target, each id checked against what exists (an unknown one is the form's message, not a row). */
async function targetOf(form: PromotionForm, choices: PromotionChoices): Promise<PromotionTarget> {
  // Sizes narrow either choice (a sale of the end sizes on everything, or on one brand).
  const sizes = form.sizes.length > 0 ? { sizes: form.sizes } : {};
  if (form.applies === 'all') return { all: true, productIds: [], categoryIds: [], brandIds: [], ...sizes };
  const known = (ids: string[], list: readonly { id: number }[]) => ids.map(Number).filter((id) => list.some((c) => c.id === id));
  const categoryIds = known(ticked(form, 'category_'), choices.categories);
  const brandIds = known(ticked(form, 'brand_'), choices.brands);
  const productIds = form.products;
  if (productIds.length > 0) {
    const found = await selectRows<{ id: number }>(
      await getDb(),
      sql`SELECT id FROM products WHERE id IN (${sql.join(
        productIds.map((id) => sql`${id}`),
        sql`, `,
      )})`,
    );
    const missing = productIds.filter((id) => !found.some((row) => Number(row.id) === id));
    if (missing.length > 0) throw new HttpError(422, 'ops.promotion.error.unknownProducts', undefined, undefined, { ids: missing.slice(0, 10).join(', ') });
  }
  if (categoryIds.length + brandIds.length + productIds.length === 0) throw new HttpError(422, 'ops.promotion.error.target');
  return { all: false, productIds, categoryIds, brandIds, ...sizes };
}

/** A promotion's values as the audit log keeps them before and after. */
type Kept = Pick<
  ConsolePromotionRow,
  'name' | 'rule' | 'target' | 'cap' | 'needs_code' | 'status' | 'starts_at' | 'ends_at' | 'limit_total' | 'limit_per_customer'
>;

const keptOf = (row: Kept): Kept => ({
  name: row.name,
  rule: row.rule,
  target: row.target,
  cap: row.cap === null ? null : Number(row.cap),
  needs_code: row.needs_code,
  status: row.status,
  starts_at: row.starts_at ? new Date(row.starts_at) : null,
  ends_at: row.ends_at ? new Date(row.ends_at) : null,
  limit_total: row.limit_total === null ? null : Number(row.limit_total),
  limit_per_customer: row.limit_per_customer === null ? null : Number(row.limit_per_customer),
});

/** A value as JSON with its objects' keys sorted: jsonb gives a rule's keys back in its own order. */
const stable = (value: unknown): string =>
  JSON.stringify(value, (_, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Date) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b))) : v,
  );

/** After any write: this process prices with it at once, the others and the storefront's pages within seconds. */
function promotionsChanged(): void {
  forgetPromotions();
  void catalogueChanged();
}

/**
 * Creates (id null) or saves a promotion from the console's form; the promotion's id. A limit below the
 * uses already counted, or an automatic promotion that still has codes, is refused with its reason.
 */
export async function savePromotion(id: number | null, form: PromotionForm, actor: Actor): Promise<{ id: number; done: 'created' | 'saved' | 'unchanged' }> {
  const choices = await promotionChoices();
  const methods = ticked(form, 'method_').filter((m) => choices.methods.some((c) => c.id === m));
  const after: Kept = {
    name: form.name,
    rule: ruleOf(form, methods),
    target: await targetOf(form, choices),
    cap: form.cap,
    needs_code: form.needs_code === 'on',
    status: form.status,
    starts_at: form.starts_at,
    ends_at: form.ends_at,
    limit_total: form.limit_total,
    limit_per_customer: form.limit_per_customer,
  };
  const db = await getDb();
  if (id === null) {
    const [made] = await selectRows<{ id: number }>(
      db,
      sql`INSERT INTO promotions (name, rule, target, cap, needs_code, status, starts_at, ends_at, limit_total, limit_per_customer)
          VALUES (${after.name}, ${JSON.stringify(after.rule)}::jsonb, ${JSON.stringify(after.target)}::jsonb, ${after.cap}, ${after.needs_code},
                  ${after.status}, ${after.starts_at}, ${after.ends_at}, ${after.limit_total}, ${after.limit_per_customer})
          RETURNING id`,
    );
    const made_id = Number(made?.id);
    await audit(actor, 'promotion.create', 'promotion', String(made_id), null, after);
    promotionsChanged();
    return { id: made_id, done: 'created' };
  }
  const saved = await db.transaction(async (tx) => {
    const [row] = await selectRows<ConsolePromotionRow>(
      tx,
      sql`SELECT p.*, (SELECT count(*)::int FROM promotion_codes c WHERE c.promotion_id = p.id) AS codes FROM promotions p WHERE p.id = ${id} FOR UPDATE`,
    );
    if (!row) throw new HttpError(404, 'error.notFound');
    if (after.limit_total !== null && after.limit_total < row.uses)
      throw new HttpError(422, 'ops.promotion.error.limitBelowUses', undefined, undefined, { uses: row.uses });
    if (!after.needs_code && row.codes > 0) throw new HttpError(422, 'ops.promotion.error.hasCodes', undefined, undefined, { count: row.codes });
    const before = keptOf(row);
    const changed = (Object.keys(after) as (keyof Kept)[]).filter((k) => stable(before[k]) !== stable(after[k]));
    if (changed.length > 0)
      await tx.execute(
        sql`UPDATE promotions SET name = ${after.name}, rule = ${JSON.stringify(after.rule)}::jsonb, target = ${JSON.stringify(after.target)}::jsonb,
                   cap = ${after.cap}, needs_code = ${after.needs_code}, status = ${after.status}, starts_at = ${after.starts_at}, ends_at = ${after.ends_at},
                   limit_total = ${after.limit_total}, limit_per_customer = ${after.limit_per_customer}, updated_at = now()
             WHERE id = ${id}`,
      );
    return { before, changed };
  });
  if (saved.changed.length === 0) return { id, done: 'unchanged' };
  // After the commit: PGlite's one connection would wait for the transaction that waits for the log's write.
  await audit(
    actor,
    'promotion.save',
    'promotion',
    String(id),
    Object.fromEntries(saved.changed.map((k) => [k, saved.before[k]])),
    Object.fromEntries(saved.changed.map((k) => [k, after[k]])),
  );
  promotionsChanged();
  return { id, done: 'saved' };
}

/**
 * Codes without letters a shopper confuses when typing from a printed card (0/O, 1/I/L): 31 signs, so an
 * 8-sign code is one of 8.5·10¹¹ — guessing one within the 20 tries an address has is hopeless.
 */
const CODE_SIGNS = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
const CODE_LENGTH = 8;
const newCode = (prefix: string) =>
  normalizeCode(prefix) + Array.from({ length: CODE_LENGTH }, () => CODE_SIGNS[randomInt(CODE_SIGNS.length)] as string).join('');

/** Adds one typed code or a batch of new ones to a code promotion; what the page confirms. */
export async function addCodes(id: number, action: PromotionCodesAction, actor: Actor): Promise<string> {
  const db = await getDb();
  const [promotion] = await selectRows<{ needs_code: boolean }>(db, sql`SELECT needs_code FROM promotions WHERE id = ${id}`);
  if (!promotion) throw new HttpError(404, 'error.notFound');
  if (!promotion.needs_code) throw new HttpError(422, 'ops.promotion.error.automatic');
  if (action.action === 'code') {
    const code = normalizeCode(action.code);
    const [added] = await selectRows<{ id: number }>(
      db,
      sql`INSERT INTO promotion_codes (promotion_id, code, limit_total) VALUES (${id}, ${code}, ${action.code_limit}) ON CONFLICT (code) DO NOTHING RETURNING id`,
    );
    if (!added) throw new HttpError(409, 'ops.promotion.error.codeTaken', undefined, undefined, { code });
    await audit(actor, 'promotion.code', 'promotion', String(id), null, { code, limit: action.code_limit });
    promotionsChanged();
    return 'code';
  }
  // A batch: new codes until there are `count` (a clash with any existing code is drawn again), in chunks.
  let made = 0;
  for (let tries = 0; made < action.count && tries < 5; tries++) {
    for (let from = made; from < action.count; from += 1_000) {
      const chunk = Array.from({ length: Math.min(1_000, action.count - from) }, () => newCode(action.prefix));
      const added = await selectRows<{ id: number }>(
        db,
        sql`INSERT INTO promotion_codes (promotion_id, code, limit_total)
            SELECT ${id}, c, ${action.code_limit} FROM unnest(${`{${chunk.join(',')}}`}::text[]) AS c
            ON CONFLICT (code) DO NOTHING RETURNING id`,
      );
      made += added.length;
    }
  }
  await audit(actor, 'promotion.batch', 'promotion', String(id), null, { count: made, prefix: action.prefix, limit: action.code_limit });
  promotionsChanged();
  return 'batch';
}

/** Quotes a CSV field when it must be; a code is letters, digits, '-' and '_', a date is ISO. */
const csvField = (value: string) => (/[",\n\r;]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value);

/** All of a promotion's codes as CSV (code, limit, uses, created), oldest first; null for no such promotion. */
export async function promotionCodesCsv(id: number): Promise<string | null> {
  const db = await getDb();
  const [promotion] = await selectRows<{ id: number }>(db, sql`SELECT id FROM promotions WHERE id = ${id}`);
  if (!promotion) return null;
  const codes = await selectRows<PromotionCode>(
    db,
    sql`SELECT code, limit_total, uses, created_at FROM promotion_codes WHERE promotion_id = ${id} ORDER BY id LIMIT ${CODE_BATCH_MAX * 20}`,
  );
  const lines = codes.map((c) =>
    [c.code, c.limit_total === null ? '' : String(c.limit_total), String(c.uses), new Date(c.created_at).toISOString()].map(csvField).join(','),
  );
  return ['code,limit,uses,created_at', ...lines].join('\r\n') + '\r\n';
}

const roublesText = (kopecks: number | null | undefined) => (kopecks === null || kopecks === undefined ? '' : String(kopecks / 100).replace('.', ','));
/** A moment as the console's `datetime-local` field shows it, in Moscow's time (UTC+3 all year). */
const momentText = (at: Date | string | null) => {
  if (!at) return '';
  const text = new Date(new Date(at).getTime() + 3 * 3_600_000).toISOString().slice(0, 19);
  // Seconds only when set (the API or a browser's step=1): the form saves back what it shows.
  return text.endsWith(':00') ? text.slice(0, 16) : text;
};

/** A saved promotion as its form's fields (what PromotionForm shows); a new one's defaults for null. */
export function promotionFormValues(row: ConsolePromotionRow | null): Record<string, string> {
  if (!row) return { kind: 'percent', applies: 'all', status: 'active' };
  const { rule, target } = row;
  const values: Record<string, string> = {
    name: row.name,
    kind: rule.kind,
    percent: 'percent' in rule ? String(rule.percent) : '',
    amount: 'amount' in rule ? roublesText(rule.amount) : '',
    buy: rule.kind === 'buy_get' ? String(rule.buy) : '',
    get: rule.kind === 'buy_get' ? String(rule.get) : '',
    threshold: 'threshold' in rule ? roublesText(rule.threshold) : '',
    cap: roublesText(row.cap === null ? null : Number(row.cap)),
    applies: target.all ? 'all' : 'some',
    products: target.productIds.join(', '),
    sizes: (target.sizes ?? []).join(', '),
    status: row.status,
    starts_at: momentText(row.starts_at),
    ends_at: momentText(row.ends_at),
    limit_total: row.limit_total === null ? '' : String(row.limit_total),
    limit_per_customer: row.limit_per_customer === null ? '' : String(row.limit_per_customer),
  };
  if (row.needs_code) values['needs_code'] = 'on';
  for (const id of target.categoryIds) values[`category_${id}`] = 'on';
  for (const id of target.brandIds) values[`brand_${id}`] = 'on';
  if (rule.kind === 'delivery') for (const m of rule.methods) values[`method_${m}`] = 'on';
  return values;
}

/** A colleague's note on a promotion's page (the audit log keeps it, as an order's). */
export async function notePromotion(id: number, note: string, actor: Actor): Promise<string> {
  const [row] = await selectRows<{ id: number }>(await getDb(), sql`SELECT id FROM promotions WHERE id = ${id}`);
  if (!row) throw new HttpError(404, 'error.notFound');
  await audit(actor, 'promotion.note', 'promotion', String(id), null, { note });
  return 'note';
}
