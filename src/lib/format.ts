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
