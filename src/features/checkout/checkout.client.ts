// The browser's checkout calls (docs/api.md "Checkout").
import { api } from '~/lib/api.client.ts';
import type { CheckoutSummary, PlacedAnswer } from './checkout.schema.ts';
import type { CartItem } from '~/features/cart/cart.ts';

const BASE = '/api/v1/ecommerce-core/checkout';

export interface SummaryRequest {
  items?: CartItem[] | undefined;
  delivery: { method: string; quote?: string; point?: string };
  payment?: string | undefined;
  use_bonus: number;
  use_balance: number;
  promo_code?: string;
  gift_codes?: string[];
}

export const summaryCall = (body: SummaryRequest, signal?: AbortSignal) =>
  api<CheckoutSummary>(`${BASE}/summary`, { method: 'POST', body, ...(signal ? { signal } : {}) });

/** The key travels as a header; the same key for a retried press is the same order and payment. */
export async function placeOrderCall(body: unknown, idempotencyKey: string): Promise<PlacedAnswer> {
  return api<PlacedAnswer>(`${BASE}/place-order`, { method: 'POST', body, headers: { 'idempotency-key': idempotencyKey } });
}
