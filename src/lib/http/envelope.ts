// The API envelope (DESIGN §3). Every endpoint answers through these helpers.
import { t, type Locale } from '../i18n/index.ts';

export type { Crumb, MetaData } from './envelope.schema.ts';
import type { Crumb, MetaData } from './envelope.schema.ts';

/** spec §2: a trail starts at 'Главная' (/); the last item is the page itself and has no url. */
export function trail(locale: Locale, ...items: Crumb[]): Crumb[] {
  return [{ name: t(locale, 'nav.home'), url: '/' }, ...items];
}

export interface SuccessBody<T> {
  success: true;
  data: T;
  message?: string;
  meta_data?: MetaData;
  breadcrumbs?: Crumb[];
}

export interface FailureBody {
  success: false;
  message: string;
  errors?: Record<string, string[]>;
  data?: unknown;
}

export type FieldErrors = Record<string, string[]>;

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8' } as const;

export interface ReplyOptions {
  status?: number;
  headers?: HeadersInit;
  message?: string;
  meta_data?: MetaData;
  breadcrumbs?: Crumb[];
}

export function ok<T>(data: T, options: ReplyOptions = {}): Response {
  const body: SuccessBody<T> = { success: true, data };
  if (options.message) body.message = options.message;
  if (options.meta_data) body.meta_data = options.meta_data;
  if (options.breadcrumbs) body.breadcrumbs = options.breadcrumbs;
  return json(body, options.status ?? 200, options.headers);
}

export function fail(status: number, message: string, extra: Omit<FailureBody, 'success' | 'message'> = {}, headers?: HeadersInit): Response {
  return json({ success: false, message, ...extra } satisfies FailureBody, status, headers);
}

function json(body: unknown, status: number, headers?: HeadersInit): Response {
  const h = new Headers(headers);
  for (const [k, v] of Object.entries(JSON_HEADERS)) h.set(k, v);
  if (!h.has('cache-control')) h.set('cache-control', 'private, no-store');
  return new Response(JSON.stringify(body), { status, headers: h });
}
