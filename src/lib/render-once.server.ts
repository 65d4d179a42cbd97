// The page's frame — header, footer, bottom navigation, modals, toaster — is the same HTML on every page of
// a language: rendered by React on every request it was a third of a product page's render (issue 59,
// docs/decisions/024). A component wrapped here is rendered once per key its caller gives (the language and
// whatever else the HTML depends on) and its output reused. What Astro emits around an island once per page
// (its runtime, each directive's loader, the renderer's script) is kept as Astro's own instructions beside
// the HTML and replayed against each page's render, so a page still carries each exactly once.
import { createComponent, renderComponent, renderSlotToString, type AstroComponentFactory } from 'astro/runtime/server/index.js';
import { SlotString, type ComponentSlotValue } from 'astro/runtime/server/render/slot.js';
import type { AstroFactoryReturnValue } from 'astro/runtime/server/render/astro/factory.js';
import type { SSRResult } from 'astro';
import { Cache } from './cache.ts';
import { registeredAssets } from './http/prepare-page.ts';
import { stripIslandProps } from './http/island-props.ts';

/** The key a reused component's caller gives: everything its HTML depends on. */
export interface ReusedProps {
  reuseKey: string;
}

const parts = new Map<string, AstroComponentFactory>();

/**
 * The reused `component` of this name, made on the first call: a template asks for it on every render (an
 * .astro file has no module scope of its own), and every call gets the same one, with its kept output.
 */
export function reused(name: string, component: AstroComponentFactory, limit?: number): AstroComponentFactory {
  let part = parts.get(name);
  if (!part) parts.set(name, (part = renderedOnce(name, component, limit)));
  return part;
}

/**
 * `component` rendered once per `reuseKey` (at most `limit` keys, the least recently used dropped first). Its islands are
 * given their own React identifier prefix (`<name>N` instead of the page's counter `rN`): a reused island's
 * ids would otherwise be those of whichever page first rendered it, and could repeat a later island's.
 */
export function renderedOnce(name: string, component: AstroComponentFactory, limit = 32): AstroComponentFactory {
  const prefix = name.toLowerCase().replace(/[^a-z]/g, '');
  const kept = new Cache<string, SlotString>({ name: `frame-${prefix}`, ttlMs: 0, maxEntries: limit });
  return createComponent(async (result: SSRResult, props: ReusedProps & Record<string, unknown>, slots) => {
    const { reuseKey, ...rest } = props;
    let own = kept.get(reuseKey);
    if (!own) {
      // Astro renders a component's output as a slot's too (a render instance); its types name only templates.
      const instance = renderComponent(result, name, component, rest, slots) as unknown as ComponentSlotValue;
      const rendered = (await renderSlotToString(result, instance)) as unknown as SlotString;
      // The frame islands' strings come from the browser's cached module (island-props.ts): taken out of
      // their props here, once, instead of from every page sent.
      own = withHtml(ownIdentifiers(rendered, prefix), (html) => stripIslandProps(html));
      kept.set(reuseKey, own);
    }
    // A SlotString is what Astro's own slots return from a component; its types list templates only.
    return withSharedRuntime(result, own) as unknown as AstroFactoryReturnValue;
  });
}

/**
 * Astro writes its island runtime and each directive's loader inline before a page's first island; the front
 * serves the same texts as one cached file (shared-scripts.ts), which took a pass over every page to swap. A
 * reused part with islands that comes first on the page claims them instead: the page's render is told they
 * are written, and the part starts with the file's script. A loader the file lacks (the eager directive's
 * own inline listener) is still written by Astro, where its first island stands. Without the front's list
 * (the build's prerendering, `astro dev`), nothing changes here and prepare-page.ts swaps them as before.
 */
function withSharedRuntime(result: SSRResult, part: SlotString): SlotString {
  const scripts = registeredAssets().scripts;
  const hasIslands = part.instructions?.some((instruction) => instruction.type === 'directive');
  if (!scripts || !hasIslands || result._metadata.hasHydrationScript) return part;
  result._metadata.hasHydrationScript = true;
  for (const [directive, text] of result.clientDirectives) if (scripts.texts.includes(text)) result._metadata.hasDirectives.add(directive);
  const tag = `<script type="module" fetchpriority="low" src="${scripts.path}"></script>`;
  return new SlotString(tag + part.toString(), part.instructions, part.chunks.length ? [tag, ...part.chunks] : []);
}

function withHtml(part: SlotString, change: (html: string) => string): SlotString {
  const chunks = part.chunks.map((chunk) => (typeof chunk === 'string' ? change(chunk) : chunk));
  return new SlotString(change(part.toString()), part.instructions, chunks);
}

/** The islands' `prefix` attribute and the ids React's useId made from it, moved to `prefix`'s own space. */
function ownIdentifiers(rendered: SlotString, prefix: string): SlotString {
  return withHtml(rendered, (html) => html.replace(/(\sprefix=")r(\d+)"/g, `$1${prefix}$2"`).replace(/_r(\d+)R_/g, `_${prefix}$1R_`));
}
