// Payment on delivery (issue 55, docs/payments.md): what the browser and the server share — the reasons
// it is not offered, and the carrier's fee for taking the money at the door when the shop passes it on.
import type { MessageKey } from '~/lib/i18n/index.ts';

/**
 * Why an order cannot be paid on delivery: the shop does not offer it, the delivery is not by a carrier,
 * the point does not take payment, the order is over the shop's limit, the shopper refused too many orders.
 */
export const COD_REASONS = ['off', 'notCarrier', 'point', 'overLimit', 'refusals'] as const;
export type CodReason = (typeof COD_REASONS)[number];

export const codReasonKey = (reason: CodReason): MessageKey => `checkout.cod.${reason}`;

/** The fee for collecting `amount` kopecks at `percent` %, to the kopeck (half up). */
export function codFee(amount: number, percent: number): number {
  return percent > 0 && amount > 0 ? Math.round((amount * percent) / 100) : 0;
}
