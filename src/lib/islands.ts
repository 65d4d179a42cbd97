// What islands share about their own start. An island marks the moment its first layout effect runs — React
// has hydrated it and its handlers answer taps — as the `island:<name>` performance mark, which
// `npm run interactions` measures from the first paint (docs/performance.md, "First taps").
import { useLayoutEffect } from 'react';

export type IslandName = 'header' | 'bottom-nav' | 'modals' | 'buy' | 'cart' | 'checkout';

export function markIsland(name: IslandName): void {
  if (typeof performance !== 'undefined' && performance.getEntriesByName(`island:${name}`).length === 0) performance.mark(`island:${name}`);
}

/** Marks the island hydrated once, after its first commit. */
export function useIslandMark(name: IslandName): void {
  useLayoutEffect(() => markIsland(name), []);
}
