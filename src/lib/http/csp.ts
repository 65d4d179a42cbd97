// The Content-Security-Policy (DESIGN §4). Pages: Astro writes `script-src` and `style-src` from the
// scripts and styles each page uses (hashes of its inline ones, 'self' for bundled files) and adds the
// directives below; nothing inline runs or styles a page unless its hash is listed, so there is no
// 'unsafe-inline'. Answers that are not pages (JSON, files, the front's refusals) get a policy that
// allows nothing. Relative imports only: astro.config.mjs and scripts/server.mjs load this file.
import { createHash } from 'node:crypto';

/** The CSP source for an inline script or style with exactly this text. */
/**
 * A page's text as characters (`utf8`: decoded), or as its UTF-8 bytes, one per character (`latin1`): the
 * server prepares pages in the second form (prepare-page.ts).
 */
export type TextForm = 'utf8' | 'latin1';

export function cspHash(text: string, encoding: TextForm = 'utf8'): `sha256-${string}` {
  return `sha256-${createHash('sha256').update(text, encoding).digest('base64')}`;
}

// The inline code of pages is a few short texts the build wrote (the boot script, the eager directive's
// listener): hashed once each, not once per page sent (issue 59). Longer texts — a page's first-paint style,
// ~20 KB and different on most pages — are hashed each time: remembered, they only pushed the short ones out
// and held megabytes. A memo of a pure function, not a server cache (src/lib/cache.ts): astro.config.mjs loads
// this file, and must not load the server's.
const HASHED_LIMIT = 64;
const HASHED_TEXT_CHARS = 8 * 1024;
const hashed = new Map<string, `sha256-${string}`>();

/**
 * cspHash, remembered for the short texts pages repeat. `latin1`: the text is UTF-8 bytes one per character
 * (prepare-page.ts); an ASCII text, which most are, is the same text and the same hash either way.
 */
export function cspHashOnce(text: string, encoding: TextForm = 'utf8'): `sha256-${string}` {
  if (text.length > HASHED_TEXT_CHARS) return cspHash(text, encoding);
  const key = encoding === 'latin1' && !ASCII.test(text) ? `\u0000${text}` : text;
  let hash = hashed.get(key);
  if (hash === undefined) {
    hash = cspHash(text, encoding);
    if (hashed.size >= HASHED_LIMIT) hashed.delete(hashed.keys().next().value as string);
    hashed.set(key, hash);
  }
  return hash;
}

// eslint-disable-next-line no-control-regex -- the whole ASCII range, control characters included.
const ASCII = /^[\u0000-\u007f]*$/;

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

// A script element of a JSON type is data the browser never runs: no policy names it (and the product's
// JSON-LD differs on every page, so hashing it was work for nothing).
const DATA_BLOCK = /\stype="application\/(?:ld\+)?json"/;

/**
 * A page's policy naming only the inline scripts and styles the page has. Astro lists the hashes of every
 * inline script and style its pages may carry — 18 on a category page that has 9 — which is half a
 * kilobyte of every page's headers (enough to keep the catalogue's pages over what a phone's first round
 * trip carries: docs/performance.md, "First paint"), and each hash listed for code the page lacks is an
 * allowance nobody needs.
 */
export function policyForPage(policy: string, html: string, encoding: TextForm = 'utf8'): string {
  const present = new Set<string>();
  for (const [, tag, attributes = '', text = ''] of html.matchAll(/<(script|style)\b([^>]*)>([\s\S]*?)<\/\1>/g))
    if (tag === 'style' || !(/\ssrc=/.test(attributes) || DATA_BLOCK.test(attributes))) present.add(cspHashOnce(text, encoding));
  return policy
    .split(';')
    .map((directive) =>
      /^\s*(?:script|style)-src\s/.test(directive)
        ? directive
            .split(/\s+/)
            .filter((source) => !/^'sha256-/.test(source) || present.has(source.slice(1, -1)))
            .join(' ')
        : directive,
    )
    .join(';');
}
