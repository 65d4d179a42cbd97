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
 */
export function externalizeScripts(html: string, scripts: SharedScripts | undefined): string {
  if (!scripts) return html;
  for (const css of scripts.styles ?? []) html = html.replace(`<style>${css}</style>`, '');
  let first = -1;
  for (const text of scripts.texts) {
    const inline = `<script>${text}</script>`;
    const at = html.indexOf(inline);
    if (at < 0) continue;
    html = html.slice(0, at) + html.slice(at + inline.length);
    if (first < 0 || at < first) first = at;
  }
  return first < 0 ? html : `${html.slice(0, first)}<script type="module" src="${scripts.path}"></script>${html.slice(first)}`;
}
