import { en } from './en.ts';
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

export function t(locale: Locale, key: MessageKey, params: Record<string, string | number> = {}): string {
  const template = (locale === 'en' ? en[key] : undefined) ?? ru[key];
  return template.replace(/\{(\w+)\}/g, (_, name: string) => String(params[name] ?? `{${name}}`));
}

export function isMessageKey(value: string): value is MessageKey {
  return Object.hasOwn(ru, value);
}

/** Picks the word form for a count by the language's plural rules (ru: 1 товар, 3 товара, 5 товаров). */
export function plural(locale: Locale, n: number, forms: { one: MessageKey; few: MessageKey; many: MessageKey }): string {
  const category = new Intl.PluralRules(locale).select(n);
  return t(locale, category === 'one' ? forms.one : category === 'few' ? forms.few : forms.many);
}
