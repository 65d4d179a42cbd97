// Errors a feature can throw; the endpoint helper turns them into the envelope with the right status.
import type { FieldErrors } from './envelope.ts';
import type { MessageKey } from '../i18n/index.ts';

export class HttpError extends Error {
  readonly status: number;
  /** Translated per request into the caller's language. */
  readonly messageKey: MessageKey;
  readonly errors: FieldErrors | undefined;
  readonly headers: Record<string, string> | undefined;
  /** Values for the message's placeholders ('… больше {max} товаров'). */
  readonly params: Record<string, string | number> | undefined;

  constructor(status: number, messageKey: MessageKey, errors?: FieldErrors, headers?: Record<string, string>, params?: Record<string, string | number>) {
    super(messageKey);
    this.name = 'HttpError';
    this.status = status;
    this.messageKey = messageKey;
    this.errors = errors;
    this.headers = headers;
    this.params = params;
  }
}

export const notFound = (key: MessageKey = 'error.notFound') => new HttpError(404, key);
export const badRequest = (key: MessageKey = 'error.badRequest') => new HttpError(400, key);
export const unauthorized = (key: MessageKey = 'error.unauthorized') => new HttpError(401, key);
export const forbidden = (key: MessageKey = 'error.forbidden') => new HttpError(403, key);
export const conflict = (key: MessageKey) => new HttpError(409, key);
export const validationFailed = (errors: FieldErrors) => new HttpError(422, 'error.validation', errors);
export const tooManyRequests = (retryAfterSeconds: number) =>
  new HttpError(429, 'error.tooManyRequests', undefined, { 'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))) });
