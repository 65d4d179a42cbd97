// ru-RU money formatting (spec §9): 12 345 ₽. Prices travel as kopecks and are shown in whole roubles
// unless they have kopecks.
const rub = new Intl.NumberFormat('ru-RU', { maximumFractionDigits: 2 });

export const CURRENCY_SYMBOL = '₽';

export function formatPrice(kopecks: number): string {
  return `${rub.format(kopecks / 100)}\u00a0${CURRENCY_SYMBOL}`;
}

/** spec §3: rounded percent between old and current price; 0 when the old price is not positive. */
export function discountPercent(price: number, priceOld: number | null | undefined): number {
  if (!priceOld || priceOld <= 0 || priceOld <= price) return 0;
  return Math.round(((priceOld - price) * 100) / priceOld);
}

const dateFormats = new Map<string, Intl.DateTimeFormat>();

/**
 * A date as the page's language writes it: `long` is «23 ноября 2026 г.», `short` is «23.11.2026».
 * `timeZone: 'UTC'` for calendar days kept as dates (a statistics row), not as moments.
 */
export function formatDate(value: string | Date, locale: 'ru' | 'en' = 'ru', style: 'long' | 'short' = 'long', timeZone?: 'UTC'): string {
  const key = `${locale}|${style}|${timeZone ?? ''}`;
  let format = dateFormats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locale === 'en' ? 'en-GB' : 'ru-RU', {
      ...(style === 'long' ? { day: 'numeric', month: 'long', year: 'numeric' } : {}),
      ...(timeZone ? { timeZone } : {}),
    });
    dateFormats.set(key, format);
  }
  return format.format(typeof value === 'string' ? new Date(value) : value);
}
