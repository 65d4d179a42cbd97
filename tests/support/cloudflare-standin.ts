// A stand-in for Cloudflare's cache purge API (POST /client/v4/zones/{zone_id}/purge_cache), call by call as
// its documentation gives it: a bearer token; a body of exactly one kind — `tags` (up to 100 a request),
// `files`, `hosts`, `prefixes` or `purge_everything`; the answer envelope {success, errors, messages, result};
// and the account's purge rate as a token bucket (Free: 5 a minute, bucket 25), a request over it answered
// 429 with Retry-After. Modes for the shop's bad days: failing (500 with an error), slow, rate limited.
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface PurgeCall {
  at: number;
  tags?: string[];
  everything?: boolean;
  status: number;
}

export interface CloudflareStandin {
  /** The API's base, as CLOUDFLARE_API_URL takes it. */
  apiUrl: string;
  zoneId: string;
  token: string;
  /** Every call, answered or refused, in order. */
  calls: PurgeCall[];
  /** The tags purged (answered 200), each as often as it was sent. */
  purged(): string[];
  mode: 'ok' | 'failing' | 'slow';
  slowMs: number;
  /** The account's limit: requests a minute and the bucket's size; Retry-After in seconds for a 429. */
  limit: { perMinute: number; burst: number; retryAfterSeconds: number };
  stop(): Promise<void>;
}

const MAX_TAGS = 100;

export async function startCloudflareStandin(options: { perMinute?: number; burst?: number } = {}): Promise<CloudflareStandin> {
  const zoneId = randomBytes(16).toString('hex');
  const token = randomBytes(24).toString('base64url');
  const bucket = { tokens: options.burst ?? 25, at: Date.now() };
  const state: CloudflareStandin = {
    apiUrl: '',
    zoneId,
    token,
    calls: [],
    purged: () => state.calls.filter((c) => c.status === 200).flatMap((c) => c.tags ?? []),
    mode: 'ok',
    slowMs: 3_000,
    limit: { perMinute: options.perMinute ?? 5, burst: options.burst ?? 25, retryAfterSeconds: 60 },
    stop: async () => undefined,
  };
  const envelope = (
    res: ServerResponse,
    status: number,
    errors: { code: number; message: string }[],
    result: unknown = null,
    headers: Record<string, string> = {},
  ) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify({ success: errors.length === 0, errors, messages: [], result }));
    return status;
  };

  async function answer(req: IncomingMessage, res: ServerResponse, body: string): Promise<PurgeCall> {
    const call: PurgeCall = { at: Date.now(), status: 0 };
    const match = /^\/client\/v4\/zones\/([0-9a-f]{32})\/purge_cache$/.exec(req.url ?? '');
    if (!match || req.method !== 'POST') return { ...call, status: envelope(res, 404, [{ code: 7003, message: 'Could not route to /' + (req.url ?? '') }]) };
    if (req.headers.authorization !== `Bearer ${token}`) return { ...call, status: envelope(res, 403, [{ code: 10000, message: 'Authentication error' }]) };
    if (match[1] !== zoneId) return { ...call, status: envelope(res, 403, [{ code: 10000, message: 'Authentication error' }]) };
    let parsed: Record<string, unknown>;
    try {
      parsed = JSON.parse(body) as Record<string, unknown>;
    } catch {
      return {
        ...call,
        status: envelope(res, 400, [{ code: 1012, message: 'Request must contain one of "purge_everything", "files", "tags", "hosts" or "prefixes"' }]),
      };
    }
    const kinds = ['purge_everything', 'files', 'tags', 'hosts', 'prefixes'].filter((k) => k in parsed);
    if (kinds.length !== 1)
      return {
        ...call,
        status: envelope(res, 400, [{ code: 1012, message: 'Request must contain one of "purge_everything", "files", "tags", "hosts" or "prefixes"' }]),
      };
    const tags = parsed['tags'];
    if ('tags' in parsed && (!Array.isArray(tags) || tags.length === 0 || tags.some((t) => typeof t !== 'string' || t.length === 0 || t.length > 1024)))
      return { ...call, status: envelope(res, 400, [{ code: 1018, message: 'Invalid tags' }]) };
    if (Array.isArray(tags) && tags.length > MAX_TAGS)
      return { ...call, status: envelope(res, 400, [{ code: 1018, message: `Only ${MAX_TAGS} tags may be purged per request` }]) };
    if ('purge_everything' in parsed && parsed['purge_everything'] !== true)
      return { ...call, status: envelope(res, 400, [{ code: 1015, message: 'Invalid purge_everything' }]) };
    const described = {
      ...call,
      ...(Array.isArray(tags) ? { tags: tags as string[] } : {}),
      ...(parsed['purge_everything'] === true ? { everything: true } : {}),
    };
    // The account's bucket, refilled continuously.
    const now = Date.now();
    bucket.tokens = Math.min(state.limit.burst, bucket.tokens + ((now - bucket.at) / 60_000) * state.limit.perMinute);
    bucket.at = now;
    if (bucket.tokens < 1)
      return {
        ...described,
        status: envelope(res, 429, [{ code: 971, message: 'Please wait and consider throttling your request speed' }], null, {
          'retry-after': String(state.limit.retryAfterSeconds),
        }),
      };
    bucket.tokens -= 1;
    if (state.mode === 'failing') return { ...described, status: envelope(res, 500, [{ code: 1100, message: 'Internal error' }]) };
    if (state.mode === 'slow') await new Promise((r) => setTimeout(r, state.slowMs));
    return { ...described, status: envelope(res, 200, [], { id: zoneId }) };
  }

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void answer(req, res, Buffer.concat(chunks).toString('utf8')).then((call) => state.calls.push(call));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.apiUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/client/v4`;
  state.stop = () => new Promise((resolve) => server.close(() => resolve()));
  return state;
}
