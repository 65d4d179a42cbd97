// The one request helper every API endpoint goes through (DESIGN §3, §9): it parses params, query and
// body with zod before any other work, picks the language, and writes the envelope for every outcome.
import type { APIContext, APIRoute } from 'astro';
import { z } from 'zod';
import { localeFromHeader, t, translateMessage, type Locale, type MessageKey } from '../i18n/index.ts';
import { fail, type FieldErrors } from './envelope.ts';
import { HttpError } from './errors.ts';
import { searchParamsToObject } from './search-params.ts';

/** Bodies larger than this are refused before parsing: nothing the shop accepts comes close. */
export const MAX_BODY_BYTES = 1_000_000;

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
}

/** An endpoint's handler, carrying its spec for the OpenAPI document. */
export type Endpoint = APIRoute & { spec: EndpointSpec<z.ZodType, z.ZodType, z.ZodType> };

const EMPTY = z.object({});

export function zodLocale(locale: Locale) {
  return (locale === 'en' ? z.locales.en() : z.locales.ru()).localeError;
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

async function readBody(request: Request): Promise<unknown> {
  const length = Number(request.headers.get('content-length') ?? '0');
  if (length > MAX_BODY_BYTES) throw new HttpError(413, 'error.payloadTooLarge');
  const type = (request.headers.get('content-type') ?? '').toLowerCase();
  if (type.includes('multipart/form-data') || type.includes('application/x-www-form-urlencoded')) {
    let form: FormData;
    try {
      form = await request.formData();
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
  const text = await request.text();
  if (text.length > MAX_BODY_BYTES) throw new HttpError(413, 'error.payloadTooLarge');
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new HttpError(400, 'error.invalidJson');
  }
}

export function errorResponse(error: unknown, locale: Locale): Response {
  if (error instanceof HttpError) {
    const extra = error.errors ? { errors: error.errors } : {};
    return fail(error.status, t(locale, error.messageKey), extra, error.headers);
  }
  console.error('[api] unexpected error', error);
  return fail(500, t(locale, 'error.internal'));
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
      const query = (spec.query ?? EMPTY).safeParse(searchParamsToObject(context.url.searchParams), { error });
      const rawBody = spec.body ? await readBody(request) : {};
      const body = (spec.body ?? EMPTY).safeParse(rawBody, { error });
      if (!query.success || !body.success) {
        const errors = {
          ...(query.success ? {} : fieldErrors(query.error, locale)),
          ...(body.success ? {} : fieldErrors(body.error, locale)),
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
      return errorResponse(caught, locale);
    }
  };
  return Object.assign(route, { spec: spec as unknown as EndpointSpec<z.ZodType, z.ZodType, z.ZodType> });
}
