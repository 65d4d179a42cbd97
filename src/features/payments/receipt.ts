// 54-FZ receipt lines (DESIGN §6) and the amounts a carrier collects at the door (issue 55) — one
// allocation rule for both: every line's amount is what the shopper pays for it, so the lines add up to
// the payment exactly. Points and balance spent on the order lower the goods' lines in proportion
// (largest remainder, to the kopeck), then delivery; delivery is its own line, a service, and so is the
// carrier's fee for taking the money at the door when the shop passes it on.

import { apportion } from '~/lib/apportion.ts';

export { apportion };

export interface ReceiptSource {
  /** `discount`: the kopecks promotions took off the line (src/features/promotions), before points and balance. */
  lines: { id?: number; name: string; brand: string; variant: string; unit_price: number; quantity: number; discount?: number }[];
  delivery_price: number;
  /** The delivery line's description (the shop's language). */
  delivery_label: string;
  /** Points, balance and gift certificates spent on the order: taken off the goods before the card pays the rest. */
  deducted: number;
  /**
   * Each gift certificate's kopecks in `deducted`, in the order they were applied (issue 56): they come last
   * of the means before the card, and each has a receipt of its own (`certificateLines`).
   */
  certificates?: readonly number[];
  /** The carrier's fee for collecting the money at the door, passed on to the buyer (kopecks). */
  cod_fee?: number;
  /** The fee line's description. */
  cod_fee_label?: string;
}

export interface ReceiptLine {
  description: string;
  quantity: number;
  /** Kopecks per unit. */
  unit: number;
  /** payment: a gift certificate sold (an advance, 54-FZ's «платёж»; issue 56). */
  subject: 'commodity' | 'service' | 'marked' | 'payment';
  /** A marked unit's code (canonical, separators as ASCII 29): one unit a line. */
  mark?: string;
}

/** YooKassa's description limit (128 characters). */
const DESCRIPTION_MAX = 128;

export function describe(brand: string, name: string, variant: string): string {
  const text = [brand, name, variant].filter(Boolean).join(', ');
  return text.length > DESCRIPTION_MAX ? `${text.slice(0, DESCRIPTION_MAX - 1)}…` : text;
}

interface Paid {
  goods: number[];
  delivery: number;
}

/** Takes `amount` off what is left to pay: the goods first, in proportion (largest remainder), then delivery. */
function takeOff(left: Paid, amount: number): Paid {
  const goodsTotal = left.goods.reduce((s, x) => s + x, 0);
  const offGoods = Math.min(amount, goodsTotal);
  const offDelivery = Math.min(amount - offGoods, left.delivery);
  const cuts = apportion(offGoods, left.goods);
  return { goods: left.goods.map((g, i) => g - (cuts[i] ?? 0)), delivery: left.delivery - offDelivery };
}

/**
 * What is left to pay after points and balance, then after each gift certificate in turn (issue 56): each
 * step takes its amount off what the one before left, so no step can take a kopeck back from a line.
 */
function stages(source: ReceiptSource): Paid[] {
  const uses = source.certificates ?? [];
  const goods = source.lines.map((l) => Math.max(0, l.unit_price * l.quantity - (l.discount ?? 0)));
  const out = [takeOff({ goods, delivery: source.delivery_price }, source.deducted - uses.reduce((s, x) => s + x, 0))];
  for (const use of uses) out.push(takeOff(out.at(-1) as Paid, use));
  return out;
}

/** What the buyer pays (by card) for each of the source's lines, and for delivery (the fee apart: nothing is deducted from it). */
export function paidAmounts(source: ReceiptSource): Paid {
  return stages(source).at(-1) as Paid;
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
  const out = linesOf(source, paidAmounts(source), codes);
  if ((source.cod_fee ?? 0) > 0) out.push({ description: source.cod_fee_label ?? '', quantity: 1, unit: source.cod_fee ?? 0, subject: 'service' });
  return out;
}

/** The lines of these amounts paid for the source's goods and delivery (a marked line by unit, with `codes`). */
function linesOf(source: ReceiptSource, paid: Paid, codes?: ReadonlyMap<number, readonly string[]>): ReceiptLine[] {
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

/**
 * What the `index`-th gift certificate paid for each line and for delivery (issue 56): what was left before it
 * less what was left after it, so the certificates' shares and the card's add up to each line's amount to the
 * kopeck, by the same rule (goods first, in proportion; then delivery).
 */
export function certificateShares(source: ReceiptSource, index: number): Paid {
  const all = stages(source);
  const before = all[index] as Paid;
  const after = all[index + 1] ?? before;
  return { goods: before.goods.map((g, i) => g - (after.goods[i] ?? 0)), delivery: before.delivery - after.delivery };
}

/**
 * The goods' receipt for what the `index`-th certificate paid: a settlement of its prepayment (чек зачёта
 * предоплаты against the certificate's own payment), its lines adding up to the certificate's use.
 */
export const certificateLines = (source: ReceiptSource, index: number, codes?: ReadonlyMap<number, readonly string[]>): ReceiptLine[] =>
  linesOf(source, certificateShares(source, index), codes);

/** What a carrier collects for one order line: units at one amount each (a line's kopecks may not divide evenly). */
export interface CollectedUnits {
  quantity: number;
  /** Kopecks per unit. */
  unit: number;
}

/**
 * The amounts a carrier collects at the door (issue 55), by the receipts' rule: each line's share per unit
 * (the remainder a kopeck on the first units, as the settlement receipt splits a marked line), grouped by
 * amount, and the delivery with the fee. They add up to the order's total to the kopeck, as the receipt does.
 */
export function collectedAmounts(source: ReceiptSource): { lines: CollectedUnits[][]; delivery: number } {
  const paid = paidAmounts(source);
  const lines = source.lines.map((line, i) => {
    const units = apportion(
      paid.goods[i] ?? 0,
      Array.from({ length: line.quantity }, () => 1),
    );
    const groups: CollectedUnits[] = [];
    for (const unit of units) {
      const last = groups.at(-1);
      if (last && last.unit === unit) last.quantity++;
      else groups.push({ quantity: 1, unit });
    }
    return groups;
  });
  return { lines, delivery: paid.delivery + (source.cod_fee ?? 0) };
}

export const settlementLines = (source: ReceiptSource, codes: ReadonlyMap<number, readonly string[]>): ReceiptLine[] => receiptLines(source, codes);

/** A receipt's total in kopecks. */
export const receiptTotal = (lines: readonly ReceiptLine[]) => lines.reduce((s, l) => s + l.unit * l.quantity, 0);
