// The browser's API client (spec §7): Bearer token when held, accept-language in the page's language
// (Russian unless the visitor chose English), envelope handling.
import { ofetch, FetchError } from 'ofetch';
import { bt, pageLocale } from './i18n/browser.ts';

export interface ApiFailure {
  status: number;
  message: string;
  errors: Record<string, string[]>;
  /** The buyout form's field errors travel under data.data (spec §7). */
  data: unknown;
}

export class ApiError extends Error {
  readonly failure: ApiFailure;
  constructor(failure: ApiFailure) {
    super(failure.message);
    this.name = 'ApiError';
    this.failure = failure;
  }
}

let token: string | null = null;
export function setAccessToken(value: string | null): void {
  token = value;
}

let onUnauthorized: (() => void) | undefined;
/** What happens when a call made with a token answers 401: the session store clears itself and asks to log in. */
export function setUnauthorizedHandler(handler: (() => void) | undefined): void {
  onUnauthorized = handler;
}

interface Envelope<T> {
  success: boolean;
  data: T;
  message?: string;
  errors?: Record<string, string[]>;
}

/** Calls the API and returns `data`; a failure (success false or an HTTP error) becomes an ApiError with the server's message. */
export async function api<T>(
  path: string,
  options: {
    method?: 'GET' | 'POST';
    body?: unknown;
    query?: Record<string, string | number>;
    signal?: AbortSignal;
    token?: string;
    headers?: Record<string, string>;
  } = {},
): Promise<T> {
  const sentToken = options.token ?? token;
  try {
    const res = await ofetch<Envelope<T>>(path, {
      method: options.method ?? 'GET',
      ...(options.body === undefined ? {} : { body: options.body as Record<string, unknown> }),
      ...(options.query ? { query: options.query } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
      headers: { ...options.headers, 'accept-language': pageLocale(), ...(sentToken ? { authorization: `Bearer ${sentToken}` } : {}) },
    });
    if (!res.success) throw new ApiError({ status: 200, message: res.message ?? '', errors: res.errors ?? {}, data: res.data });
    return res.data;
  } catch (error) {
    if (error instanceof FetchError) {
      if (!error.response) {
        // No answer at all (offline, connection dropped): status 0 and words a person can act on.
        throw new ApiError({ status: 0, message: bt('error.network'), errors: {}, data: undefined });
      }
      const body = (error.data ?? {}) as Partial<Envelope<unknown>>;
      const status = error.statusCode ?? error.response.status;
      if (status === 401 && sentToken && sentToken === token) onUnauthorized?.();
      throw new ApiError({
        status,
        message: body.message ?? error.message,
        errors: body.errors ?? {},
        data: body.data,
      });
    }
    throw error;
  }
}

/**
 * Puts a failed call's field errors (the envelope's `errors`) on the form's fields; false when none of
 * them is one of the form's, so the caller shows the message another way.
 */
export function applyFieldErrors<F extends string>(error: unknown, fields: readonly F[], set: (field: F, message: string) => void): boolean {
  if (!(error instanceof ApiError)) return false;
  let matched = false;
  for (const field of fields) {
    const message = error.failure.errors[field]?.[0];
    if (message) {
      set(field, message);
      matched = true;
    }
  }
  return matched;
}
