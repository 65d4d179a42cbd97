// The order calls' answers (docs/api.md "Orders"): the spec §3 order line — can_cancel and can_return
// as the server's 1/0 — inside the order with its money, delivery and status history.
import { z } from '../../lib/zod.ts';

const flag = z.union([z.literal(0), z.literal(1)]);
const historyEntry = z.object({ status: z.string(), label: z.string(), note: z.string(), created_at: z.string() });

export const orderLineSchema = z.object({
  id: z.number().int(),
  product_id: z.number().int(),
  url: z.string(),
  name: z.string(),
  brand: z.string(),
  image: z.string(),
  variant: z.string(),
  quantity: z.number().int(),
  unit_price: z.number().int(),
  /** unit_price × quantity. */
  price: z.number().int(),
  currency: z.string(),
  can_cancel: flag,
  can_return: flag,
  /** Paid at the door with a partial buy-out (issue 55): how many the buyer kept; null when all were. */
  kept: z.number().int().nullable(),
  delivery_status: z.string(),
  delivery_status_label: z.string(),
  delivery_status_history: z.array(historyEntry),
  tracking_id: z.string().nullable(),
  tracking_history: z.array(z.object({ status: z.string(), place: z.string(), created_at: z.string() })),
});

export const orderDetailSchema = z.object({
  code: z.string(),
  status: z.string(),
  status_label: z.string(),
  payment_status: z.string(),
  payment_method: z.string(),
  created_at: z.string(),
  contact: z.object({ name: z.string(), email: z.string(), phone: z.string() }),
  delivery: z.object({
    method: z.string(),
    city: z.string(),
    address: z.string(),
    postcode: z.string(),
    comment: z.string(),
    carrier: z
      .object({
        carrier: z.string(),
        mode: z.enum(['pickup', 'postamat', 'courier']),
        tariff: z.number().int(),
        price: z.number().int(),
        arrival_from: z.string(),
        arrival_to: z.string(),
        arrival: z.string().describe('as the shopper reads it ("3–7 December")'),
        point: z
          .object({
            code: z.string(),
            name: z.string(),
            address: z.string(),
            hours: z.string(),
            cod: z.boolean().optional().describe('the point takes payment on delivery (absent on orders placed before it was known)'),
          })
          .nullable(),
        number: z.string().nullable().describe("the carrier's parcel number, once shipped"),
        services: z
          .object({ try_on: z.boolean(), partial: z.boolean() })
          .describe('paid at the door (issue 55): trying on, and keeping only part of the order, as ordered'),
        return: z.string().nullable().describe('a return made with the carrier (issue 55): where and how to hand the parcel in'),
      })
      .nullable()
      .describe('delivery by a carrier (issue 38); null for the fixed methods'),
  }),
  items_total: z.number().int(),
  discount_total: z.number().int(),
  /** Kopecks promotions took off the goods (issue 56). */
  promo_discount: z.number().int(),
  /** Each promotion the order got: its name then, class (item, order, delivery), the code that brought it, kopecks. */
  promotions: z.array(z.object({ name: z.string(), class: z.enum(['item', 'order', 'delivery']), code: z.string().nullable(), amount: z.number().int() })),
  delivery_price: z.number().int(),
  bonus_used: z.number().int(),
  balance_used: z.number().int(),
  /** The carrier's fee for taking the money at the door, when passed on (issue 55). */
  cod_fee: z.number().int(),
  total: z.number().int(),
  /** Paid at the door (issue 55): what the carrier took, and how; null before (or when paid online). */
  delivery_result: z
    .object({ collected: z.number().int().nullable(), payments: z.array(z.object({ type: z.enum(['cash', 'card']), sum: z.number().int() })) })
    .nullable(),
  can_cancel: flag,
  can_return: flag,
  tracking_id: z.string().nullable(),
  history: z.array(historyEntry),
  lines: z.array(orderLineSchema),
});
export type OrderDetail = z.output<typeof orderDetailSchema>;

export const orderSummarySchema = z.object({
  code: z.string(),
  status: z.string(),
  status_label: z.string(),
  total: z.number().int(),
  created_at: z.string(),
});
