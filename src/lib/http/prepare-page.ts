// A built page as the shop sends it (issue 27, docs/decisions/016): Astro's island runtime as a cached
// file (shared-scripts.ts), the rules of its stylesheets its first paint can use inline and the rest deferred
// (first-paint-css.ts), and a policy naming only the inline code it carries. (The frame islands' strings are
// taken out of their props once, where the frame is rendered: src/lib/render-once.server.ts.) One sequence for both
// callers: Astro's middleware per rendered page, and the build for prerendered ones (scripts/inline-css.ts).
// What the build made is compiled once by the front (scripts/server.mjs) and registered on globalThis,
// where the middleware, bundled apart from it, finds it. Relative imports only: loaded by Node from src/.
import { policyForPage, type TextForm } from './csp.ts';
import { prepareFirstPaint, withStyleSources, type Sheet } from './first-paint-css.ts';
import { externalizeScripts, type SharedScripts } from './shared-scripts.ts';

export interface BuiltAssets {
  /** The compiled stylesheets by their address (`/_astro/x.css`). */
  sheets: ReadonlyMap<string, Sheet>;
  /** Astro's shared scripts, when the build wrote their file. */
  scripts?: SharedScripts;
}

export interface PreparedPage {
  html: string;
  /** CSP sources the page now needs in style-src (its inline first-paint style). */
  styleHashes: readonly string[];
  /** How `html` holds the page's text: as characters, or as its UTF-8 bytes one per character. */
  encoding: TextForm;
}

/**
 * `encoding`: the page's form (csp.ts `TextForm`). Everything the preparation looks for is ASCII — tags,
 * attributes, class names, scripts the build wrote — and reads the same either way; the server reads and
 * writes the bytes form (`latin1`), which skips decoding and encoding each page: 22 % of an uncached category
 * page's CPU (issue 59, docs/performance.md "React paid back"). What it inserts that may not be ASCII (the
 * first-paint CSS) is written in the page's form.
 */
export function preparePage(html: string, { sheets, scripts }: BuiltAssets, encoding: TextForm = 'utf8'): PreparedPage {
  const stripped = externalizeScripts(html, scripts);
  const page = prepareFirstPaint(stripped, sheets, encoding);
  return { html: page?.html ?? stripped, styleHashes: page?.styleHashes ?? [], encoding };
}

/** The page's policy: only the inline code it carries, and its inline style. */
export function preparedPolicy(policy: string, page: PreparedPage): string {
  return withStyleSources(policyForPage(policy, page.html, page.encoding), page.styleHashes);
}

const REGISTRY = Symbol.for('brandshop.builtAssets');
const shared = globalThis as { [REGISTRY]?: BuiltAssets };

/** What the front registered; nothing under `astro dev`, where pages pass as Astro made them but for the props. */
export function registeredAssets(): BuiltAssets {
  return shared[REGISTRY] ?? { sheets: new Map() };
}

export function registerAssets(assets: BuiltAssets): void {
  shared[REGISTRY] = assets;
}
