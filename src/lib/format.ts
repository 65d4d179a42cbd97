// ru-RU money formatting (spec §9): 12 345 ₽. Prices travel as kopecks and are shown in whole roubles
// unless they have kopecks.

export const CURRENCY_SYMBOL = '₽';

/**
 * What `Intl.NumberFormat('ru-RU', { maximumFractionDigits: 2 })` writes for kopecks/100 — groups of three
 * parted by a no-break space, a decimal comma, no trailing zero — without Intl: the first ru-RU formatter a
 * page makes loads ICU's data, 35–73 ms of the phone's main thread in the task that hydrates the first
 * screen (4× that on Lighthouse's phone; docs/performance.md "React paid back"). format.test.ts holds it
 * to Intl's output.
 */
export function formatPrice(kopecks: number): string {
  const whole = Math.round(Math.abs(kopecks));
  const roubles = String(Math.floor(whole / 100)).replace(/\B(?=(\d{3})+$)/g, '\u00a0');
  const cents = whole % 100;
  const fraction = cents === 0 ? '' : `,${String(cents).padStart(2, '0').replace(/0$/, '')}`;
  return `${kopecks < 0 && whole > 0 ? '-' : ''}${roubles}${fraction}\u00a0${CURRENCY_SYMBOL}`;
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

/** A range of calendar days (`YYYY-MM-DD`) as shoppers read it: «25–27 ноября», "25–27 November" (an order's arrival). */
export function formatDayRange(range: { from: string; to: string }, locale: 'ru' | 'en' = 'ru'): string {
  const format = new Intl.DateTimeFormat(locale === 'en' ? 'en-GB' : 'ru-RU', { day: 'numeric', month: 'long', timeZone: 'UTC' });
  const day = (iso: string) => new Date(`${iso}T00:00:00Z`);
  return format.formatRange(day(range.from), day(range.to));
}
