// Promotions as the engine's tests build them (src/features/promotions/promotions.ts): one for everything
// unless a target is given, automatic, uncapped.
import type { Promotion, PromotionRule, PromotionTarget } from '../../src/features/promotions/promotions.ts';

export const ALL: PromotionTarget = { all: true, productIds: [], categoryIds: [], brandIds: [] };

export const promo = (id: number, rule: PromotionRule, extra: Partial<Promotion> = {}): Promotion => ({
  id,
  name: `P${id}`,
  rule,
  target: ALL,
  cap: null,
  needsCode: false,
  ...extra,
});
