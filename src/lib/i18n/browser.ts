// The language rule for browser code that is not a component (stores, the API client): the page embeds
// the strings such code may show, in the page's language (DefaultLayout, BROWSER_KEYS), and they are
// read here. No dictionary is bundled for the browser, so only the active language is ever sent.
import { fill, type Params } from './fill.ts';
import type { MessageKey } from './ru.ts';

/** Keys the browser code outside components shows; DefaultLayout embeds exactly these. */
export const BROWSER_KEYS = ['cart.limit', 'wishlist.loginRequired', 'error.network'] as const satisfies readonly MessageKey[];
export type BrowserKey = (typeof BROWSER_KEYS)[number];
export const BROWSER_MESSAGES_ID = 'browser-messages';

let messages: Partial<Record<BrowserKey, string>> | undefined;

/** For tests and for pages that bring their own strings. */
export function setBrowserMessages(value: Partial<Record<BrowserKey, string>>): void {
  messages = value;
}

function embedded(): Partial<Record<BrowserKey, string>> {
  if (typeof document === 'undefined') return {};
  try {
    return JSON.parse(document.getElementById(BROWSER_MESSAGES_ID)?.textContent ?? '{}') as Partial<Record<BrowserKey, string>>;
  } catch {
    return {};
  }
}

/** The page's text for a key (the key itself if the page embedded none, which only a broken page does). */
export function bt(key: BrowserKey, params?: Params): string {
  messages ??= embedded();
  return fill(messages[key] ?? key, params);
}

/** The page's language, for the API's accept-language (spec §7). */
export function pageLocale(): 'ru' | 'en' {
  return typeof document !== 'undefined' && document.documentElement.lang === 'en' ? 'en' : 'ru';
}
