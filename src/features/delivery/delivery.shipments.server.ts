// Shipments (issue 38, docs/delivery.md "Shipments" and "Tracking"): a paid order registered with its
// carrier in one action, its waybill printed, a courier asked to pick the day's parcels up, and the
// carrier's statuses brought back to the order — by the carrier's webhook, which is trusted only to name
// an order (its status is read back from the carrier's API), or by polling. One shipment per order (the
// `shipments` row is claimed before the carrier is asked, and the carrier is asked for the shop's number
// before a new registration), so a retry, a double click or two managers never make a second parcel.
import { sql } from 'drizzle-orm';
import { selectRows } from '~/lib/db/client.ts';
import { getDb } from '~/lib/db/index.ts';
import { env } from '~/lib/env.ts';
import { HttpError, notFound } from '~/lib/http/errors.ts';
import { t, type MessageKey } from '~/lib/i18n/index.ts';
import { logger, loggableError } from '~/lib/log.ts';
import { mailLayout, sendMail } from '~/lib/mail.server.ts';
import { formatPrice } from '~/lib/format.ts';
import { metrics } from '~/lib/metrics.ts';
import { audit, type Actor } from '~/features/ops/ops.audit.server.ts';
import { orderCodes, unitsWithoutCode } from '~/features/marking/marking.server.ts';
import { settleOrder } from '~/features/payments/payments.receipts.server.ts';
import { noteCarrierError } from './delivery.errors.server.ts';
import { delivered } from '~/features/orders/orders.actions.server.ts';
import { lockOrder, orderByCode, recordStatus, resultPath, sendOrderMail, type OrderView } from '~/features/orders/orders.server.ts';
import { canMove, ORDER_FLOW, type OrderStatus } from '~/features/orders/orders.ts';
import { handOverDate } from './arrival.ts';
import { CarrierRefused, CarrierUnavailable, type CarrierOrder, type CdekClient } from './cdek.server.ts';
import { boxberry, carrier } from './delivery.server.ts';
import type { BoxberryClient } from './boxberry.server.ts';
import { carrierNameKey, type CarrierId, type Parcel } from './delivery.ts';
import { ITEM_PARCEL, packParcel } from './delivery.parcel.ts';
import { itemParcels } from './delivery.parcel.server.ts';

/** The order statuses a shipment may be registered from: paid, not yet handed over. */
const SHIPPABLE: readonly string[] = ['processing', 'purchased', 'ready_to_ship'];
/** A claim older than this with no answer recorded is a crashed attempt, settled by the next one. */
const STALE_CLAIM_SECONDS = 120;
/** Polling asks the carrier about an order on its way at most this often. */
export const POLL_MINUTES = 60;

/** CDEK's statuses as the order's (docs/research/cdek-api-v2.md §5); the others change nothing. */
const CDEK_STATUSES: Record<string, OrderStatus> = {
  RECEIVED_AT_SHIPMENT_WAREHOUSE: 'shipped',
  READY_FOR_SHIPMENT_IN_SENDER_CITY: 'shipped',
  TAKEN_BY_TRANSPORTER_FROM_SENDER_CITY: 'in_transit',
  SENT_TO_TRANSIT_CITY: 'in_transit',
  ACCEPTED_IN_TRANSIT_CITY: 'in_transit',
  ACCEPTED_AT_TRANSIT_WAREHOUSE: 'in_transit',
  READY_FOR_SHIPMENT_IN_TRANSIT_CITY: 'in_transit',
  TAKEN_BY_TRANSPORTER_FROM_TRANSIT_CITY: 'in_transit',
  SENT_TO_RECIPIENT_CITY: 'in_transit',
  ACCEPTED_IN_RECIPIENT_CITY: 'in_transit',
  ARRIVED_AT_RECIPIENT_CITY: 'in_transit',
  ACCEPTED_AT_RECIPIENT_CITY_WAREHOUSE: 'in_transit',
  TAKEN_BY_COURIER: 'in_transit',
  ACCEPTED_AT_PICK_UP_POINT: 'at_pickup_point',
  POSTOMAT_POSTED: 'at_pickup_point',
  DELIVERED: 'delivered',
  POSTOMAT_RECEIVED: 'delivered',
  NOT_DELIVERED: 'returned',
  RETURNED_TO_SENDER_CITY_WAREHOUSE: 'returned',
  RETURNED_TO_TRANSIT_WAREHOUSE: 'returned',
  RETURNED_TO_RECIPIENT_CITY_WAREHOUSE: 'returned',
};

/** Boxberry's statuses are names (docs/research/boxberry-api.md): read by their words. */
const BOXBERRY_STATUSES: [RegExp, OrderStatus][] = [
  [/^выдано|^вручено/i, 'delivered'],
  [/возвращен|к возврату|возврат/i, 'returned'],
  [/поступило в пункт выдачи|на отделении-получателе|в постамате/i, 'at_pickup_point'],
  [/передан[оа]? на доставку|на курьерскую|в город|в городе получателя|в пути|на терминал/i, 'in_transit'],
  [/принято к доставке|передано на сортировку|сортировочный/i, 'shipped'],
];

export function orderStatusOf(carrierCode: string, carrierId: CarrierId = 'cdek'): OrderStatus | undefined {
  if (carrierId === 'boxberry') return BOXBERRY_STATUSES.find(([words]) => words.test(carrierCode))?.[1];
  return CDEK_STATUSES[carrierCode];
}

/** Of the carrier's statuses, the one the order should have now: the furthest along, or returned. */
export function furthest(statuses: readonly { code: string }[], carrierId: CarrierId = 'cdek'): OrderStatus | undefined {
  let best: OrderStatus | undefined;
  for (const s of statuses) {
    const status = orderStatusOf(s.code, carrierId);
    if (!status) continue;
    if (status === 'returned') return 'returned';
    if (!best || ORDER_FLOW.indexOf(status as (typeof ORDER_FLOW)[number]) > ORDER_FLOW.indexOf(best as (typeof ORDER_FLOW)[number])) best = status;
  }
  return best;
}

interface ShipmentRow extends Record<string, unknown> {
  order_id: number;
  carrier: string;
  state: string;
  carrier_uuid: string | null;
  number: string | null;
  seen: string[];
  stale: boolean;
}

const refusal = (key: MessageKey, status = 409, params?: Record<string, string | number>) => new HttpError(status, key, undefined, undefined, params);

function configured(): CdekClient {
  const cdek = carrier();
  if (!cdek) throw refusal('delivery.ship.notConfigured');
  return cdek;
}

function configuredBoxberry(): BoxberryClient {
  const bb = boxberry();
  if (!bb) throw refusal('delivery.ship.notConfigured');
  return bb;
}

/** Each ordered product's item parcel, by product id (their weights and sizes now). */
export type ItemParcels = ReadonlyMap<number, Parcel>;

/**
 * The order's box: the parcel quoted and charged at checkout, else (orders placed before parcels were
 * quoted) its lines packed; never lighter than its items weigh now.
 */
export function orderParcel(order: OrderView, items: ItemParcels): Parcel {
  const packed = packParcel(order.lines.map((l) => ({ parcel: items.get(l.product_id) ?? ITEM_PARCEL, quantity: l.quantity })));
  const quoted = order.delivery_carrier?.parcel;
  return quoted ? { ...quoted, weight: Math.max(quoted.weight, packed.weight) } : packed;
}

/** The order as Boxberry's ParselCreate takes it (docs/research/boxberry-api.md): strings, roubles, grams. */
export function boxberryParcelData(order: OrderView, senderPoint: string, items: ItemParcels): Record<string, unknown> {
  const record = order.delivery_carrier;
  if (!record) throw refusal('delivery.ship.notCarrier');
  const parcel = orderParcel(order, items);
  const rub = (kopecks: number) => (kopecks / 100).toFixed(2);
  return {
    order_id: order.code,
    price: rub(order.items_total),
    payment_sum: '0',
    delivery_sum: rub(record.price),
    vid: record.point ? '1' : '2',
    shop: { name: record.point?.code ?? '', name1: senderPoint },
    customer: { fio: order.contact_name, phone: order.contact_phone.replace(/[^\d+]/g, ''), email: order.contact_email },
    ...(record.point
      ? {}
      : { kurdost: { index: order.delivery_address.postcode, citi: order.delivery_address.city, addressp: order.delivery_address.address } }),
    items: order.lines.map((l) => ({
      id: (l.variant_code || `line-${l.id}`).slice(0, 50),
      name: [l.brand, l.name, l.variant && `(${l.variant})`].filter(Boolean).join(' ').slice(0, 255),
      UnitName: t('ru', 'delivery.boxberry.unit'),
      nds: '',
      price: rub(l.unit_price),
      quantity: String(l.quantity),
    })),
    weights: { weight: String(parcel.weight), x: String(parcel.length), y: String(parcel.width), z: String(parcel.height) },
    issue: '0',
    fitting: '0',
  };
}

/** The parcel registered with Boxberry: its track is its number. A repeat of the order's number means an earlier attempt got through. */
async function registerWithBoxberry(order: OrderView, items: ItemParcels): Promise<{ uuid: string; number: string | undefined }> {
  const bb = configuredBoxberry();
  const senderPoint = env().BOXBERRY_SENDER_POINT;
  if (!senderPoint) throw refusal('delivery.ship.noSenderPoint');
  try {
    const made = await bb.createParcel(boxberryParcelData(order, senderPoint, items));
    return { uuid: made.track, number: made.track };
  } catch (error) {
    // Boxberry keeps one parcel per order number and answers a repeat "…уже занято": the parcel is there,
    // followed by the order's number (ListStatuses takes it); its track is in Boxberry's cabinet.
    // eslint-disable-next-line shop/no-cyrillic-literal -- Boxberry's own refusal, matched, never shown
    if (error instanceof CarrierRefused && error.codes.some((c) => c.includes('уже занято'))) return { uuid: order.code, number: undefined };
    throw error;
  }
}

/** The order as CDEK's POST /orders takes it (docs/research/cdek-api-v2.md §5). */
export function cdekOrderBody(
  order: OrderView,
  senderPoint: string,
  items: ItemParcels,
  codes: ReadonlyMap<number, string[]> = new Map(),
): Record<string, unknown> {
  const record = order.delivery_carrier;
  if (!record) throw refusal('delivery.ship.notCarrier');
  const parcel = orderParcel(order, items);
  const phone = order.contact_phone.replace(/[^\d+]/g, '');
  const destination = record.point
    ? { delivery_point: record.point.code }
    : {
        to_location: {
          ...(record.city ? { code: record.city.code } : { city: order.delivery_address.city }),
          address: order.delivery_address.address,
          ...(order.delivery_address.postcode ? { postal_code: order.delivery_address.postcode } : {}),
        },
      };
  return {
    type: 1,
    number: order.code,
    tariff_code: record.tariff,
    comment: order.delivery_address.comment || t('ru', 'delivery.cdek.comment', { code: order.code }),
    shipment_point: senderPoint,
    ...destination,
    recipient: { name: order.contact_name, email: order.contact_email, phones: [{ number: phone }] },
    // Paid in advance: the recipient pays nothing at the point or to the courier.
    delivery_recipient_cost: { value: 0 },
    packages: [
      {
        number: '1',
        weight: parcel.weight,
        length: parcel.length,
        width: parcel.width,
        height: parcel.height,
        comment: t('ru', 'delivery.cdek.contents'),
        items: order.lines.flatMap((l) => {
          const item = {
            name: [l.brand, l.name, l.variant && `(${l.variant})`].filter(Boolean).join(' ').slice(0, 255),
            ware_key: (l.variant_code || `line-${l.id}`).slice(0, 50),
            payment: { value: 0 },
            // The declared value, in roubles.
            cost: l.unit_price / 100,
            // Grams per item (CDEK's `weight` of a good is its unit's).
            weight: (items.get(l.product_id) ?? ITEM_PARCEL).weight,
            amount: l.quantity,
          };
          // Marked goods (issue 39): a position per unit, with its code in `marking` and an amount of 1.
          const marks = codes.get(l.id);
          if (!marks?.length) return [item];
          return marks.map((marking, i) => ({ ...item, ware_key: `${item.ware_key.slice(0, 45)}#${i + 1}`, marking, amount: 1 }));
        }),
      },
    ],
  };
}

async function shipmentRow(orderId: number): Promise<ShipmentRow | undefined> {
  const [row] = await selectRows<ShipmentRow>(
    await getDb(),
    sql`SELECT order_id, carrier, state, carrier_uuid, number, seen, created_at < now() - make_interval(secs => ${STALE_CLAIM_SECONDS}) AS stale
          FROM shipments WHERE order_id = ${orderId}`,
  );
  return row;
}

/** Records the carrier's number on the order (its tracking number) once the carrier has given it. */
async function recordNumber(orderId: number, number: string): Promise<void> {
  const db = await getDb();
  await db.execute(sql`UPDATE shipments SET number = ${number}, updated_at = now() WHERE order_id = ${orderId} AND number IS DISTINCT FROM ${number}`);
  await db.execute(sql`UPDATE orders SET tracking_id = ${number}, updated_at = now() WHERE id = ${orderId} AND tracking_id IS DISTINCT FROM ${number}`);
  await db.execute(sql`UPDATE order_lines SET tracking_id = ${number} WHERE order_id = ${orderId} AND tracking_id IS DISTINCT FROM ${number}`);
}

/**
 * Registers a paid order with its carrier: once. A second call for a registered order answers it as it is;
 * one made while another is asking the carrier is refused (409) rather than asking twice.
 */
export async function registerShipment(code: string, actor: Actor): Promise<OrderView> {
  const order = await orderByCode(code);
  if (!order) throw notFound();
  if (order.shipment?.state === 'registered') return order;
  if (!order.delivery_carrier) throw refusal('delivery.ship.notCarrier');
  if (order.payment_status !== 'paid' || !SHIPPABLE.includes(order.status)) throw refusal('delivery.ship.notShippable');
  // Marked goods leave only with every unit's code (issue 39): the carrier and the settlement receipt carry them.
  const unmarked = await unitsWithoutCode(code);
  if (unmarked > 0) throw refusal('delivery.ship.unmarked', 409, { count: unmarked });
  const carrierId = order.delivery_carrier.carrier;
  if (carrierId === 'boxberry') configuredBoxberry();
  else configured();
  const senderPoint = carrierId === 'boxberry' ? env().BOXBERRY_SENDER_POINT : env().DELIVERY_SENDER_POINT;
  if (!senderPoint) throw refusal('delivery.ship.noSenderPoint');

  const db = await getDb();
  const claimed = await selectRows(
    db,
    sql`INSERT INTO shipments (order_id, carrier) VALUES (${order.id}, ${order.delivery_carrier.carrier}) ON CONFLICT (order_id) DO NOTHING RETURNING order_id`,
  );
  if (claimed.length === 0) {
    const row = await shipmentRow(order.id);
    if (row?.state === 'registered') return (await orderByCode(code)) ?? order;
    if (!row?.stale) throw refusal('delivery.ship.inProgress');
    // A crashed attempt's claim: this one settles it (the carrier is asked for the shop's number first).
  }
  try {
    let uuid: string;
    let number: string | undefined;
    const items = await itemParcels(order.lines.map((l) => l.product_id));
    if (carrierId === 'boxberry') ({ uuid, number } = await registerWithBoxberry(order, items));
    else {
      const cdek = configured();
      // An earlier attempt may have reached the carrier and lost its answer: the carrier knows the order by our code.
      const held = await cdek.orderByNumber(code);
      uuid = held?.uuid ?? (await cdek.createOrder(cdekOrderBody(order, senderPoint, items, await orderCodes(order.id))));
      const processed =
        held ?? (await cdek.getOrder(uuid).catch((error: unknown) => (error instanceof CarrierUnavailable ? undefined : Promise.reject(error))));
      if (processed?.invalid) throw new CarrierRefused('CDEK found the order invalid', 400, processed.invalid);
      number = processed?.carrierNumber;
    }
    await db.execute(sql`UPDATE shipments SET state = 'registered', carrier_uuid = ${uuid}, updated_at = now() WHERE order_id = ${order.id}`);
    // Changed for 1C too: the next orders document carries the shipped units' codes.
    await db.execute(sql`UPDATE orders SET updated_at = now() WHERE id = ${order.id}`);
    if (number) await recordNumber(order.id, number);
    metrics().carrierCalls.inc({ carrier: carrierId, operation: 'register', outcome: 'ok' });
    await audit(actor, 'order.shipment', 'order', code, null, { carrier: carrierId, uuid, number: number ?? null });
  } catch (error) {
    // Not registered: the claim goes, and the manager may try again.
    await db.execute(sql`DELETE FROM shipments WHERE order_id = ${order.id} AND state = 'registering'`);
    if (error instanceof CarrierRefused || error instanceof CarrierUnavailable) noteCarrierError(carrierId, 'register', error);
    if (error instanceof CarrierRefused) {
      metrics().carrierCalls.inc({ carrier: carrierId, operation: 'register', outcome: 'refused' });
      logger.warn({ carrier: carrierId, operation: 'register', codes: error.codes }, 'carrier refused a shipment');
      throw refusal('delivery.ship.refused', 422, { codes: error.codes.join(', ') || String(error.status) });
    }
    if (error instanceof CarrierUnavailable) {
      metrics().carrierCalls.inc({ carrier: carrierId, operation: 'register', outcome: 'unavailable' });
      throw refusal('delivery.ship.unavailable', 502);
    }
    throw error;
  }
  // Handed to the carrier: a prepaid order's settlement receipt goes now (SETTLEMENT_RECEIPT_AT=shipment).
  await settleOrder(code);
  return (await orderByCode(code)) ?? order;
}

/** The registered order's waybill as a PDF, made by the carrier (a few seconds at most). */
export async function waybill(code: string, actor: Actor, waitMs = 500, tries = 20): Promise<Uint8Array<ArrayBuffer>> {
  const order = await orderByCode(code);
  if (!order) throw notFound();
  const row = await shipmentRow(order.id);
  if (row?.state !== 'registered' || !row.carrier_uuid) throw refusal('delivery.ship.notRegistered');
  try {
    if (row.carrier === 'boxberry') {
      // Boxberry's label, by the parcel's track (a parcel known only by the order's number has none here).
      if (!row.number) throw refusal('delivery.ship.notRegistered');
      const bb = configuredBoxberry();
      const pdf = await bb.download(await bb.labelUrl(row.number));
      await audit(actor, 'order.waybill', 'order', code, null, { carrier: row.carrier });
      return pdf;
    }
    const cdek = configured();
    const job = await cdek.printWaybill(row.carrier_uuid);
    for (let i = 0; i < tries; i++) {
      const url = await cdek.printReady(job);
      if (url) {
        const pdf = await cdek.download(url);
        await audit(actor, 'order.waybill', 'order', code, null, { carrier: row.carrier });
        return pdf;
      }
      await new Promise((resolve) => setTimeout(resolve, waitMs));
    }
    throw new CarrierUnavailable('CDEK did not make the waybill in time');
  } catch (error) {
    if (error instanceof CarrierRefused) throw refusal('delivery.ship.refused', 422, { codes: error.codes.join(', ') || String(error.status) });
    if (error instanceof CarrierUnavailable) throw refusal('delivery.ship.unavailable', 502);
    throw error;
  }
}

/** The day a courier asked now comes: today before 15:00 Moscow time on a working day, else the next working day. */
export function intakeDate(now = new Date()): string {
  return handOverDate(now, { handlingDays: 0, cutoff: '15:00', timeZone: 'Europe/Moscow' });
}

/**
 * Asks the carrier for a courier to pick up the registered parcels not yet handed over, once a day: the
 * day's second call is refused with the date already booked.
 */
export async function requestIntake(actor: Actor, now = new Date()): Promise<{ date: string; shipments: number }> {
  const cdek = configured();
  const e = env();
  if (!e.DELIVERY_SENDER_ADDRESS || !e.DELIVERY_SENDER_NAME || !e.DELIVERY_SENDER_PHONE) throw refusal('delivery.intake.noSender');
  const date = intakeDate(now);
  const db = await getDb();
  const [booked] = await selectRows(db, sql`SELECT 1 FROM carrier_intakes WHERE intake_date = ${date}`);
  if (booked) throw refusal('delivery.intake.exists', 409, { date });
  const waiting = await selectRows<{ order_id: number; code: string; parcel: Parcel | null; items: number }>(
    db,
    sql`SELECT s.order_id, o.code, o.delivery_carrier->'parcel' AS parcel,
               (SELECT coalesce(sum(quantity), 0)::int FROM order_lines l WHERE l.order_id = o.id) AS items
          FROM shipments s JOIN orders o ON o.id = s.order_id
         WHERE s.state = 'registered' AND s.carrier = 'cdek' AND s.intake_date IS NULL AND o.status IN ('processing', 'purchased', 'ready_to_ship')
         ORDER BY s.order_id`,
  );
  if (waiting.length === 0) throw refusal('delivery.intake.none');
  const claimed = await selectRows(
    db,
    sql`INSERT INTO carrier_intakes (intake_date, carrier, shipments) VALUES (${date}, 'cdek', ${waiting.length}) ON CONFLICT (intake_date) DO NOTHING RETURNING intake_date`,
  );
  if (claimed.length === 0) throw refusal('delivery.intake.exists', 409, { date });
  // The day's parcels as one load: each order's box (an order from before parcels were quoted: its items at the default).
  const load = packParcel(waiting.map((w) => ({ parcel: w.parcel ?? packParcel([{ parcel: ITEM_PARCEL, quantity: w.items }]), quantity: 1 })));
  try {
    const uuid = await cdek.createIntake({
      intake_date: date,
      intake_time_from: '10:00',
      intake_time_to: '18:00',
      name: t('ru', 'delivery.cdek.intakeName'),
      weight: load.weight,
      length: load.length,
      width: load.width,
      height: load.height,
      comment: t('ru', 'delivery.cdek.intakeComment', { codes: waiting.map((w) => w.code).join(', ') }).slice(0, 255),
      need_call: true,
      sender: { name: e.DELIVERY_SENDER_NAME, phones: [{ number: e.DELIVERY_SENDER_PHONE }] },
      from_location: { code: e.DELIVERY_SENDER_CITY_CODE, address: e.DELIVERY_SENDER_ADDRESS },
    });
    await db.execute(sql`UPDATE carrier_intakes SET carrier_uuid = ${uuid} WHERE intake_date = ${date}`);
    await db.execute(
      sql`UPDATE shipments SET intake_date = ${date}, updated_at = now() WHERE order_id IN (${sql.join(
        waiting.map((w) => sql`${w.order_id}`),
        sql`, `,
      )})`,
    );
    await audit(actor, 'delivery.intake', 'order', waiting.map((w) => w.code).join(','), null, { date, uuid, shipments: waiting.length });
  } catch (error) {
    await db.execute(sql`DELETE FROM carrier_intakes WHERE intake_date = ${date} AND carrier_uuid IS NULL`);
    if (error instanceof CarrierRefused) throw refusal('delivery.ship.refused', 422, { codes: error.codes.join(', ') || String(error.status) });
    if (error instanceof CarrierUnavailable) throw refusal('delivery.ship.unavailable', 502);
    throw error;
  }
  return { date, shipments: waiting.length };
}

// ---------------------------------------------------------------- tracking

/**
 * What the carrier says of an order, applied: each status not seen before becomes a line of the order's
 * tracking, and the order moves to the furthest of them — forward only, so an event repeated or arriving
 * late changes nothing. Delivery's rules (points, commission) run in the same transaction, once. The
 * customer is written to at "waiting at the pickup point" and at "delivered". The status moved to, if any.
 */
export async function applyCarrierOrder(
  orderId: number,
  held: Pick<CarrierOrder, 'statuses' | 'carrierNumber'>,
  carrierId: CarrierId = 'cdek',
): Promise<OrderStatus | null> {
  const db = await getDb();
  let moved: OrderStatus | null = null;
  let code = '';
  await db.transaction(async (tx) => {
    const order = await lockOrder(tx, orderId);
    if (!order) return;
    code = order.code;
    const [row] = await selectRows<{ seen: string[] }>(tx, sql`SELECT seen FROM shipments WHERE order_id = ${orderId} FOR UPDATE`);
    if (!row) return;
    const seen = new Set(row.seen);
    const fresh = held.statuses.filter((s) => !seen.has(`${s.code}@${s.at}`));
    for (const s of fresh) {
      seen.add(`${s.code}@${s.at}`);
      await tx.execute(sql`INSERT INTO tracking_events (order_id, status, place, created_at) VALUES (${orderId}, ${s.name || s.code}, ${s.city}, ${s.at})`);
    }
    const target = furthest(held.statuses, carrierId);
    if (target && order.payment_status === 'paid' && canMove(order.status, target)) {
      await recordStatus(tx, orderId, target, 'carrier');
      if (target === 'delivered') await delivered(tx, orderId);
      moved = target;
    }
    await tx.execute(
      sql`UPDATE shipments SET seen = ${JSON.stringify([...seen])}::jsonb, status = ${held.statuses.at(-1)?.code ?? null}, polled_at = now(), updated_at = now()
           WHERE order_id = ${orderId}`,
    );
  });
  if (held.carrierNumber) await recordNumber(orderId, held.carrierNumber);
  if (moved) await settleOrder(code);
  if (moved === 'at_pickup_point') void sendAtPointMail(code);
  else if (moved === 'delivered') void sendOrderMail(code, 'status');
  return moved;
}

/** "Your parcel is waiting at the point": the point, its address and hours, and how long it is kept. */
async function sendAtPointMail(code: string): Promise<void> {
  try {
    const order = await orderByCode(code);
    if (!order) return;
    const l = (key: MessageKey, params?: Record<string, string | number>) => t('ru', key, params);
    const point = order.delivery_carrier?.point;
    const url = new URL(order.customer_id === null ? await resultPath(order.code) : `/dashboard/order/${order.code}`, env().SITE_URL).href;
    const title = l('mail.delivery.atPointTitle', { code: order.code });
    const lines = [
      l('mail.delivery.atPointText', { carrier: l(carrierNameKey(order.delivery_carrier?.carrier ?? 'cdek')) }),
      ...(point ? [l('mail.delivery.point', { name: point.name, address: point.address }), l('mail.delivery.hours', { hours: point.hours })] : []),
      ...(order.tracking_id ? [l('mail.delivery.number', { number: order.tracking_id })] : []),
      l('mail.delivery.bring'),
      l('mail.order.total', { total: formatPrice(order.total) }),
    ];
    await sendMail({ to: order.contact_email, subject: title, ...mailLayout(title, lines, { label: l('mail.order.action'), url }) });
  } catch (error) {
    logger.error({ err: loggableError(error) }, 'delivery mail failed');
  }
}

/**
 * The carrier's ORDER_STATUS webhook: the body only names an order. It must name one of ours that the
 * carrier holds under the uuid we were given; its statuses are then read from the carrier's API.
 */
export async function carrierNotified(body: { uuid: string; number: string | undefined }): Promise<{ status: string; moved: boolean }> {
  // A shop without CDEK registered nothing with it: no order of its can be named.
  const cdek = carrier();
  if (!cdek) throw notFound();
  const [row] = await selectRows<{ order_id: number; carrier_uuid: string | null; status: string }>(
    await getDb(),
    sql`SELECT s.order_id, s.carrier_uuid, o.status FROM shipments s JOIN orders o ON o.id = s.order_id
         WHERE s.state = 'registered' AND s.carrier = 'cdek' AND s.carrier_uuid = ${body.uuid} AND (${body.number ?? null}::text IS NULL OR o.code = ${body.number ?? null})`,
  );
  if (!row || !row.carrier_uuid) throw notFound();
  let held: CarrierOrder;
  try {
    held = await cdek.getOrder(row.carrier_uuid);
  } catch (error) {
    if (error instanceof CarrierUnavailable) throw refusal('delivery.ship.unavailable', 503);
    throw error;
  }
  const moved = await applyCarrierOrder(row.order_id, held);
  metrics().carrierCalls.inc({ carrier: 'cdek', operation: 'webhook', outcome: moved ? 'moved' : 'unchanged' });
  return { status: moved ?? row.status, moved: moved !== null };
}

/**
 * Asks the carrier about the orders on their way not asked about for POLL_MINUTES (the webhook has no
 * retries, and a carrier without push has only this): how many were asked. A carrier down stops the round.
 */
export async function pollShipments(limit = 200): Promise<number> {
  const cdek = carrier();
  const bb = boxberry();
  const ready = [...(cdek ? ['cdek'] : []), ...(bb ? ['boxberry'] : [])];
  if (ready.length === 0) return 0;
  const rows = await selectRows<{ order_id: number; carrier: CarrierId; carrier_uuid: string }>(
    await getDb(),
    sql`SELECT s.order_id, s.carrier, s.carrier_uuid FROM shipments s JOIN orders o ON o.id = s.order_id
         WHERE s.state = 'registered' AND s.carrier_uuid IS NOT NULL AND s.carrier IN (${sql.join(
           ready.map((id) => sql`${id}`),
           sql`, `,
         )})
           AND o.status IN ('processing', 'purchased', 'ready_to_ship', 'shipped', 'in_transit', 'at_pickup_point')
           AND (s.polled_at IS NULL OR s.polled_at < now() - make_interval(mins => ${POLL_MINUTES}))
         ORDER BY s.polled_at NULLS FIRST LIMIT ${limit}`,
  );
  let asked = 0;
  const down = new Set<CarrierId>();
  for (const row of rows) {
    if (down.has(row.carrier)) continue;
    try {
      if (row.carrier === 'boxberry' && bb)
        await applyCarrierOrder(row.order_id, { statuses: await bb.statuses(row.carrier_uuid), carrierNumber: undefined }, 'boxberry');
      else if (cdek) await applyCarrierOrder(row.order_id, await cdek.getOrder(row.carrier_uuid));
      asked++;
    } catch (error) {
      // A carrier that is down is not asked about its other orders this round.
      if (error instanceof CarrierUnavailable) {
        noteCarrierError(row.carrier as CarrierId, 'track', error);
        down.add(row.carrier);
        continue;
      }
      if (!(error instanceof CarrierRefused)) throw error;
      // Refused (an order the carrier deleted): not asked again for an hour.
      await (await getDb()).execute(sql`UPDATE shipments SET polled_at = now() WHERE order_id = ${row.order_id}`);
    }
  }
  return asked;
}

/** With DELIVERY_AUTO_REGISTER, paid carrier orders are registered without a manager: how many were. */
export async function registerPaidOrders(limit = 50): Promise<number> {
  const e = env();
  if (!e.DELIVERY_AUTO_REGISTER) return 0;
  // Only the carriers the shop can register with: an account and the point where parcels are handed over.
  const ready = [...(carrier() && e.DELIVERY_SENDER_POINT ? ['cdek'] : []), ...(boxberry() && e.BOXBERRY_SENDER_POINT ? ['boxberry'] : [])];
  if (ready.length === 0) return 0;
  const rows = await selectRows<{ code: string; carrier: string }>(
    await getDb(),
    sql`SELECT o.code, o.delivery_carrier->>'carrier' AS carrier FROM orders o LEFT JOIN shipments s ON s.order_id = o.id
         WHERE o.delivery_carrier->>'carrier' IN (${sql.join(
           ready.map((id) => sql`${id}`),
           sql`, `,
         )}) AND o.payment_status = 'paid' AND o.status IN ('processing', 'purchased', 'ready_to_ship') AND s.order_id IS NULL
         ORDER BY o.id LIMIT ${limit}`,
  );
  let done = 0;
  for (const { code, carrier: carrierId } of rows) {
    try {
      await registerShipment(code, { operatorId: null, name: 'auto-register', ip: '' });
      done++;
    } catch (error) {
      if (!(error instanceof HttpError)) throw error;
      logger.warn({ carrier: carrierId, operation: 'register', status: error.status }, 'automatic registration did not go through');
      if (error.status === 502) break;
    }
  }
  return done;
}
