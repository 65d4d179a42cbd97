// The Content-Security-Policy (DESIGN §4). Pages: Astro writes `script-src` and `style-src` from the
// scripts and styles each page uses (hashes of its inline ones, 'self' for bundled files) and adds the
// directives below; nothing inline runs or styles a page unless its hash is listed, so there is no
// 'unsafe-inline'. Answers that are not pages (JSON, files, the front's refusals) get a policy that
// allows nothing. Relative imports only: astro.config.mjs and scripts/server.mjs load this file.
import { createHash } from 'node:crypto';

/** The CSP source for an inline script or style with exactly this text. */
export function cspHash(text: string): `sha256-${string}` {
  return `sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}`;
}

/** Every page's directives besides script-src and style-src. */
export const PAGE_DIRECTIVES = [
  "default-src 'self'",
  // UnoCSS and the icons use data: URIs for small images.
  "img-src 'self' data:",
  "base-uri 'self'",
  "object-src 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
] as const;

/** For answers that are not pages: nothing may run, load or frame them. */
export const NOTHING_POLICY = "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/**
 * Yandex Metrika's origins, allowed only on pages that carry the counter (METRIKA_ID set): the tag
 * script, the hits it sends (pixels and beacons) and the session-replay frames it opens.
 */
export const METRIKA = {
  script: 'https://mc.yandex.ru',
  directives: ['img-src https://mc.yandex.ru', "connect-src 'self' https://mc.yandex.ru", 'frame-src blob: https://mc.yandex.ru https://mc.yandex.com'],
} as const;
