// 54-FZ receipt lines (DESIGN §6): every line's amount is what the shopper pays for it by card, so the
// lines add up to the payment exactly. Points and balance spent on the order lower the goods' lines in
// proportion (largest remainder, to the kopeck); delivery is its own line, a service.

export interface ReceiptSource {
  lines: { name: string; brand: string; variant: string; unit_price: number; quantity: number }[];
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
  subject: 'commodity' | 'service';
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

export function receiptLines(source: ReceiptSource): ReceiptLine[] {
  const goods = source.lines.map((l) => l.unit_price * l.quantity);
  const goodsTotal = goods.reduce((s, x) => s + x, 0);
  // Points and balance pay goods first; what is left of them pays delivery.
  const offGoods = Math.min(source.deducted, goodsTotal);
  const offDelivery = Math.min(source.deducted - offGoods, source.delivery_price);
  const cuts = apportion(offGoods, goods);
  const out: ReceiptLine[] = [];
  source.lines.forEach((line, i) => {
    const amount = (goods[i] ?? 0) - (cuts[i] ?? 0);
    if (amount <= 0) return;
    const description = describe(line.brand, line.name, line.variant);
    // A unit price in whole kopecks: a remainder goes on one unit of its own (a line paid almost wholly
    // by points, under a kopeck a unit, keeps only that unit).
    const unit = Math.floor(amount / line.quantity);
    const rest = amount - unit * line.quantity;
    if (rest === 0) out.push({ description, quantity: line.quantity, unit, subject: 'commodity' });
    else {
      if (line.quantity > 1 && unit > 0) out.push({ description, quantity: line.quantity - 1, unit, subject: 'commodity' });
      out.push({ description, quantity: 1, unit: unit + rest, subject: 'commodity' });
    }
  });
  const delivery = source.delivery_price - offDelivery;
  if (delivery > 0) out.push({ description: source.delivery_label, quantity: 1, unit: delivery, subject: 'service' });
  return out;
}
