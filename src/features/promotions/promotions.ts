// Promotions (issue 56): what a cart's lines cost after the shop's campaigns, to the kopeck. Pure: the
// server loads the promotions in force and the cart's lines and calls `applyPromotions`; the summary, the
// order, the receipts, the carrier's amounts and 1C's document all read its answer. The rules are written in
// docs/promotions.md; each one below names its paragraph there.
import { apportion } from '~/lib/apportion.ts';
import { formatPrice } from '~/lib/format.ts';
import { t, type Locale } from '~/lib/i18n/index.ts';

/** The classes a promotion belongs to (docs/promotions.md "Stacking"). */
export type PromotionClass = 'item' | 'order' | 'delivery';

/** What a promotion applies to: everything, or lines whose product, category or brand is listed. */
export interface PromotionTarget {
  all: boolean;
  productIds: readonly number[];
  categoryIds: readonly number[];
  brandIds: readonly number[];
  /**
   * Only these sizes (labels, upper case) of the goods above — a sale of the end sizes; none or absent: every
   * size. A size-bound promotion changes no price shown (a card is one price for all its sizes): the cart and
   * the checkout apply it (docs/promotions.md "What a promotion is").
   */
  sizes?: readonly string[];
}

export type PromotionRule =
  /** Off each unit's price of the lines it applies to: a percentage (1–100) or kopecks. */
  | { kind: 'percent'; percent: number }
  | { kind: 'amount'; amount: number }
  /** Of each `buy + get` units it applies to, the `get` cheapest at `percent` off (100: free). */
  | { kind: 'buy_get'; buy: number; get: number; percent: number }
  /** Off the goods it applies to once they reach `threshold` kopecks (after item promotions). */
  | { kind: 'order_percent'; percent: number; threshold: number }
  | { kind: 'order_amount'; amount: number; threshold: number }
  /** Delivery free (`percent` 100) or cheaper once the goods reach `threshold`, for these ways (empty: any). */
  | { kind: 'delivery'; percent: number; threshold: number; methods: readonly string[] };

export interface Promotion {
  id: number;
  name: string;
  rule: PromotionRule;
  target: PromotionTarget;
  /** The most this promotion takes off one order, in kopecks (null: no cap). */
  cap: number | null;
  /** Applies only with a code the shopper entered (the code's checks are the server's: limits, dates). */
  needsCode: boolean;
}

export interface PricedCartLine {
  productId: number;
  categoryIds: readonly number[];
  brandId: number;
  /** Kopecks per unit: the price shown before promotions (the product's own sale price included). */
  unitPrice: number;
  quantity: number;
  /** The size's label; absent where no size is chosen (a card's or a product page's price). */
  size?: string | undefined;
}

export interface LineDiscount {
  promotionId: number;
  amount: number;
}

export interface PromotedLine {
  /** Kopecks off the line by each promotion applied to it (item and order classes). */
  discounts: LineDiscount[];
  /** unitPrice × quantity − the discounts: never below 0. */
  amount: number;
}

export interface PromotionResult {
  lines: PromotedLine[];
  /** Each promotion applied, with what it took off in all: the order keeps these. */
  applied: { promotionId: number; name: string; cls: PromotionClass; amount: number }[];
  goodsBefore: number;
  goodsAfter: number;
  deliveryBefore: number;
  deliveryAfter: number;
}

export const classOf = (rule: PromotionRule): PromotionClass =>
  rule.kind === 'delivery' ? 'delivery' : rule.kind === 'order_percent' || rule.kind === 'order_amount' ? 'order' : 'item';

export function applies(target: PromotionTarget, line: PricedCartLine): boolean {
  const goods =
    target.all ||
    target.productIds.includes(line.productId) ||
    target.brandIds.includes(line.brandId) ||
    line.categoryIds.some((id) => target.categoryIds.includes(id));
  if (!goods || !target.sizes || target.sizes.length === 0) return goods;
  return line.size !== undefined && target.sizes.includes(sizeKey(line.size));
}

/** A size's label as a target keeps it: trimmed, upper case («xs » is «XS»). */
export const sizeKey = (label: string): string => label.trim().toUpperCase();

const percentOf = (amount: number, percent: number) => Math.round((amount * percent) / 100);

/** A promotion's cap over what it would take from each line: the capped total spread back in proportion, exactly. */
function capped(perLine: number[], cap: number | null): number[] {
  const total = perLine.reduce((s, x) => s + x, 0);
  if (cap === null || total <= cap) return perLine;
  return apportion(cap, perLine);
}

/**
 * What one item promotion would take off each line, counting only units no earlier promotion took
 * (`free[i]`: how many of line i's units are still open). Answers the kopecks per line and the units it used.
 */
function itemCandidate(promotion: Promotion, lines: readonly PricedCartLine[], open: readonly number[]): { off: number[]; used: number[] } {
  const { rule } = promotion;
  const off = lines.map(() => 0);
  const used = lines.map(() => 0);
  const eligible = lines.map((line, i) => (applies(promotion.target, line) ? (open[i] ?? 0) : 0));
  if (rule.kind === 'percent' || rule.kind === 'amount') {
    lines.forEach((line, i) => {
      const units = eligible[i] ?? 0;
      if (units === 0) return;
      const each = rule.kind === 'percent' ? percentOf(line.unitPrice, rule.percent) : Math.min(rule.amount, line.unitPrice);
      off[i] = each * units;
      used[i] = units;
    });
  } else if (rule.kind === 'buy_get') {
    // Units from the dearest down, in groups of buy + get: the group's `get` cheapest are discounted, so the
    // shopper never gets the dearest unit free and the order of the lines changes nothing.
    const units = lines
      .flatMap((line, i) => Array.from({ length: eligible[i] ?? 0 }, () => ({ i, price: line.unitPrice })))
      .sort((a, b) => b.price - a.price || a.i - b.i);
    const size = rule.buy + rule.get;
    for (let g = 0; g + size <= units.length; g += size) {
      const group = units.slice(g, g + size);
      group.forEach((unit, k) => {
        used[unit.i] = (used[unit.i] ?? 0) + 1;
        if (k >= rule.buy) off[unit.i] = (off[unit.i] ?? 0) + percentOf(unit.price, rule.percent);
      });
    }
  }
  return { off: capped(off, promotion.cap), used };
}

/**
 * Applies the promotions to a cart. Item promotions first, best for the shopper first: the one that takes
 * the most applies, its units are taken, the others are weighed again on the units left (a unit gets one
 * item promotion). Then the order promotion that takes the most, on the goods left, spread over its lines by
 * largest remainder. Then the delivery promotion that takes the most. Docs/promotions.md "Stacking".
 */
export function applyPromotions(
  lines: readonly PricedCartLine[],
  promotions: readonly Promotion[],
  delivery: { price: number; method: string },
): PromotionResult {
  const discounts: LineDiscount[][] = lines.map(() => []);
  const applied: PromotionResult['applied'] = [];
  const open = lines.map((l) => l.quantity);
  const left = lines.map((l) => l.unitPrice * l.quantity);
  const goodsBefore = left.reduce((s, x) => s + x, 0);

  const record = (promotion: Promotion, off: readonly number[]) => {
    let total = 0;
    off.forEach((amount, i) => {
      const take = Math.min(amount, left[i] ?? 0);
      if (take <= 0) return;
      discounts[i]?.push({ promotionId: promotion.id, amount: take });
      left[i] = (left[i] ?? 0) - take;
      total += take;
    });
    if (total > 0) applied.push({ promotionId: promotion.id, name: promotion.name, cls: classOf(promotion.rule), amount: total });
  };

  let items = promotions.filter((p) => classOf(p.rule) === 'item');
  for (;;) {
    let best: { promotion: Promotion; off: number[]; used: number[]; total: number } | undefined;
    for (const promotion of items) {
      const candidate = itemCandidate(promotion, lines, open);
      const total = candidate.off.reduce((s, x) => s + x, 0);
      if (total > 0 && (!best || total > best.total || (total === best.total && promotion.id < best.promotion.id))) best = { promotion, ...candidate, total };
    }
    if (!best) break;
    record(best.promotion, best.off);
    best.used.forEach((n, i) => (open[i] = (open[i] ?? 0) - n));
    items = items.filter((p) => p !== best.promotion);
  }

  let bestOrder: { promotion: Promotion; off: number[]; total: number } | undefined;
  for (const promotion of promotions) {
    const { rule } = promotion;
    if (rule.kind !== 'order_percent' && rule.kind !== 'order_amount') continue;
    const weights = lines.map((line, i) => (applies(promotion.target, line) ? (left[i] ?? 0) : 0));
    const base = weights.reduce((s, x) => s + x, 0);
    if (base === 0 || base < rule.threshold) continue;
    const wanted = Math.min(base, rule.kind === 'order_percent' ? percentOf(base, rule.percent) : rule.amount, promotion.cap ?? Infinity);
    const off = apportion(wanted, weights);
    if (wanted > 0 && (!bestOrder || wanted > bestOrder.total || (wanted === bestOrder.total && promotion.id < bestOrder.promotion.id)))
      bestOrder = { promotion, off, total: wanted };
  }
  if (bestOrder) record(bestOrder.promotion, bestOrder.off);

  const goodsAfter = left.reduce((s, x) => s + x, 0);
  let deliveryAfter = delivery.price;
  let bestDelivery: { promotion: Promotion; off: number } | undefined;
  for (const promotion of promotions) {
    const { rule } = promotion;
    if (rule.kind !== 'delivery' || delivery.price === 0) continue;
    if (rule.methods.length > 0 && !rule.methods.includes(delivery.method)) continue;
    const base = lines.reduce((s, line, i) => s + (applies(promotion.target, line) ? (left[i] ?? 0) : 0), 0);
    if (base === 0 || base < rule.threshold) continue;
    const off = Math.min(delivery.price, percentOf(delivery.price, rule.percent), promotion.cap ?? Infinity);
    if (off > 0 && (!bestDelivery || off > bestDelivery.off || (off === bestDelivery.off && promotion.id < bestDelivery.promotion.id)))
      bestDelivery = { promotion, off };
  }
  if (bestDelivery) {
    deliveryAfter -= bestDelivery.off;
    applied.push({ promotionId: bestDelivery.promotion.id, name: bestDelivery.promotion.name, cls: 'delivery', amount: bestDelivery.off });
  }

  return {
    lines: lines.map((_, i) => ({ discounts: discounts[i] ?? [], amount: left[i] ?? 0 })),
    applied,
    goodsBefore,
    goodsAfter,
    deliveryBefore: delivery.price,
    deliveryAfter,
  };
}

/** A rule in a line, as the console's list and the shopper's order show it («−20 % на товары · не больше 3 000 ₽»). */
export function describeRule(rule: PromotionRule, cap: number | null, locale: Locale): string {
  const money = (kopecks: number) => formatPrice(kopecks);
  const text = (() => {
    switch (rule.kind) {
      case 'percent':
        return t(locale, 'promo.rule.percent', { percent: rule.percent });
      case 'amount':
        return t(locale, 'promo.rule.amount', { amount: money(rule.amount) });
      case 'buy_get':
        return rule.percent >= 100
          ? t(locale, 'promo.rule.buyGetFree', { buy: rule.buy, get: rule.get })
          : t(locale, 'promo.rule.buyGet', { buy: rule.buy, get: rule.get, percent: rule.percent });
      case 'order_percent':
        return t(locale, 'promo.rule.orderPercent', { percent: rule.percent, threshold: money(rule.threshold) });
      case 'order_amount':
        return t(locale, 'promo.rule.orderAmount', { amount: money(rule.amount), threshold: money(rule.threshold) });
      case 'delivery':
        return rule.percent >= 100
          ? t(locale, 'promo.rule.deliveryFree', { threshold: money(rule.threshold) })
          : t(locale, 'promo.rule.delivery', { percent: rule.percent, threshold: money(rule.threshold) });
    }
  })();
  return cap === null ? text : `${text} · ${t(locale, 'promo.rule.cap', { cap: money(Number(cap)) })}`;
}

/** The promotions a price shown on a card or a product page can take: automatic, off each unit. */
export const pricesShown = (promotions: readonly Promotion[]): Promotion[] =>
  promotions.filter((p) => !p.needsCode && (p.rule.kind === 'percent' || p.rule.kind === 'amount'));

/**
 * What the automatic item promotions take off one unit bought alone, and which one: the price a card and a
 * product page show, and the one filters and sorting read. `applyPromotions` gives the same for a cart of
 * that one unit (a test holds them equal); more units, or a buy N get M, are priced at checkout.
 */
export function unitSale(line: Omit<PricedCartLine, 'quantity'>, promotions: readonly Promotion[]): { off: number; promotion: Promotion | null } {
  let off = 0;
  let best: Promotion | null = null;
  for (const promotion of promotions) {
    const { rule } = promotion;
    if (rule.kind !== 'percent' && rule.kind !== 'amount') continue;
    if (!applies(promotion.target, { ...line, quantity: 1 })) continue;
    const each = Math.min(rule.kind === 'percent' ? percentOf(line.unitPrice, rule.percent) : Math.min(rule.amount, line.unitPrice), promotion.cap ?? Infinity);
    if (each > off || (each === off && each > 0 && best !== null && promotion.id < best.id)) {
      off = each;
      best = promotion;
    }
  }
  return { off, promotion: best };
}

/** The summary's answer to a code (docs/api.md): applied, or why not in the shopper's language. */
export type PromoAnswer = { code: string; applied: boolean; reason: string | null } | null;
