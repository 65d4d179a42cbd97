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

/**
 * A page's policy naming only the inline scripts and styles the page has. Astro lists the hashes of every
 * inline script and style its pages may carry — 18 on a category page that has 9 — which is half a
 * kilobyte of every page's headers (enough to keep the catalogue's pages over what a phone's first round
 * trip carries: docs/performance.md, "First paint"), and each hash listed for code the page lacks is an
 * allowance nobody needs.
 */
export function policyForPage(policy: string, html: string): string {
  const present = new Set<string>();
  for (const [, tag, attributes = '', text = ''] of html.matchAll(/<(script|style)\b([^>]*)>([\s\S]*?)<\/\1>/g))
    if (!(tag === 'script' && /\ssrc=/.test(attributes))) present.add(cspHash(text));
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
