// Order statuses (spec §4 delivery status labels; issue 9): the one list the server, the pages and the
// operator command share. An order moves forward along ORDER_FLOW, or to cancelled.
import { z } from '~/lib/zod.ts';
import type { MessageKey } from '~/lib/i18n/index.ts';

export const ORDER_FLOW = ['pending', 'processing', 'purchased', 'ready_to_ship', 'shipped', 'delivered'] as const;
export const ORDER_STATUSES = [...ORDER_FLOW, 'cancelled'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

export const STATUS_LABELS: Record<OrderStatus, MessageKey> = {
  pending: 'orders.status.pending',
  processing: 'orders.status.processing',
  purchased: 'orders.status.purchased',
  ready_to_ship: 'orders.status.readyToShip',
  shipped: 'orders.status.shipped',
  delivered: 'orders.status.delivered',
  cancelled: 'orders.status.cancelled',
};

export function isOrderStatus(value: string): value is OrderStatus {
  return (ORDER_STATUSES as readonly string[]).includes(value);
}

export function statusLabelKey(status: string): MessageKey {
  return isOrderStatus(status) ? STATUS_LABELS[status] : 'orders.status.processing';
}

/** Until the shop has bought the item from the boutique, the customer may cancel (docs/api.md "Orders"). */
export const CANCELLABLE: readonly OrderStatus[] = ['pending', 'processing'];
/** A delivered order may be returned within this many days of delivery (info page 10). */
export const RETURN_DAYS = 14;

export function canCancel(status: string): boolean {
  return (CANCELLABLE as readonly string[]).includes(status);
}

export function canReturn(status: string, deliveredAt: Date | null, now = new Date()): boolean {
  return status === 'delivered' && deliveredAt !== null && now.getTime() - deliveredAt.getTime() <= RETURN_DAYS * 86_400_000;
}

/** BS-12345678 (src/features/checkout/checkout.server.ts makes them). */
export const ORDER_CODE = /^BS-\d{8}$/;
export const orderCodeSchema = z.string().regex(ORDER_CODE);

/** Points credited when an order is delivered: this share of what was paid for the goods, for a year. */
export const BONUS_PERCENT = 5;
export const BONUS_VALID_DAYS = 365;

/** Forward along the flow, never back; cancelled only before shipping (docs/api.md "Orders"). */
export function canMove(from: string, to: OrderStatus): boolean {
  if (from === 'cancelled' || from === 'delivered') return false;
  if (to === 'cancelled') return from !== 'shipped';
  const a = ORDER_FLOW.indexOf(from as (typeof ORDER_FLOW)[number]);
  return a >= 0 && ORDER_FLOW.indexOf(to) > a;
}
