// Astro writes its island runtime (the <astro-island> element, 4.4 KB) and each client directive's
// loader inline into every page that has an island: about 1.4 KB of each page's brotli, sent again with
// every page, and the difference between a page that comes in the first round trip of a phone's new
// connection and one that needs a second (issue 27, docs/decisions/016). The front sends them as files
// instead — the same text, cached once for every page — named by their content (shared-scripts-files.ts
// writes them at build and lists them for the front). They run after the document is parsed, which is
// when the islands' work starts anyway (after the first paint); the taps made before are held by the
// eager directive's own inline listener (src/lib/eager-directive.ts), which stays inline. Relative
// imports only: loaded by Node from src/.

export interface SharedScripts {
  /** Each script's text as Astro writes it between <script> and </script>. */
  texts: readonly string[];
  /** Where the front serves them, one after the other in one file: `/_astro/shared-<hash>.js`. */
  path: string;
  /** Inline styles Astro writes with them that the shop's own stylesheet carries (global.css). */
  styles?: readonly string[];
}

/**
 * The page with the shared scripts' inline copies taken out, and one module script loading their file
 * where the first of them stood. The file defines every directive's loader a page may use, and the
 * runtime waits for the loader its islands name, so a page that used only some loses nothing.
 *
 * In the same pass every module script is asked for at low priority: it runs after the document is parsed,
 * whenever it arrives; at the browser's default (high) priority it shares the first round trips with what
 * the first paint needs, and Lighthouse counts every high-priority script that lands before the paint as
 * holding it back.
 */
export function externalizeScripts(html: string, scripts: SharedScripts | undefined): string {
  const texts = new Set(scripts?.texts ?? []);
  const styles = new Set(scripts?.styles ?? []);
  // One pass over the page (issue 59: searching it once per script, joining the pieces, then once more for
  // the module scripts was 12 % of an uncached product page's CPU). Each script and style once: a second
  // copy stays, as it did.
  const seen = new Set<string>();
  let placed = false;
  return html.replace(/<(script|style)>([\s\S]*?)<\/\1>|<script type="module" src="|<astro-island\s[^>]*>/g, (element, tag?: string, text?: string) => {
    if (element.startsWith('<astro-island')) return trimIsland(element);
    if (tag === undefined || text === undefined) return LOW_PRIORITY_MODULE;
    if (!(tag === 'script' ? texts : styles).has(text) || seen.has(tag + text)) return element;
    seen.add(tag + text);
    if (tag === 'style' || placed || !scripts) return '';
    placed = true;
    return `${LOW_PRIORITY_MODULE}${scripts.path}"></script>`;
  });
}

const LOW_PRIORITY_MODULE = '<script type="module" fetchpriority="low" src="';

/**
 * An island's tag without what its runtime reads as the default or never reads: `component-export="default"`
 * (read as "default" when absent), empty props (read as {} when absent), the component's name in `opts`
 * (only a directive's `value` is read) and `uid` (no script reads it; the shop has no view transitions).
 * About 70–120 bytes of a page's brotli, in the bytes that decide whether it comes in the first round trip
 * (issue 59, docs/performance.md).
 */
export function trimIsland(tag: string): string {
  return tag.replace(/ uid="[^"]*"| component-export="default"| props="\{\}"/g, '').replace(/ opts="\{&quot;name&quot;:&quot;[\w$-]*&quot;,/, ' opts="{');
}
