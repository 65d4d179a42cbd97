// How the browser's JavaScript is cut into files (astro.config.mjs loads this Vite plugin). Left to the
// bundler, the first screen's islands came as ~30 files three imports deep; on a phone's link (150 ms
// a round trip, six connections) the header hydrated 1.2 s after the first paint, most of it spent
// waiting for the next level of small files (docs/performance.md, "First taps"). Now there are two
// shared files besides each island's own entry:
// - `runtime`: React and React DOM (docs/decisions/021), the same for every island;
// - `frame`: every module the first screen's islands import without waiting (stores, the API client,
//   icons, the header's panels) — one file, one round trip.
// What an island loads only when asked (the modals' forms, their schemas and zod) keeps its own files.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Plugin } from 'vite';
import { FIRST_SCREEN_FILE } from './first-screen.ts';

/** The first-screen islands every page of the storefront's layout has; their entries are preloaded on every page. */
const FRAME_ISLAND = /[\\/]src[\\/](features[\\/]layout[\\/](Header|BottomNav|Modals)|components[\\/]ui[\\/]Toaster)\.tsx$/;
/** The first screen's islands besides the frame's (the product page's buy box). */
const PAGE_ISLAND = /[\\/]src[\\/]features[\\/]cart[\\/]ProductBuy\.tsx$/;
/** The islands of the first screen, hydrated as soon as their code arrives (client:eager); their files are preloaded. */
const isFirstScreenIsland = (id: string): boolean => FRAME_ISLAND.test(id) || PAGE_ISLAND.test(id);
/** Astro's React renderer, every island's `renderer-url`. */
const RENDERER = /[\\/]node_modules[\\/]@astrojs[\\/]react[\\/]dist[\\/]client\.js$/;
/**
 * Vite's helper for lazy imports, which the page's own scripts use too (the hearts' loader, a module
 * script with the page): inside `frame` it made that script fetch all of `frame` before the first paint.
 * It gets a file of its own (left to the bundler, it went back into `frame`).
 */
const PAGE_SCRIPTS_SHARE = /^\0vite\/preload-helper/;
const RUNTIME = /[\\/]node_modules[\\/](react|react-dom|scheduler|@astrojs[\\/]react)[\\/]/;
// The islands run on React (DESIGN §1, the shop's brief); Preact once replaced it (docs/decisions/015, reversed
// by 021). An alias or a dependency that brought it back would pass every test while the brief was broken.
const PREACT = /[\\/]node_modules[\\/](preact|@preact[\\/][^\\/]+|@astrojs[\\/]preact)[\\/]/;
const PREACT_IMPORT = /^(preact|@preact\/[^/]+|@astrojs\/preact)(\/|$)/;

/** The module of Preact that a chunk bundles or imports, if any. */
export function takesPreact(chunk: { moduleIds: readonly string[]; imports: readonly string[] }): string | undefined {
  return chunk.moduleIds.find((id) => PREACT.test(id)) ?? chunk.imports.find((id) => PREACT_IMPORT.test(id));
}

interface Graph {
  getModuleInfo(id: string): { importers: readonly string[] } | null;
}

/** Whether a module is imported, directly or not, by a first-screen island without a dynamic import. */
function inFirstScreen(id: string, graph: Graph, known: Map<string, boolean>): boolean {
  const cached = known.get(id);
  if (cached !== undefined) return cached;
  known.set(id, false);
  const result = isFirstScreenIsland(id) || (graph.getModuleInfo(id)?.importers ?? []).some((importer) => inFirstScreen(importer, graph, known));
  known.set(id, result);
  return result;
}

export function islandChunks(): Plugin {
  let files: string[] = [];
  const labels: Record<string, string> = {};
  return {
    name: 'shop:island-chunks',
    // The files a first-screen island needs, for the layout's modulepreload links (src/lib/first-screen.ts).
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter((c) => c.type === 'chunk');
      for (const chunk of chunks) {
        const preact = takesPreact(chunk);
        if (preact) this.error(`${chunk.fileName} (${this.environment.name}) takes Preact (${preact}); the islands run on React: see docs/decisions/021`);
      }
      if (this.environment.name !== 'client') return;
      // The shared files an island's entry and the renderer import, the frame's islands' own entries (on every
      // page) and React's renderer for Astro: asked for together at the first paint, not one import level after another.
      const wanted = chunks.filter(
        (c) => c.name === 'runtime' || c.name === 'frame' || FRAME_ISLAND.test(c.facadeModuleId ?? '') || RENDERER.test(c.facadeModuleId ?? ''),
      );
      const byName = new Map(chunks.map((c) => [c.fileName, c]));
      const closure = new Set<string>();
      const visit = (fileName: string) => {
        if (closure.has(fileName)) return;
        closure.add(fileName);
        for (const imported of byName.get(fileName)?.imports ?? []) visit(imported);
      };
      for (const chunk of wanted) visit(chunk.fileName);
      files = [...closure].sort();
      // The frame islands' strings per language (src/features/layout/layout.labels.client.ts), which `frame`
      // awaits before it runs: asked for with it, not after it.
      for (const chunk of chunks) {
        const locale = /^\0virtual:frame-labels\/(ru|en)$/.exec(chunk.facadeModuleId ?? '')?.[1];
        if (locale) labels[locale] = `/${chunk.fileName}`;
      }
    },
    writeBundle(options) {
      if (this.environment.name !== 'client' || !options.dir) return;
      writeFileSync(join(options.dir, '..', FIRST_SCREEN_FILE), JSON.stringify({ modules: files.map((f) => `/${f}`), labels }));
    },
    configEnvironment(name) {
      if (name !== 'client') return undefined;
      const known = new Map<string, boolean>();
      return {
        build: {
          rollupOptions: {
            output: {
              codeSplitting: {
                groups: [
                  { name: 'lazy', test: PAGE_SCRIPTS_SHARE, priority: 3 },
                  { name: 'runtime', test: RUNTIME, priority: 2 },
                  { name: (id: string, graph: Graph) => (inFirstScreen(id, graph, known) ? 'frame' : null), priority: 1 },
                ],
              },
            },
          },
        },
      };
    },
  };
}
