// Order statuses (spec §4 delivery status labels; issue 9): the one list the server, the pages and the
// operator command share. An order moves forward along ORDER_FLOW, or to cancelled.
import { z } from '~/lib/zod.ts';
import type { MessageKey } from '~/lib/i18n/index.ts';

// in_transit and at_pickup_point come from the carrier's tracking (issue 38); so does returned, a parcel
// the carrier brought back to the shop undelivered.
export const ORDER_FLOW = ['pending', 'processing', 'purchased', 'ready_to_ship', 'shipped', 'in_transit', 'at_pickup_point', 'delivered'] as const;
export const ORDER_STATUSES = [...ORDER_FLOW, 'cancelled', 'returned'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

export const STATUS_LABELS: Record<OrderStatus, MessageKey> = {
  pending: 'orders.status.pending',
  processing: 'orders.status.processing',
  purchased: 'orders.status.purchased',
  ready_to_ship: 'orders.status.readyToShip',
  shipped: 'orders.status.shipped',
  in_transit: 'orders.status.inTransit',
  at_pickup_point: 'orders.status.atPickupPoint',
  delivered: 'orders.status.delivered',
  cancelled: 'orders.status.cancelled',
  returned: 'orders.status.returned',
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

/** Paid at the door or the pickup point (issue 55): the payment method's id and the order's payment status until the carrier takes the money. */
export const ON_DELIVERY = 'on_delivery';

/** Whether an order's goods may go to the buyer: paid, or to be paid on delivery. */
export function mayShip(paymentStatus: string): boolean {
  return paymentStatus === 'paid' || paymentStatus === ON_DELIVERY;
}

/**
 * How an order is paid, as its pages say it (issue 55): online by card or SBP, or at the door — to be
 * paid, taken (by cash or card, the sum the carrier reported), or refused with nothing taken.
 */
export function paymentNote(order: {
  payment_method: string;
  payment_status: string;
  delivery_result: { collected: number | null; payments: { type: 'cash' | 'card'; sum: number }[] } | null;
}): { key: MessageKey; sum: number | null } {
  if (order.payment_method !== ON_DELIVERY)
    return {
      key: order.payment_method === 'sbp' ? 'orderPage.paidSbp' : order.payment_method === 'sber_pay' ? 'orderPage.paidSberPay' : 'orderPage.paidCard',
      sum: null,
    };
  if (order.payment_status === 'refused') return { key: 'orderPage.refusedAtDoor', sum: null };
  const result = order.delivery_result;
  if (!result) return { key: 'orderPage.onDelivery', sum: null };
  const types = new Set(result.payments.map((p) => p.type));
  const key = types.size === 1 ? (types.has('cash') ? 'orderPage.paidAtDoorCash' : 'orderPage.paidAtDoorCard') : 'orderPage.paidAtDoor';
  return { key, sum: result.collected };
}

/** BS-12345678 (src/features/checkout/checkout.server.ts makes them). */
export const ORDER_CODE = /^BS-\d{8}$/;
export const orderCodeSchema = z.string().regex(ORDER_CODE);

/** Points credited when an order is delivered: this share of what was paid for the goods, for a year. */
export const BONUS_PERCENT = 5;
export const BONUS_VALID_DAYS = 365;

const flowIndex = (status: string) => ORDER_FLOW.indexOf(status as (typeof ORDER_FLOW)[number]);

/** The statuses in which an order's goods have left the shop (marked goods' settlement receipt, issue 39). */
export const HANDED_OVER: readonly OrderStatus[] = ['shipped', 'in_transit', 'at_pickup_point', 'delivered'];

/** The statuses an order ends in: nothing more is delivered, charged or sent for it. */
export const ENDED: readonly OrderStatus[] = ['delivered', 'cancelled', 'returned'];

/** On its way: handed to the carrier and not yet delivered. */
export function onTheWay(status: string): boolean {
  const i = flowIndex(status);
  return i >= flowIndex('shipped') && i < flowIndex('delivered');
}

/**
 * Forward along the flow, never back; cancelled only before shipping, returned (to the shop, by the
 * carrier) only while on the way (docs/api.md "Orders").
 */
export function canMove(from: string, to: OrderStatus): boolean {
  if (from === 'cancelled' || from === 'delivered' || from === 'returned') return false;
  if (to === 'cancelled') return flowIndex(from) < flowIndex('shipped');
  if (to === 'returned') return onTheWay(from);
  const a = flowIndex(from);
  return a >= 0 && flowIndex(to) > a;
}

/**
 * The result page's title for an order that was paid, by where it stands now (issue 54): the mails' link
 * for a guest leads there long after the payment, so "paid" gives way to the parcel's own news.
 */
export function resultTitleKey(status: string, paymentStatus: string): MessageKey {
  if (status === 'cancelled') return paymentStatus === 'unpaid' ? 'result.failedTitle' : 'result.cancelledTitle';
  if (status === 'returned') return paymentStatus === 'refused' ? 'result.refusedTitle' : 'result.returnedTitle';
  if (status === 'delivered') return 'result.deliveredTitle';
  if (status === 'at_pickup_point') return 'result.atPointTitle';
  if (onTheWay(status)) return 'result.shippedTitle';
  return paymentStatus === ON_DELIVERY ? 'result.onDeliveryTitle' : 'result.successTitle';
}
