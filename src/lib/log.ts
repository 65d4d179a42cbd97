// Structured logs (DESIGN §9): one JSON line per request and per unexpected error, through pino, with a
// request id and never a visitor's words — no query strings, no search text, no bodies, no SQL
// parameters (a database error names its query and parameters in its message; only its class, code and
// stack frames are kept). Relative imports only: scripts/server.mjs loads this file from src/.
import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { env } from './env.ts';

const REQUEST_ID = /^[A-Za-z0-9._-]{8,64}$/;

export const logger = pino({
  base: null,
  level: env().LOG_LEVEL,
  // Anything that still carries a personal field by name is masked.
  redact: { paths: ['*.email', '*.phone', '*.name', '*.password', '*.token', '*.authorization', '*.cookie', '*.ip'], censor: '[redacted]' },
});

/** The id a request is known by in the logs and on the error page: the proxy's when it is sane, else a new one. */
export function requestIdFrom(header: string | string[] | null | undefined): string {
  const given = Array.isArray(header) ? header[0] : header;
  return given && REQUEST_ID.test(given) ? given : randomUUID();
}

/**
 * What of a path may be logged: the route, not what a visitor typed into it. The search route's text
 * and every query string are left out.
 */
export function loggablePath(url: string): string {
  const path = url.split('?')[0] ?? '';
  return path.startsWith('/product/search/') ? '/product/search/:text' : path.length > 200 ? `${path.slice(0, 200)}…` : path;
}

/** An error as it may be logged: its class, code and stack frames, not its message's data. */
export function loggableError(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { type: typeof error };
  const cause = error.cause instanceof Error ? error.cause : undefined;
  const code = (cause as { code?: unknown } | undefined)?.code ?? (error as { code?: unknown }).code;
  return {
    type: error.name === 'Error' ? error.constructor.name : error.name,
    ...(cause ? { cause: cause.name } : {}),
    ...(typeof code === 'string' ? { code } : {}),
    // Messages of our own errors are fixed texts; a database error's message holds the query's values.
    ...(/query|params|insert|select|update|delete/i.test(error.message) ? {} : { message: error.message.slice(0, 200) }),
    stack: (error.stack ?? '')
      .split('\n')
      .filter((line) => line.trimStart().startsWith('at '))
      .slice(0, 8)
      .map((line) => line.trim()),
  };
}

export function logUnexpected(requestId: string, where: string, error: unknown): void {
  logger.error({ requestId, where, err: loggableError(error) }, 'unexpected error');
}
