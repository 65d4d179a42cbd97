// Reading a nanostore in an island without a hydration mismatch. The server renders every public page
// the same for everyone (DESIGN §4), so it renders each store at its empty value; the browser may hold
// more by the time an island hydrates — a guest's cart read from localStorage, the stored session, a
// wishlist another island loaded. Read plainly, the island's hydration render differed from the server's
// HTML (under React: error #418 on every page for a shopper with a cart, and the HTML thrown away;
// under Preact, which trusts the DOM it hydrates, text left stale). So the first render uses the
// server's value and a layout effect moves to the browser's before the next paint; a component first
// rendered in the browser therefore never shows the empty value. Preact's useSyncExternalStore ignores
// a server snapshot, hence no library hook here. The only way islands read stores (a lint rule).
import type { ReadableAtom } from 'nanostores';
import { useLayoutEffect, useState } from 'react';

/** A stable empty list for the server's value of list stores. */
export const NONE: never[] = Object.freeze([]) as never[];

export function useClientStore<T>(store: ReadableAtom<T>, serverValue: T): T {
  const [value, setValue] = useState<T>(serverValue);
  // subscribe() calls at once with the store's value, then on each change.
  useLayoutEffect(() => store.subscribe((next) => setValue(() => next)), [store]);
  return value;
}
