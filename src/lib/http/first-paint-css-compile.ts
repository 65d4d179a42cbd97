// Compiles a built stylesheet into the pieces first-paint-css.ts prunes per page: each rule with the
// classes its selectors need, under the at-rules that hold it. Done once per file, when the front
// starts or the build inlines the prerendered pages. Relative imports only: loaded by Node from src/.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import postcss, { type AtRule, type Container, type Root, type Rule } from 'postcss';
import type { Piece, Sheet } from './first-paint-css.ts';

/** At-rules whose content is no list of rules to prune: kept whole wherever they stand. */
const WHOLE = /^(?:-\w+-)?(?:keyframes|font-face|property|counter-style|page|font-feature-values|font-palette-values|import|charset|namespace|layer)$/;

/**
 * The classes and element names a document must have for this selector to match in it. What is inside
 * :not(), :is(), :where(), :has() and attribute selectors is left out, as it asks nothing that can be
 * counted on: a rule is dropped only when it surely matches nothing.
 */
export function requirements(selector: string): { classes: string[]; tags: string[] } {
  let plain = '';
  let depth = 0;
  let bracket = false;
  let quote = '';
  for (let k = 0; k < selector.length; k++) {
    const char = selector[k] as string;
    if (char === '\\') {
      if (depth === 0 && !bracket) plain += selector.slice(k, k + 2);
      k++;
      continue;
    }
    if (quote) {
      if (char === quote) quote = '';
      continue;
    }
    if (bracket) {
      if (char === '"' || char === "'") quote = char;
      else if (char === ']') bracket = false;
      continue;
    }
    if (char === '[') bracket = true;
    else if (char === '(') depth++;
    else if (char === ')') depth = Math.max(0, depth - 1);
    else if (depth === 0) plain += char;
  }
  const classes: string[] = [];
  for (const [, escaped] of plain.matchAll(/\.((?:\\[0-9a-fA-F]{1,6}[ \t]?|\\.|[\w-]|[^\p{ASCII}])+)/gu))
    classes.push(
      (escaped as string).replace(/\\([0-9a-fA-F]{1,6})[ \t]?|\\(.)/g, (_, hex?: string, char?: string) =>
        hex ? String.fromCodePoint(parseInt(hex, 16)) : (char as string),
      ),
    );
  // A type selector starts the selector or follows a combinator; escaped characters belong to class names.
  const tags = [...plain.replace(/\\./g, '_').matchAll(/(?:^|[\s>+~])([a-zA-Z][a-zA-Z0-9-]*)/g)].map(([, tag]) => (tag as string).toLowerCase());
  for (const [part, control] of CONTROL_PARTS) if (part.test(plain)) tags.push(control);
  return { classes, tags };
}

/**
 * The parts of form controls the preflight styles (a date field's editing fields, a number field's spin
 * buttons, a search field's decoration): drawn only inside such a field, which `usedIn` names as
 * `input:date`, `input:number`, `input:search`. About 170 bytes of a page's brotli that pages without such
 * a field carried in the bytes that decide whether they come in the first round trip (issue 59).
 */
const CONTROL_PARTS: readonly (readonly [RegExp, string])[] = [
  [/::-webkit-(?:date-and-time-value|datetime-edit|calendar-picker-indicator)/, 'input:date'],
  [/::-webkit-(?:inner|outer)-spin-button/, 'input:number'],
  [/::-webkit-search-(?:decoration|cancel-button|results)/, 'input:search'],
];

/** States a first paint never shows: hovered, pressed, and Firefox's focus ring and invalid mark once touched. */
const LATER = /:(?:hover|active)\b|:-moz-(?:focusring|ui-invalid)\b/;

export function compileSheet(css: string): Sheet {
  return compileRoot(postcss.parse(css));
}

/** A parsed sheet compiled. The pieces hold their own text: the root may be changed afterwards. */
function compileRoot(root: Root): Sheet {
  const pieces: Piece[] = [];
  const walk = (container: Container, wrappers: readonly string[]) => {
    container.each((node) => {
      if (node.type === 'rule') {
        const rule = node as Rule;
        pieces.push({
          wrappers,
          selectors: rule.selectors.map((text) => ({ text, ...requirements(text), ...(LATER.test(text) ? { later: true } : {}) })),
          body: '',
          declarations: (rule.nodes ?? []).map((child) => child.toString()),
        });
      } else if (node.type === 'atrule') {
        const at = node as AtRule;
        if (!at.nodes || WHOLE.test(at.name))
          pieces.push({
            wrappers,
            body: at.toString() + (at.nodes ? '' : ';'),
            ...(at.name === 'property' && /^--[\w-]+$/.test(at.params.trim()) ? { registers: at.params.trim() } : {}),
          });
        else walk(at, [...wrappers, `@${at.name}${at.params ? ` ${at.params}` : ''}`]);
      }
    });
  };
  walk(root, []);
  return { pieces };
}

/**
 * What a deferred sheet re-declares that its page's first-paint rules always carry: the font faces and
 * keyframes (pruneSheet keeps them whole). A second copy of an identical @font-face still tells Chromium
 * the fonts changed, and it lays out every line of text again when the sheet applies — a task of 7–16 ms
 * on this machine's home page, four times that on Lighthouse's phone (docs/performance.md, "sixth session").
 */
const INLINE_ALWAYS = /^(?:-\w+-)?(?:font-face|keyframes)$/;

/** The name of a deferred copy: `page-ssr.AT67hD4J.css` → `page-ssr.AT67hD4J.rest-<hash of the copy>.css`. */
const DEFERRED_NAME = /\.rest-[\w-]+\.css$/;

/**
 * The copy of a built sheet its pages defer: the sheet without what they carry inline anyway
 * (INLINE_ALWAYS), in the same order, so its arrival changes no computed style and no font. Undefined when
 * there is nothing to leave out. Named by its content: files under /_astro/ are cached for good.
 */
export function deferredCopy(name: string, css: string | Root): { name: string; css: string } | undefined {
  // A root given is changed: the blocks are taken out of it.
  const root = typeof css === 'string' ? postcss.parse(css) : css;
  let left = 0;
  root.walkAtRules((at) => {
    if (!INLINE_ALWAYS.test(at.name)) return;
    at.remove();
    left++;
  });
  if (!left) return undefined;
  const copy = root.toString();
  const hash = createHash('sha256').update(copy).digest('base64url').slice(0, 8);
  return { name: name.replace(/\.css$/, `.rest-${hash}.css`), css: copy };
}

/**
 * Every stylesheet of the built client's /_astro/ folder, compiled, by its address, with its deferred
 * copy's address and text (the build writes the copies: writeDeferredSheets).
 */
export function compileBuiltSheets(clientDir: string): Map<string, Sheet> {
  const sheets = new Map<string, Sheet>();
  let names: string[];
  try {
    names = readdirSync(join(clientDir, '_astro')).filter((name) => name.endsWith('.css') && !DEFERRED_NAME.test(name));
  } catch {
    return sheets;
  }
  for (const name of names) sheets.set(`/_astro/${name}`, compileBuiltSheet(name, readFileSync(join(clientDir, '_astro', name), 'utf8')));
  return sheets;
}

/** One built sheet (`name` in /_astro/) compiled, with its deferred copy when it has one: one parse for both. */
export function compileBuiltSheet(name: string, css: string): Sheet {
  const root = postcss.parse(css);
  const sheet = compileRoot(root);
  const copy = deferredCopy(name, root);
  return copy ? { ...sheet, deferred: { href: `/_astro/${copy.name}`, css: copy.css } } : sheet;
}

/** Writes each sheet's deferred copy beside it (the build, before the assets are compressed). */
export function writeDeferredSheets(clientDir: string, sheets: ReadonlyMap<string, Sheet>): number {
  let written = 0;
  for (const sheet of sheets.values())
    if (sheet.deferred) {
      writeFileSync(join(clientDir, sheet.deferred.href), sheet.deferred.css);
      written++;
    }
  return written;
}
