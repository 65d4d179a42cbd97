// The frame's strings in the page's language (layout.labels.ts), for islands whose props the front took
// them out of (src/lib/http/island-props.ts). Loaded before any module that imports this one runs — the
// island's first render needs them, and they are asked for beside the islands' code (first-screen.ts) —
// and on the server, where the islands have their props, not at all.
import { pageLocale } from '~/lib/i18n/browser.ts';
import type { FrameLabels } from './layout.labels.ts';

const LOADERS = { ru: () => import('virtual:frame-labels/ru'), en: () => import('virtual:frame-labels/en') };

const loaded = typeof document === 'undefined' ? undefined : ((await LOADERS[pageLocale()]()).default as FrameLabels);

/** An island's prop as given (the server, `astro dev`), or as this language's labels have it. */
export function frameProp<I extends keyof FrameLabels, K extends keyof FrameLabels[I]>(
  island: I,
  key: K,
  given: FrameLabels[I][K] | undefined,
): FrameLabels[I][K] {
  if (given !== undefined) return given;
  if (!loaded) throw new Error(`${island} has no ${String(key)}`);
  return loaded[island][key];
}
