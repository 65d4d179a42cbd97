// The opening every console page of one object shares (an order, a buyout request, a customer, a product,
// an import run): the operator's session, the object's key from the address, its posted action, the
// object itself, its notes and the confirmation a finished action left in the address. A page keeps only
// its own markup (DESIGN §9: params in, one feature call, 404 on a miss).
import type { AstroCookies } from 'astro';
import { isMessageKey, t, type Locale } from '~/lib/i18n/index.ts';
import type { z } from '~/lib/zod.ts';
import { auditOf, type Actor, type AuditLine } from './ops.audit.server.ts';
import { consolePost, consoleSession, pathId, type FormOptions, type OpsSession } from './ops.server.ts';
import type { OperatorRole } from './ops.ts';

/** The parts of a page's Astro global the opening reads. */
export interface OpsPageContext {
  cookies: AstroCookies;
  request: Request;
  clientAddress: string;
  response: { status?: number };
  locals: { locale: Locale };
  params: Record<string, string | undefined>;
  url: URL;
}

export interface OpsPageSpec<K, T, S extends z.ZodType> {
  /** The role the page needs (a manager's by default). */
  role?: OperatorRole;
  /** The object's key from the address's params; null answers 404 before anything else is read. */
  key: (params: Record<string, string | undefined>) => K | null;
  /** The page's action (see consolePost): its form's schema, and the address to show after it. */
  post?: {
    schema: S;
    run: (key: K, data: z.output<S>, actor: Actor, files: Record<string, File>, session: OpsSession) => Promise<string>;
    /** Translates the values a refused move names, such as statuses. */
    label?: (value: string, locale: Locale) => string;
    /** The body's limit and whether it takes files, as consolePost's. */
    options?: FormOptions;
  };
  /** The object; null or undefined answers 404. */
  load: (key: K) => Promise<T | null | undefined>;
  /** The audit log's object type, for the page's notes. */
  audit?: string;
  /** The prefix of the confirmations the page's `?done=` may name ('ops.buyout.done.'). */
  done?: string;
}

export interface OpsPage<K, T> {
  session: OpsSession;
  locale: Locale;
  key: K;
  view: T;
  /** The refused action's message, '' when none was posted or it was carried out. */
  error: string;
  notes: AuditLine[];
  /** The finished action's confirmation, '' when there is none to show. */
  confirmation: string;
  /** The refused action's fields as posted (null when none was refused): a form shows them again. */
  posted: Record<string, string> | null;
}

/** The key of pages addressed by a numeric id (/ops/customers/12). */
export const idParam = (params: Record<string, string | undefined>): number | null => pathId(params['id']);

/**
 * A console object page's opening, in the order each page had it: the session (sign-in or 403 instead),
 * the key (404), the posted action (its 303, or the refusal to show), the object (404), its notes. The
 * page's answer instead when it is not to be shown.
 */
export async function opsPage<K, T, S extends z.ZodType>(page: OpsPageContext, spec: OpsPageSpec<K, T, S>): Promise<OpsPage<K, T> | Response> {
  const session = await consoleSession(page, spec.role);
  if (session instanceof Response) return session;
  const locale = page.locals.locale;
  const key = spec.key(page.params);
  if (key === null) return new Response(null, { status: 404 });
  let error = '';
  let posted = null as Record<string, string> | null;
  if (spec.post) {
    const { schema, run, label, options } = spec.post;
    const answer = await consolePost(
      page,
      session,
      schema,
      (data, actor, files) => run(key, data, actor, files, session),
      label ? (value) => label(value, locale) : undefined,
      { ...options, keep: (fields) => (posted = fields) },
    );
    if (answer instanceof Response) return answer;
    error = answer;
  }
  const view = await spec.load(key);
  if (view === null || view === undefined) return new Response(null, { status: 404 });
  const notes = spec.audit ? await auditOf(spec.audit, String(key)) : [];
  // After a posted action the page shows how it went, not the confirmation of an earlier one still in the
  // address; a page that takes no action has no such earlier one.
  const done = page.url.searchParams.get('done');
  const confirmationKey = spec.done && done ? `${spec.done}${done}` : '';
  const confirmation = (!spec.post || page.request.method === 'GET') && isMessageKey(confirmationKey) ? t(locale, confirmationKey) : '';
  return { session, locale, key, view, error, notes, confirmation, posted };
}
