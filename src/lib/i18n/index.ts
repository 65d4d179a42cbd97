import { en } from './en.ts';
import { BROWSER_KEYS, type BrowserKey } from './browser.ts';
import { fill, type Params } from './fill.ts';
import { ru, type MessageKey } from './ru.ts';

export type { MessageKey } from './ru.ts';
export type Locale = 'ru' | 'en';
export const DEFAULT_LOCALE: Locale = 'ru';
/** Pages switch to English only when this cookie says 'en'. */
export const LOCALE_COOKIE = 'lang';

/** Picks the interface language from an accept-language header: English only when it is preferred over Russian. */
export function localeFromHeader(header: string | null | undefined): Locale {
  if (!header) return DEFAULT_LOCALE;
  const ranked = header
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().toLowerCase().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      const weight = q ? Number(q.slice(2)) : 1;
      return { lang: tag.split('-')[0] ?? '', weight: Number.isFinite(weight) ? weight : 0, index };
    })
    .filter((e) => e.lang === 'ru' || e.lang === 'en')
    .sort((a, b) => b.weight - a.weight || a.index - b.index);
  return ranked[0]?.lang === 'en' ? 'en' : DEFAULT_LOCALE;
}

export { fill, type Params } from './fill.ts';

export function t(locale: Locale, key: MessageKey, params: Params = {}): string {
  return fill((locale === 'en' ? en[key] : undefined) ?? ru[key], params);
}

/** Keys that start with one of the prefixes ('newsletter.' → 'newsletter.title', …). */
export type KeysWith<P extends string> = Extract<MessageKey, `${P}${string}`>;

/**
 * The strings an island shows, in the page's language, passed as a prop: only the active language and
 * only the island's own keys reach the browser.
 */
export function messagesFor<P extends string>(locale: Locale, ...prefixes: P[]): Record<KeysWith<P>, string> {
  const out: Record<string, string> = {};
  for (const key of Object.keys(ru) as MessageKey[]) if (prefixes.some((p) => key.startsWith(p))) out[key] = t(locale, key);
  return out as Record<KeysWith<P>, string>;
}

/**
 * A message that may be a key: schemas shared by forms and endpoints carry keys ('validation.required')
 * as their messages, and whoever shows one translates it into the language of its reader.
 */
export function translateMessage(locale: Locale, message: string, params?: Record<string, string | number>): string {
  return isMessageKey(message) ? t(locale, message, params) : message;
}

export function isMessageKey(value: string): value is MessageKey {
  return Object.hasOwn(ru, value);
}

/** Picks the word form for a count by the language's plural rules (ru: 1 товар, 3 товара, 5 товаров). */
export function plural(locale: Locale, n: number, forms: { one: MessageKey; few: MessageKey; many: MessageKey }): string {
  const category = new Intl.PluralRules(locale).select(n);
  return t(locale, category === 'one' ? forms.one : category === 'few' ? forms.few : forms.many);
}

/** What DefaultLayout embeds for the browser code outside components (browser.ts). */
export function browserMessages(locale: Locale): Record<BrowserKey, string> {
  return Object.fromEntries(BROWSER_KEYS.map((key) => [key, t(locale, key)])) as Record<BrowserKey, string>;
}
