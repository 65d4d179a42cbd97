// The first paint's stylesheet inline in the head (issue 27, docs/decisions/016): a phone on a slow link
// otherwise waits for a second request — a new connection, a round trip, then the bytes — before it
// paints anything. Each page carries, in a <style>, the rules of the built stylesheet that can match
// its own HTML (a rule whose selector names a class the page lacks cannot), and the whole stylesheet
// follows without blocking the paint (a preload, made a stylesheet once loaded), for what the
// islands draw later. The whole sheet is a superset in the same order placed where the link was, so
// its arrival changes no computed style: nothing moves. (Its deferred copy leaves out the font faces and
// keyframes every page carries inline: a second identical @font-face still relays out all text.) Without script, <noscript> links it as before.
// The sheets are compiled once (first-paint-css-compile.ts); prepare-page.ts applies this to every page. Relative imports only: loaded by Node from src/.
import { cspHash, type TextForm } from './csp.ts';

/** One rule of a compiled stylesheet, or a block kept whole (@font-face, @keyframes, @property…). */
export interface Piece {
  /** The enclosing at-rules' preludes, outermost first (`@media (width>=48rem)`). */
  wrappers: readonly string[];
  /**
   * A rule's selectors with the classes and element names each needs; absent for a block kept whole.
   * `later`: it matches only in a state a first paint never shows (hovered, pressed).
   */
  selectors?: readonly { text: string; classes: readonly string[]; tags: readonly string[]; later?: boolean }[];
  /** The whole text of a block kept whole; empty for a rule. */
  body: string;
  /** A rule's declarations (and nested rules), as written. */
  declarations?: readonly string[];
  /** `@property --x`: the custom property it registers, needed only where some kept rule reads it. */
  registers?: string;
}

export interface Sheet {
  pieces: readonly Piece[];
  /** The copy pages defer, when it differs from the sheet (first-paint-css-compile.ts, deferredCopy). */
  deferred?: { href: string; css: string };
}

/**
 * Switches a deferred whole sheet on once fetched, and takes its `data-rest` off once it applies or failed
 * (the islands wait for those left: src/lib/eager-islands.client.ts). The sheet is fetched as a preload, not as a
 * `media="print"` stylesheet: Chromium held every module script of the page — Astro's island runtime, so
 * the first screen's islands — until such a sheet had arrived, 0.4–0.6 s after the first paint on the
 * throttled phone (docs/performance.md, "React again"); a preload holds no script. The listeners are set
 * before the links are parsed (they sit ahead of them in the head); load and error do not bubble, hence
 * the capture.
 */
export const REST_CSS_BOOT = `(function(){function f(e){var l=e.target;if(l&&l.dataset&&l.dataset.rest!=null){if(e.type=='load'&&l.rel=='preload')l.rel='stylesheet';else delete l.dataset.rest}}document.addEventListener('load',f,true);document.addEventListener('error',f,true)})()`;

const DATE_TYPES = new Set(['date', 'time', 'datetime-local', 'month', 'week']);

const ENTITIES: Record<string, string> = { amp: '&', quot: '"', apos: "'", lt: '<', gt: '>' };

/** What of a document a stylesheet's rules can match (its classes and element names), and the custom properties its own styles read. */
export interface Used {
  classes: ReadonlySet<string>;
  tags: ReadonlySet<string>;
  vars: ReadonlySet<string>;
}

/** The classes named in the HTML's class attributes, the elements it has (the parser's own too), what its styles read. */
export function usedIn(html: string): Used {
  const tags = new Set(['html', 'head', 'body']);
  for (const [, tag] of html.matchAll(/<([a-zA-Z][a-zA-Z0-9-]*)/g)) tags.add((tag as string).toLowerCase());
  // The fields whose parts the preflight styles (first-paint-css-compile.ts, CONTROL_PARTS).
  for (const [, type] of html.matchAll(/<input\b[^>]*?\stype=["']?([\w-]+)/gi)) {
    const kind = (type as string).toLowerCase();
    tags.add(`input:${DATE_TYPES.has(kind) ? 'date' : kind}`);
  }
  const vars = new Set<string>();
  readInto(vars, html);
  return { classes: usedClasses(html), tags, vars };
}

/** Every class named in the HTML's class attributes. */
export function usedClasses(html: string): Set<string> {
  const used = new Set<string>();
  for (const [, double, single] of html.matchAll(/\sclass=(?:"([^"]*)"|'([^']*)')/g)) {
    const value = (double ?? single ?? '').replace(/&(?:#(\d+)|#x([0-9a-f]+)|(\w+));/gi, (entity, dec?: string, hex?: string, name?: string) =>
      dec ? String.fromCodePoint(Number(dec)) : hex ? String.fromCodePoint(parseInt(hex, 16)) : (ENTITIES[name?.toLowerCase() ?? ''] ?? entity),
    );
    for (const name of value.split(/\s+/)) if (name) used.add(name);
  }
  return used;
}

const CUSTOM = /^\s*(--[\w-]+)\s*:/;
/** A transition animates a change, and a first paint changes nothing: left to the whole sheet. */
const TRANSITION = /^\s*transition[\w-]*\s*:/;

function readInto(read: Set<string>, text: string): void {
  for (const [, name] of text.matchAll(/var\(\s*(--[\w-]+)/g)) read.add(name as string);
}

/**
 * The rules of a compiled sheet that can match a document with these classes and elements, as CSS,
 * without what only a later moment uses: hover and pressed states, transitions (the whole sheet brings
 * them; ~250 bytes of brotli a page, docs/decisions/016).
 * Of their custom properties, only those something reads are set, and registered (@property): the
 * theme's variables and wind4's defaults are otherwise a third of it.
 */
export function pruneSheet(sheet: Sheet, used: Used): { css: string; complete: boolean } {
  const kept = sheet.pieces.map((piece) =>
    piece.selectors?.filter((s) => !s.later && s.classes.every((name) => used.classes.has(name)) && s.tags.every((tag) => used.tags.has(tag))),
  );
  // What is read: by the kept rules' own declarations, blocks kept whole, the page's inline styles, and
  // then by the custom properties so read, until nothing new is.
  const read = new Set(used.vars);
  const custom = new Map<string, string[]>();
  for (const [k, piece] of sheet.pieces.entries()) {
    if (!piece.selectors) {
      if (!piece.registers) readInto(read, piece.body);
      continue;
    }
    if (!kept[k]?.length) continue;
    for (const declaration of piece.declarations ?? []) {
      const name = CUSTOM.exec(declaration)?.[1];
      if (name) custom.set(name, [...(custom.get(name) ?? []), declaration]);
      else readInto(read, declaration);
    }
  }
  for (let grown = true; grown;) {
    grown = false;
    for (const [name, declarations] of custom)
      if (read.has(name)) {
        custom.delete(name);
        const before = read.size;
        for (const declaration of declarations) readInto(read, declaration);
        grown ||= read.size > before;
      }
  }
  let css = '';
  let open: readonly string[] = [];
  let complete = true;
  for (const [k, piece] of sheet.pieces.entries()) {
    let rule: string | undefined;
    if (!piece.selectors) rule = !piece.registers || read.has(piece.registers) ? piece.body : undefined;
    else if (kept[k]?.length) {
      const declarations = (piece.declarations ?? []).filter((d) => {
        const name = CUSTOM.exec(d)?.[1];
        return name ? read.has(name) : !TRANSITION.test(d);
      });
      if (declarations.length) rule = `${(kept[k] ?? []).map((s) => s.text).join(',')}{${declarations.join(';')}}`;
      complete &&= kept[k]?.length === piece.selectors.length && declarations.length === piece.declarations?.length;
    }
    if (rule === undefined) {
      complete = false;
      continue;
    }
    // Neighbouring rules under the same at-rules share one block, as in the source.
    let shared = 0;
    while (shared < open.length && shared < piece.wrappers.length && open[shared] === piece.wrappers[shared]) shared++;
    css += '}'.repeat(open.length - shared);
    for (const wrapper of piece.wrappers.slice(shared)) css += `${wrapper}{`;
    open = piece.wrappers;
    css += rule;
  }
  return { css: css + '}'.repeat(open.length), complete };
}

export interface FirstPaintPage {
  html: string;
  /** CSP sources the page now needs in style-src (its inline first-paint styles). */
  styleHashes: string[];
}

/**
 * The page with each built stylesheet it links (those `sheets` knows) inlined as the rules its HTML
 * can use, the whole sheet deferred in the link's place. Undefined when there is nothing to change. (Its
 * module scripts are asked for at low priority by externalizeScripts, in its pass over the page.)
 */
export function prepareFirstPaint(html: string, sheets: ReadonlyMap<string, Sheet>, encoding: TextForm = 'utf8'): FirstPaintPage | undefined {
  const headEnd = html.indexOf('</head>');
  if (headEnd < 0) return undefined;
  let used: Used | undefined;
  const inline: string[] = [];
  const STYLE_HERE = '\u0000first-paint-style\u0000';
  // The layout's head script may carry the boot line already (DefaultLayout): one script, one hash.
  let booted = html.includes(REST_CSS_BOOT);
  let head = html.slice(0, headEnd).replace(/<link rel="stylesheet" href="([^"]+)"\s*\/?>/g, (link, href: string) => {
    const sheet = sheets.get(href);
    if (!sheet) return link;
    used ??= usedIn(html);
    const { css, complete } = pruneSheet(sheet, used);
    // A style element ends at the first `</style`, whatever the CSS says.
    if (/<\/style/i.test(css)) return link;
    // Every sheet's rules in one <style> where the first sheet was: one hash in the policy, not one per
    // sheet. The whole sheets follow it in their order, so the cascade is the links' own.
    const here = inline.length ? '' : STYLE_HERE;
    inline.push(css);
    // A sheet the page uses whole is not fetched again.
    if (complete) return here;
    const boot = booted ? '' : `<script>${REST_CSS_BOOT}</script>`;
    booted = true;
    return `${boot}${here}<link rel="preload" as="style" fetchpriority="low" href="${sheet.deferred?.href ?? href}" data-rest><noscript><link rel="stylesheet" href="${href}"></noscript>`;
  });
  const styleHashes: string[] = [];
  if (inline.length) {
    const css = inline.join('');
    styleHashes.push(cspHash(css));
    // In the page's own form: a `latin1` page holds UTF-8 bytes (prepare-page.ts), and CSS may not be ASCII.
    const text = encoding === 'latin1' ? Buffer.from(css, 'utf8').toString('latin1') : css;
    head = head.replace(STYLE_HERE, () => `<style>${text}</style>`);
  }
  const page = head + html.slice(headEnd);
  return page === html ? undefined : { html: page, styleHashes };
}

/** `style-src` of a policy with these sources added. */
export function withStyleSources(policy: string, sources: readonly string[]): string {
  if (!sources.length) return policy;
  const quoted = sources.map((source) => `'${source}'`).join(' ');
  return /(^|;)\s*style-src\s/.test(policy)
    ? policy.replace(/((?:^|;)\s*style-src\s[^;]*)/, `$1 ${quoted}`)
    : `${policy.replace(/;?\s*$/, '')}; style-src 'self' ${quoted}`;
}
