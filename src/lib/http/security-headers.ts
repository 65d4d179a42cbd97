// The headers every answer carries (DESIGN §4), pages, API and static files alike: the middleware sets
// them on what Astro renders, scripts/server.mjs on everything else (files, cache hits, early refusals).
// Relative imports only: scripts/server.mjs loads this file from src/.
import { env } from '../env.ts';
import { NOTHING_POLICY } from './csp.ts';

const BASE: Record<string, string> = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
  // No X-Frame-Options: every answer's policy says `frame-ancestors 'none'`, which every browser that
  // reads CSP obeys over it, and its 26 bytes are part of each page's first round trip (docs/performance.md).
  'permissions-policy': 'camera=(), microphone=(), geolocation=()',
  // Pages carry their own policy (Astro writes it from what each page uses, src/lib/http/csp.ts); this one
  // is for everything else, and is never set over a page's.
  'content-security-policy': NOTHING_POLICY,
};

let cached: Record<string, string> | undefined;

/** The security headers; HSTS only when the shop's public address is https (behind a TLS proxy too). */
export function securityHeaders(): Record<string, string> {
  cached ??= new URL(env().SITE_URL).protocol === 'https:' ? { ...BASE, 'strict-transport-security': 'max-age=31536000; includeSubDomains' } : BASE;
  return cached;
}
