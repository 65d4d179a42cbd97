// Reading a nanostore in an island without a hydration mismatch. The server renders every public page
// the same for everyone (DESIGN §4), so it renders each store at its empty value; the browser may hold
// more by the time an island hydrates — a guest's cart read from localStorage, the stored session, a
// wishlist another island loaded. Read plainly, the island rendered that at once, React found HTML that
// differed from the server's (error #418 on every page for a shopper with a cart) and threw it away.
// Here the hydration render uses the server's value and React renders the browser's right after (the
// server snapshot of useSyncExternalStore); a component first rendered in the browser reads the store
// as it is. The only way islands read stores (a lint rule keeps @nanostores/react out of them).
import { useStore } from '@nanostores/react';
import type { ReadableAtom } from 'nanostores';

/** A stable empty list for the server's value of list stores. */
export const NONE: never[] = Object.freeze([]) as never[];

export function useClientStore<T>(store: ReadableAtom<T>, serverValue: T): T {
  return useStore(store, { ssr: () => serverValue });
}
