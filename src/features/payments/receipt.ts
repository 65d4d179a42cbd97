// 54-FZ receipt lines (DESIGN §6): every line's amount is what the shopper pays for it by card, so the
// lines add up to the payment exactly. Points and balance spent on the order lower the goods' lines in
// proportion (largest remainder, to the kopeck); delivery is its own line, a service.

export interface ReceiptSource {
  lines: { id?: number; name: string; brand: string; variant: string; unit_price: number; quantity: number }[];
  delivery_price: number;
  /** The delivery line's description (the shop's language). */
  delivery_label: string;
  /** Points and balance spent on the order: taken off the goods before the card pays the rest. */
  deducted: number;
}

export interface ReceiptLine {
  description: string;
  quantity: number;
  /** Kopecks per unit. */
  unit: number;
  subject: 'commodity' | 'service' | 'marked';
  /** A marked unit's code (canonical, separators as ASCII 29): one unit a line. */
  mark?: string;
}

/** YooKassa's description limit (128 characters). */
const DESCRIPTION_MAX = 128;

export function describe(brand: string, name: string, variant: string): string {
  const text = [brand, name, variant].filter(Boolean).join(', ');
  return text.length > DESCRIPTION_MAX ? `${text.slice(0, DESCRIPTION_MAX - 1)}…` : text;
}

/** Splits `total` kopecks over `weights` in proportion, the rounding remainders going to the largest fractions. */
export function apportion(total: number, weights: readonly number[]): number[] {
  const sum = weights.reduce((s, w) => s + w, 0);
  if (sum === 0) return weights.map(() => 0);
  const exact = weights.map((w) => (total * w) / sum);
  const shares = exact.map(Math.floor);
  let left = total - shares.reduce((s, x) => s + x, 0);
  const order = exact.map((x, i) => ({ i, frac: x - Math.floor(x) })).sort((a, b) => b.frac - a.frac || a.i - b.i);
  for (const { i } of order) {
    if (left <= 0) break;
    shares[i] = (shares[i] ?? 0) + 1;
    left--;
  }
  return shares;
}

/** What the card paid for each of the source's lines, and for delivery. */
export function paidAmounts(source: ReceiptSource): { goods: number[]; delivery: number } {
  const goods = source.lines.map((l) => l.unit_price * l.quantity);
  const goodsTotal = goods.reduce((s, x) => s + x, 0);
  // Points and balance pay goods first; what is left of them pays delivery.
  const offGoods = Math.min(source.deducted, goodsTotal);
  const offDelivery = Math.min(source.deducted - offGoods, source.delivery_price);
  const cuts = apportion(offGoods, goods);
  return { goods: goods.map((g, i) => g - (cuts[i] ?? 0)), delivery: source.delivery_price - offDelivery };
}

/** A line of goods paid `amount` kopecks for its units: one receipt line, or two when the kopecks do not divide. */
function goodsLines(description: string, quantity: number, amount: number): ReceiptLine[] {
  if (amount <= 0) return [];
  // A unit price in whole kopecks: a remainder goes on one unit of its own (a line paid almost wholly
  // by points, under a kopeck a unit, keeps only that unit).
  const unit = Math.floor(amount / quantity);
  const rest = amount - unit * quantity;
  if (rest === 0) return [{ description, quantity, unit, subject: 'commodity' }];
  return [
    ...(quantity > 1 && unit > 0 ? [{ description, quantity: quantity - 1, unit, subject: 'commodity' as const }] : []),
    { description, quantity: 1, unit: unit + rest, subject: 'commodity' },
  ];
}

/**
 * The payment's receipt lines; with `codes` (each marked line's codes by line id, in unit order) the
 * settlement receipt's (чек зачёта предоплаты): the same money, but a marked line split into one line per
 * unit with its code, its amount the line's share to the kopeck (the remainder on the first units). A unit
 * without a code stays plain goods, so the money still adds up (handing over waits for every code).
 */
export function receiptLines(source: ReceiptSource, codes?: ReadonlyMap<number, readonly string[]>): ReceiptLine[] {
  const paid = paidAmounts(source);
  const out: ReceiptLine[] = [];
  source.lines.forEach((line, i) => {
    const amount = paid.goods[i] ?? 0;
    const description = describe(line.brand, line.name, line.variant);
    const marks = codes?.get(line.id ?? -1);
    if (!marks) {
      out.push(...goodsLines(description, line.quantity, amount));
      return;
    }
    const units = apportion(
      amount,
      Array.from({ length: line.quantity }, () => 1),
    );
    units.forEach((unit, u) => {
      const mark = marks[u];
      if (unit <= 0) return;
      out.push(mark ? { description, quantity: 1, unit, subject: 'marked', mark } : { description, quantity: 1, unit, subject: 'commodity' });
    });
  });
  if (paid.delivery > 0) out.push({ description: source.delivery_label, quantity: 1, unit: paid.delivery, subject: 'service' });
  return out;
}

export const settlementLines = (source: ReceiptSource, codes: ReadonlyMap<number, readonly string[]>): ReceiptLine[] => receiptLines(source, codes);

/** A receipt's total in kopecks. */
export const receiptTotal = (lines: readonly ReceiptLine[]) => lines.reduce((s, l) => s + l.unit * l.quantity, 0);
