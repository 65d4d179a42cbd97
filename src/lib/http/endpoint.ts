// The one request helper every API endpoint goes through (DESIGN §3, §9): it parses params, query and
// body with zod before any other work, picks the language, and writes the envelope for every outcome.
import type { APIContext, APIRoute } from 'astro';
import { z } from '../zod.ts';
import { localeFromHeader, t, translateMessage, type Locale, type MessageKey } from '../i18n/index.ts';
import { fail, type FieldErrors } from './envelope.ts';
import { logUnexpected } from '../log.ts';
import { HttpError } from './errors.ts';
import { MAX_BODY_BYTES, readCapped } from './limits.ts';
import { hasControlCharacters } from './text.ts';
import { searchParamsToObject } from './search-params.ts';

export interface HandlerContext<P, Q, B> {
  params: P;
  query: Q;
  body: B;
  locale: Locale;
  t: (key: MessageKey, params?: Record<string, string | number>) => string;
  request: Request;
  context: APIContext;
}

export interface EndpointSpec<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType> {
  params?: P;
  query?: Q;
  body?: B;
  /** Status and envelope used when params fail to parse (an unknown id is a 404, not a 422). */
  invalidParams?: { status: number; message: MessageKey };
  /** Shapes a 422 differently where the spec asks for it (the buyout form reads data.data). */
  onInvalid?: (errors: FieldErrors, message: string) => Response;
  handler: (ctx: HandlerContext<z.output<P>, z.output<Q>, z.output<B>>) => Promise<Response> | Response;
  /** What the call is for, in a line, for the OpenAPI document (src/lib/http/openapi.ts). */
  summary: string;
  /** The schema of a success's `data`; the document is built from it and the tests validate answers against it. */
  response: z.ZodType;
  /** Success statuses besides 200 (a created subscription answers 201). */
  statuses?: number[];
  /**
   * Failure statuses the handler (or the service it calls) answers, besides those every call can get
   * from this helper and the front (400, 401 on 🔒 calls, 404 for an unknown path id, 413/415/422 for a
   * body, 422 for a query): 404 for an unknown record, 409, 429, 502 … The OpenAPI document lists them,
   * and the tests refuse an answer whose status it does not list.
   */
  failures?: number[];
}

/** An endpoint's handler, carrying its spec for the OpenAPI document. */
export type Endpoint = APIRoute & { spec: EndpointSpec<z.ZodType, z.ZodType, z.ZodType> };

const EMPTY = z.object({});

const TYPE_MESSAGES: Record<string, MessageKey> = {
  string: 'validation.type.string',
  number: 'validation.type.number',
  int: 'validation.type.number',
  boolean: 'validation.type.boolean',
  array: 'validation.type.array',
  object: 'validation.type.object',
};

/**
 * The one place validation messages come from (zod's error map, per request): a missing field is
 * 'Обязательное поле', a wrong type says what was expected in words, everything else is zod's own
 * locale (ru, or en for an English client). Schemas name only the spec's own messages, by key.
 */
export function zodLocale(locale: Locale): z.core.$ZodErrorMap {
  const base = (locale === 'en' ? z.locales.en() : z.locales.ru()).localeError;
  return (issue) => {
    if ((issue.code === 'invalid_type' || issue.code === 'invalid_union') && issue.input === undefined) return t(locale, 'validation.required');
    if (issue.code === 'invalid_type') {
      const key = TYPE_MESSAGES[issue.expected];
      if (key) return t(locale, key);
    }
    return base(issue);
  };
}

/** Flattens zod issues into the envelope's `errors`: one list of messages per dotted field path. */
export function fieldErrors(error: z.ZodError, locale: Locale = 'ru'): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of error.issues) {
    const key = issue.path.length > 0 ? issue.path.map(String).join('.') : '_';
    // Shared schemas name their messages by key (validation.required); zod's own arrive translated.
    (errors[key] ??= []).push(translateMessage(locale, issue.message));
  }
  return errors;
}

const FORM_TYPES = ['multipart/form-data', 'application/x-www-form-urlencoded'];
const utf8 = new TextDecoder('utf-8', { fatal: true });

// A body past the API's limit: the rest is never read, and the connection closes after the answer instead
// of being reused.
const tooLarge = () => new HttpError(413, 'error.payloadTooLarge', undefined, { connection: 'close' });

/** The body's bytes, never more than MAX_BODY_BYTES whatever the request claims (declared or chunked). */
async function readBytes(request: Request): Promise<Uint8Array> {
  let parts: Uint8Array[] | null;
  try {
    parts = await readCapped(request, MAX_BODY_BYTES);
  } catch {
    throw new HttpError(400, 'error.badRequest');
  }
  if (!parts) throw tooLarge();
  return Buffer.concat(parts);
}

async function readBody(request: Request): Promise<unknown> {
  const type = (request.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (type !== '' && type !== 'application/json' && !FORM_TYPES.includes(type)) throw new HttpError(415, 'error.unsupportedMediaType');
  const bytes = await readBytes(request);
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    throw new HttpError(422, 'error.invalidText');
  }
  if (FORM_TYPES.includes(type)) {
    let form: FormData;
    try {
      form = await new Response(text, { headers: { 'content-type': request.headers.get('content-type') ?? type } }).formData();
    } catch {
      throw new HttpError(400, 'error.badRequest');
    }
    const out: Record<string, FormDataEntryValue | FormDataEntryValue[]> = {};
    for (const key of new Set(form.keys())) {
      const all = form.getAll(key);
      out[key] = all.length === 1 ? (all[0] as FormDataEntryValue) : all;
    }
    return out;
  }
  if (text.trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text) as unknown;
  } catch {
    throw new HttpError(400, 'error.invalidJson');
  }
  // Refused here, once, before any walk over it (the control-character check, the schemas) recurses.
  if (nestedDeeperThan(parsed, MAX_JSON_DEPTH)) throw new HttpError(400, 'error.tooDeep');
  return parsed;
}

/** The deepest any call's body goes is 3 levels (checkout's contact, cart items); 32 leaves room and stops a stack-deep body. */
export const MAX_JSON_DEPTH = 32;

/** Whether arrays and objects nest deeper than `max`, found without recursion. */
export function nestedDeeperThan(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop() as [unknown, number];
    if (item === null || typeof item !== 'object') continue;
    if (depth >= max) return true;
    for (const child of Object.values(item)) stack.push([child, depth + 1]);
  }
  return false;
}

/**
 * Field paths whose text holds a NUL or another control character no form can type: refused with 422
 * before any schema or database sees them (PostgreSQL would refuse a NUL in text with an error).
 */
export function controlCharacterPaths(value: unknown, path: string[] = []): string[] {
  if (typeof value === 'string') return hasControlCharacters(value) ? [path.join('.') || '_'] : [];
  if (Array.isArray(value)) return value.flatMap((v, k) => controlCharacterPaths(v, [...path, String(k)]));
  if (value && typeof value === 'object') {
    return Object.entries(value).flatMap(([k, v]) => [
      ...(hasControlCharacters(k) ? [[...path, '_key'].join('.')] : []),
      ...controlCharacterPaths(v, [...path, k]),
    ]);
  }
  return [];
}

export function errorResponse(error: unknown, locale: Locale, requestId = 'none'): Response {
  if (error instanceof HttpError) {
    // Field messages may be keys (the shared schemas' way): answered in the caller's language, with the error's values.
    const extra = error.errors
      ? {
          errors: Object.fromEntries(
            Object.entries(error.errors).map(([field, messages]) => [field, messages.map((m) => translateMessage(locale, m, error.params))]),
          ),
        }
      : {};
    return fail(error.status, t(locale, error.messageKey, error.params), extra, error.headers);
  }
  // Logged once, with the id the caller can quote, and without the request's data (src/lib/log.ts).
  logUnexpected(requestId, 'api', error);
  return fail(500, t(locale, 'error.internal'), {}, { 'x-request-id': requestId });
}

export function endpoint<P extends z.ZodType = typeof EMPTY, Q extends z.ZodType = typeof EMPTY, B extends z.ZodType = typeof EMPTY>(
  spec: EndpointSpec<P, Q, B>,
): Endpoint {
  const route: APIRoute = async (context) => {
    const { request } = context;
    const locale = localeFromHeader(request.headers.get('accept-language'));
    const translate = (key: MessageKey, params?: Record<string, string | number>) => t(locale, key, params);
    const error = zodLocale(locale);
    try {
      const params = (spec.params ?? EMPTY).safeParse(context.params, { error });
      if (!params.success) {
        const invalid = spec.invalidParams ?? { status: 404, message: 'error.notFound' as const };
        return fail(invalid.status, translate(invalid.message));
      }
      const rawQuery = searchParamsToObject(context.url.searchParams);
      const rawBody = spec.body ? await readBody(request) : {};
      const controls = [...controlCharacterPaths(rawQuery), ...controlCharacterPaths(rawBody)];
      const query = (spec.query ?? EMPTY).safeParse(rawQuery, { error });
      const body = (spec.body ?? EMPTY).safeParse(rawBody, { error });
      if (controls.length > 0 || !query.success || !body.success) {
        const errors = {
          ...(query.success ? {} : fieldErrors(query.error, locale)),
          ...(body.success ? {} : fieldErrors(body.error, locale)),
          ...Object.fromEntries(controls.map((path) => [path, [translate('validation.controlCharacters')]])),
        };
        const message = translate('error.validation');
        return spec.onInvalid ? spec.onInvalid(errors, message) : fail(422, message, { errors });
      }
      return await spec.handler({
        params: params.data as z.output<P>,
        query: query.data as z.output<Q>,
        body: body.data as z.output<B>,
        locale,
        t: translate,
        request,
        context,
      });
    } catch (caught) {
      return errorResponse(caught, locale, request.headers.get('x-request-id') ?? undefined);
    }
  };
  return Object.assign(route, { spec: spec as unknown as EndpointSpec<z.ZodType, z.ZodType, z.ZodType> });
}
