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
import { collectedFor, recordDoorReceipts, settleOrder } from '~/features/payments/payments.receipts.server.ts';
import { noteCarrierError } from './delivery.errors.server.ts';
import { delivered, handedOverAtDoor, refusedAtDoor, type DoorResult } from '~/features/fulfilment/fulfilment.server.ts';
import { lockOrder, orderByCode, recordStatus, resultPath, sendOrderMail } from '~/features/orders/orders.server.ts';
import { canMove, mayShip, ON_DELIVERY, type OrderStatus } from '~/features/orders/orders.ts';
import { handOverDate } from './arrival.ts';
import { CarrierRefused, CarrierUnavailable, furthest, lineKey, lineKeyOf, type Carrier, type CarrierTrack, type HandOver } from './carrier.server.ts';
import { carrierOf, configuredCarriers, intakeCarrier } from './carriers.server.ts';
import { carrierNameKey, CARRIER_IDS, type CarrierDeliveryRecord, type CarrierId, type Parcel } from './delivery.ts';
import { ITEM_PARCEL, packParcel } from './delivery.parcel.ts';
import { itemParcels } from './delivery.parcel.server.ts';

/** The order statuses a shipment may be registered from: paid, not yet handed over. */
const SHIPPABLE: readonly string[] = ['processing', 'purchased', 'ready_to_ship'];
/** A claim older than this with no answer recorded is a crashed attempt, settled by the next one. */
const STALE_CLAIM_SECONDS = 120;
/** Polling asks the carrier about an order on its way at most this often. */
export const POLL_MINUTES = 60;

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

/** A carrier's answer to a manager's action, as the console's error. */
function carrierFailure(error: unknown): never {
  if (error instanceof CarrierRefused) throw refusal('delivery.ship.refused', 422, { codes: error.codes.join(', ') || String(error.status) });
  if (error instanceof CarrierUnavailable) throw refusal('delivery.ship.unavailable', 502);
  throw error;
}

/** An order's carrier, if the shop still has an account with it. */
function usable(id: string | undefined): Carrier | undefined {
  const known = CARRIER_IDS.find((c) => c === id);
  const carrier = known ? carrierOf(known) : undefined;
  return carrier?.configured() ? carrier : undefined;
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
 * Registers a paid order with its carrier: once. A second call for a registered order changes nothing;
 * one made while another is asking the carrier is refused (409) rather than asking twice. The order is
 * read once.
 */
export async function registerShipment(code: string, actor: Actor): Promise<void> {
  const order = await orderByCode(code);
  if (!order) throw notFound();
  if (order.shipment?.state === 'registered') return;
  const record = order.delivery_carrier;
  if (!record) throw refusal('delivery.ship.notCarrier');
  if (!mayShip(order.payment_status) || !SHIPPABLE.includes(order.status)) throw refusal('delivery.ship.notShippable');
  // Marked goods leave only with every unit's code (issue 39): the carrier and the settlement receipt carry them.
  const unmarked = await unitsWithoutCode(code);
  if (unmarked > 0) throw refusal('delivery.ship.unmarked', 409, { count: unmarked });
  const carrier = usable(record.carrier);
  if (!carrier) throw refusal('delivery.ship.notConfigured');
  const senderPoint = carrier.senderPoint();
  if (!senderPoint) throw refusal('delivery.ship.noSenderPoint');

  const db = await getDb();
  const claimed = await selectRows(
    db,
    sql`INSERT INTO shipments (order_id, carrier) VALUES (${order.id}, ${carrier.id}) ON CONFLICT (order_id) DO NOTHING RETURNING order_id`,
  );
  if (claimed.length === 0) {
    const row = await shipmentRow(order.id);
    if (row?.state === 'registered') return;
    if (!row?.stale) throw refusal('delivery.ship.inProgress');
    // A crashed attempt's claim: this one settles it (the carrier is asked for the shop's number first).
  }
  let made: { uuid: string; number: string | undefined };
  try {
    const items = await itemParcels(order.lines.map((l) => l.product_id));
    // Paid on delivery: what the carrier collects, line by line, by the receipts' allocation (to the kopeck).
    const collect = order.payment_status === ON_DELIVERY ? collectedFor(order) : null;
    made = await carrier.register({ order, record, items, codes: await orderCodes(order.id), senderPoint, collect });
    await db.execute(sql`UPDATE shipments SET state = 'registered', carrier_uuid = ${made.uuid}, updated_at = now() WHERE order_id = ${order.id}`);
    // Changed for 1C too: the next orders document carries the shipped units' codes.
    await db.execute(sql`UPDATE orders SET updated_at = now() WHERE id = ${order.id}`);
    if (made.number) await recordNumber(order.id, made.number);
    metrics().carrierCalls.inc({ carrier: carrier.id, operation: 'register', outcome: 'ok' });
    await audit(actor, 'order.shipment', 'order', code, null, { carrier: carrier.id, uuid: made.uuid, number: made.number ?? null });
  } catch (error) {
    // Not registered: the claim goes, and the manager may try again.
    await db.execute(sql`DELETE FROM shipments WHERE order_id = ${order.id} AND state = 'registering'`);
    if (error instanceof CarrierRefused || error instanceof CarrierUnavailable) {
      noteCarrierError(carrier.id, 'register', error);
      metrics().carrierCalls.inc({ carrier: carrier.id, operation: 'register', outcome: error instanceof CarrierRefused ? 'refused' : 'unavailable' });
    }
    if (error instanceof CarrierRefused) logger.warn({ carrier: carrier.id, operation: 'register', codes: error.codes }, 'carrier refused a shipment');
    carrierFailure(error);
  }
  // Handed to the carrier: a prepaid order's settlement receipt goes now (SETTLEMENT_RECEIPT_AT=shipment).
  await settleOrder(code, {
    ...order,
    shipment: { carrier: carrier.id, state: 'registered', number: made.number ?? null, return_requested: false, refused: false },
  });
}

/** The registered order's waybill or label as a PDF, made by the carrier (a few seconds at most). */
export async function waybill(code: string, actor: Actor, waitMs = 500, tries = 20): Promise<Uint8Array<ArrayBuffer>> {
  const [row] = await selectRows<{ carrier: string; state: string; carrier_uuid: string | null; number: string | null }>(
    await getDb(),
    sql`SELECT s.carrier, s.state, s.carrier_uuid, s.number FROM orders o JOIN shipments s ON s.order_id = o.id WHERE o.code = ${code}`,
  );
  if (row?.state !== 'registered' || !row.carrier_uuid) {
    const [order] = await selectRows(await getDb(), sql`SELECT 1 FROM orders WHERE code = ${code}`);
    throw order ? refusal('delivery.ship.notRegistered') : notFound();
  }
  const carrier = usable(row.carrier);
  if (!carrier) throw refusal('delivery.ship.notConfigured');
  try {
    const pdf = await carrier.label({ uuid: row.carrier_uuid, number: row.number }, { ms: waitMs, tries });
    await audit(actor, 'order.waybill', 'order', code, null, { carrier: carrier.id });
    return pdf;
  } catch (error) {
    return carrierFailure(error);
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
  const carrier = intakeCarrier();
  if (!carrier) throw refusal('delivery.ship.notConfigured');
  const unready = carrier.intake.unready();
  if (unready) throw refusal(unready);
  const date = intakeDate(now);
  const db = await getDb();
  const [booked] = await selectRows(db, sql`SELECT 1 FROM carrier_intakes WHERE intake_date = ${date}`);
  if (booked) throw refusal('delivery.intake.exists', 409, { date });
  const waiting = await selectRows<{ order_id: number; code: string; parcel: Parcel | null; items: number }>(
    db,
    sql`SELECT s.order_id, o.code, o.delivery_carrier->'parcel' AS parcel,
               (SELECT coalesce(sum(quantity), 0)::int FROM order_lines l WHERE l.order_id = o.id) AS items
          FROM shipments s JOIN orders o ON o.id = s.order_id
         WHERE s.state = 'registered' AND s.carrier = ${carrier.id} AND s.intake_date IS NULL AND o.status IN ('processing', 'purchased', 'ready_to_ship')
         ORDER BY s.order_id`,
  );
  if (waiting.length === 0) throw refusal('delivery.intake.none');
  const claimed = await selectRows(
    db,
    sql`INSERT INTO carrier_intakes (intake_date, carrier, shipments) VALUES (${date}, ${carrier.id}, ${waiting.length}) ON CONFLICT (intake_date) DO NOTHING RETURNING intake_date`,
  );
  if (claimed.length === 0) throw refusal('delivery.intake.exists', 409, { date });
  // The day's parcels as one load: each order's box (an order from before parcels were quoted: its items at the default).
  const load = packParcel(waiting.map((w) => ({ parcel: w.parcel ?? packParcel([{ parcel: ITEM_PARCEL, quantity: w.items }]), quantity: 1 })));
  try {
    const uuid = await carrier.intake.request({ date, load, codes: waiting.map((w) => w.code) });
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
    carrierFailure(error);
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
export async function applyCarrierOrder(orderId: number, held: CarrierTrack, carrier: Carrier): Promise<OrderStatus | null> {
  const db = await getDb();
  let moved: OrderStatus | null = null;
  let code = '';
  let atDoor = false;
  await db.transaction(async (tx) => {
    const order = await lockOrder(tx, orderId);
    if (!order) return;
    code = order.code;
    atDoor = order.payment_status === ON_DELIVERY;
    const [row] = await selectRows<{ seen: string[] }>(tx, sql`SELECT seen FROM shipments WHERE order_id = ${orderId} FOR UPDATE`);
    if (!row) return;
    const seen = new Set(row.seen);
    const fresh = held.statuses.filter((s) => !seen.has(`${s.code}@${s.at}`));
    for (const s of fresh) {
      seen.add(`${s.code}@${s.at}`);
      await tx.execute(sql`INSERT INTO tracking_events (order_id, status, place, created_at) VALUES (${orderId}, ${s.name || s.code}, ${s.city}, ${s.at})`);
    }
    const target = furthest(held.statuses, carrier);
    if (target && mayShip(order.payment_status) && canMove(order.status, target)) {
      await recordStatus(tx, orderId, target, 'carrier');
      // Paid at the door (issue 55): handed over, the carrier took the money for what was kept; refused
      // whole, nothing was charged and everything comes back.
      if (target === 'delivered' && order.payment_status === ON_DELIVERY) await handedOverAtDoor(tx, orderId, await doorResult(tx, orderId, held.handOver));
      if (target === 'delivered') await delivered(tx, orderId);
      if (target === 'returned' && order.payment_status === ON_DELIVERY) await refusedAtDoor(tx, orderId);
      moved = target;
    }
    await tx.execute(
      sql`UPDATE shipments SET seen = ${JSON.stringify([...seen])}::jsonb, status = ${held.statuses.at(-1)?.code ?? null}, polled_at = now(), updated_at = now()
           WHERE order_id = ${orderId}`,
    );
  });
  if (held.carrierNumber) await recordNumber(orderId, held.carrierNumber);
  if (moved) await settleOrder(code);
  // Paid at the door: the carrier's register's receipt, read back now if it is there (else the job's next round).
  if (moved === 'delivered' && atDoor) await readDoorReceipt(code, carrier).catch((error: unknown) => noteCarrierError(carrier.id, 'receipt', error));
  if (moved === 'at_pickup_point') void sendAtPointMail(code);
  else if (moved === 'delivered') void sendOrderMail(code, 'status');
  return moved;
}

/**
 * The carrier's hand-over as the order's lines (issue 55): each position it names is found by its key, its
 * units taken added to its line's, a marked position not taken gives back its code. A carrier that names no
 * positions handed everything over.
 */
async function doorResult(tx: Parameters<typeof delivered>[0], orderId: number, handOver: HandOver | undefined): Promise<DoorResult> {
  const base = { collected: handOver?.collected, payments: handOver?.payments ?? [] };
  if (!handOver || handOver.positions.length === 0) return { ...base, kept: new Map(), refusedCodes: [] };
  const lines = await selectRows<{ id: number; quantity: number; variant_code: string }>(
    tx,
    sql`SELECT l.id, l.quantity, coalesce(v.code, '') AS variant_code FROM order_lines l LEFT JOIN product_variants v ON v.id = l.variant_id
         WHERE l.order_id = ${orderId} ORDER BY l.id`,
  );
  const kept = new Map<number, number>(lines.map((l) => [l.id, 0]));
  const refusedCodes: string[] = [];
  for (const position of handOver.positions) {
    const line = lines.find((l) => lineKey(l) === lineKeyOf(position.key));
    // A position the shop did not send (the carrier's own packaging): not the order's.
    if (!line) continue;
    kept.set(line.id, Math.min(line.quantity, (kept.get(line.id) ?? 0) + position.delivered));
    if (position.marking && position.delivered === 0) refusedCodes.push(position.marking);
  }
  return { ...base, kept, refusedCodes };
}

/** "Your parcel is waiting at the point": the point, its address and hours, and how long it is kept. */
async function sendAtPointMail(code: string): Promise<void> {
  try {
    const order = await orderByCode(code);
    if (!order?.delivery_carrier) return;
    const l = (key: MessageKey, params?: Record<string, string | number>) => t('ru', key, params);
    const point = order.delivery_carrier.point;
    const url = new URL(order.customer_id === null ? await resultPath(order.code) : `/dashboard/order/${order.code}`, env().SITE_URL).href;
    const title = l('mail.delivery.atPointTitle', { code: order.code });
    const lines = [
      l('mail.delivery.atPointText', { carrier: l(carrierNameKey(order.delivery_carrier.carrier)) }),
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
 * A carrier's status push (CDEK's ORDER_STATUS webhook): the body only names an order. It must name one
 * of ours that the carrier holds under the id we were given; its statuses are then read from the
 * carrier's API.
 */
export async function carrierNotified(id: CarrierId, body: { uuid: string; number: string | undefined }): Promise<{ status: string; moved: boolean }> {
  // A shop without the carrier registered nothing with it: no order of its can be named.
  const carrier = usable(id);
  if (!carrier) throw notFound();
  const [row] = await selectRows<{ order_id: number; carrier_uuid: string | null; number: string | null; status: string }>(
    await getDb(),
    sql`SELECT s.order_id, s.carrier_uuid, s.number, o.status FROM shipments s JOIN orders o ON o.id = s.order_id
         WHERE s.state = 'registered' AND s.carrier = ${carrier.id} AND s.carrier_uuid = ${body.uuid} AND (${body.number ?? null}::text IS NULL OR o.code = ${body.number ?? null})`,
  );
  if (!row || !row.carrier_uuid) throw notFound();
  let held: CarrierTrack;
  try {
    held = await carrier.track({ uuid: row.carrier_uuid, number: row.number });
  } catch (error) {
    if (error instanceof CarrierUnavailable) throw refusal('delivery.ship.unavailable', 503);
    throw error;
  }
  const moved = await applyCarrierOrder(row.order_id, held, carrier);
  metrics().carrierCalls.inc({ carrier: carrier.id, operation: 'webhook', outcome: moved ? 'moved' : 'unchanged' });
  return { status: moved ?? row.status, moved: moved !== null };
}

/**
 * Asks the carrier about the orders on their way not asked about for POLL_MINUTES (a webhook has no
 * retries, and a carrier without push has only this): how many were asked. A carrier down stops its round.
 */
export async function pollShipments(limit = 200): Promise<number> {
  const ready = configuredCarriers();
  if (ready.length === 0) return 0;
  const rows = await selectRows<{ order_id: number; carrier: CarrierId; carrier_uuid: string; number: string | null }>(
    await getDb(),
    sql`SELECT s.order_id, s.carrier, s.carrier_uuid, s.number FROM shipments s JOIN orders o ON o.id = s.order_id
         WHERE s.state = 'registered' AND s.carrier_uuid IS NOT NULL AND s.carrier IN (${sql.join(
           ready.map((c) => sql`${c.id}`),
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
    const carrier = carrierOf(row.carrier);
    try {
      await applyCarrierOrder(row.order_id, await carrier.track({ uuid: row.carrier_uuid, number: row.number }), carrier);
      asked++;
    } catch (error) {
      // A carrier that is down is not asked about its other orders this round.
      if (error instanceof CarrierUnavailable) {
        noteCarrierError(row.carrier, 'track', error);
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
  if (!env().DELIVERY_AUTO_REGISTER) return 0;
  // Only the carriers the shop can register with: an account and the point where parcels are handed over.
  const ready = configuredCarriers().filter((c) => c.senderPoint());
  if (ready.length === 0) return 0;
  const rows = await selectRows<{ code: string; carrier: string }>(
    await getDb(),
    sql`SELECT o.code, o.delivery_carrier->>'carrier' AS carrier FROM orders o LEFT JOIN shipments s ON s.order_id = o.id
         WHERE o.delivery_carrier->>'carrier' IN (${sql.join(
           ready.map((c) => sql`${c.id}`),
           sql`, `,
         )}) AND o.payment_status IN ('paid', ${ON_DELIVERY}) AND o.status IN ('processing', 'purchased', 'ready_to_ship') AND s.order_id IS NULL
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

/** One order's receipts from the carrier's register, kept; how many were new (0 while the carrier has none yet). */
async function readDoorReceipt(code: string, carrier: Carrier): Promise<number> {
  if (!carrier.doorReceipts) return 0;
  const row = await registeredShipment(code);
  if (!row?.carrier_uuid) return 0;
  const receipts = await carrier.doorReceipts({ uuid: row.carrier_uuid, number: row.number });
  if (receipts.length === 0) return 0;
  const order = await orderByCode(code);
  return order ? recordDoorReceipts(order, carrier.id, receipts) : 0;
}

/**
 * The receipts carriers' registers issued for money taken at the door (issue 55), for orders delivered in
 * the last 30 days that have none yet: how many were kept. A carrier that is down is asked next round.
 */
export async function readDoorReceipts(limit = 50): Promise<number> {
  const rows = await selectRows<{ code: string; carrier: CarrierId }>(
    await getDb(),
    sql`SELECT o.code, s.carrier FROM orders o JOIN shipments s ON s.order_id = o.id
         WHERE o.payment_method = ${ON_DELIVERY} AND o.payment_status = 'paid' AND s.state = 'registered'
           AND o.delivered_at > now() - interval '30 days'
           AND NOT EXISTS (SELECT 1 FROM receipts r WHERE r.order_id = o.id AND r.kind = 'door')
         ORDER BY o.id LIMIT ${limit}`,
  );
  let kept = 0;
  const down = new Set<CarrierId>();
  for (const row of rows) {
    const carrier = usable(row.carrier);
    if (!carrier || down.has(row.carrier)) continue;
    try {
      kept += await readDoorReceipt(row.code, carrier);
    } catch (error) {
      if (!(error instanceof CarrierUnavailable) && !(error instanceof CarrierRefused)) throw error;
      noteCarrierError(carrier.id, 'receipt', error);
      if (error instanceof CarrierUnavailable) down.add(row.carrier);
    }
  }
  return kept;
}

interface RegisteredRow extends Record<string, unknown> {
  order_id: number;
  status: string;
  carrier: string;
  carrier_uuid: string | null;
  number: string | null;
  delivery_carrier: CarrierDeliveryRecord | null;
  return_requested_at: Date | string | null;
  refused_at: Date | string | null;
}

async function registeredShipment(code: string): Promise<RegisteredRow | undefined> {
  const [row] = await selectRows<RegisteredRow>(
    await getDb(),
    sql`SELECT s.order_id, o.status, s.carrier, s.carrier_uuid, s.number, o.delivery_carrier, s.return_requested_at, s.refused_at
          FROM shipments s JOIN orders o ON o.id = s.order_id WHERE o.code = ${code} AND s.state = 'registered'`,
  );
  return row;
}

/**
 * A customer's return of a delivered order (issue 55), made with its carrier where it can (CDEK's client
 * return): the buyer then hands the parcel in at the carrier's point. Once per order. A carrier that
 * refuses or is down leaves the request as it stands (the managers were told, and arrange it): answers
 * whether the carrier took it.
 */
export async function returnThroughCarrier(code: string): Promise<boolean> {
  const row = await registeredShipment(code);
  if (!row?.carrier_uuid || !row.delivery_carrier) return false;
  if (row.return_requested_at) return true;
  const carrier = usable(row.carrier);
  if (!carrier?.clientReturn) return false;
  try {
    await carrier.clientReturn({ uuid: row.carrier_uuid, number: row.number }, row.delivery_carrier);
  } catch (error) {
    if (!(error instanceof CarrierRefused) && !(error instanceof CarrierUnavailable)) throw error;
    noteCarrierError(carrier.id, 'return', error);
    logger.warn({ carrier: carrier.id, operation: 'return' }, 'the carrier did not take a client return: the managers arrange it');
    return false;
  }
  const db = await getDb();
  await db.execute(sql`UPDATE shipments SET return_requested_at = now(), updated_at = now() WHERE order_id = ${row.order_id}`);
  await db.execute(sql`INSERT INTO order_status_history (order_id, status, note) VALUES (${row.order_id}, ${row.status}, 'carrier_return')`);
  metrics().carrierCalls.inc({ carrier: carrier.id, operation: 'return', outcome: 'ok' });
  return true;
}

/** The statuses in which the shop may still refuse a parcel: registered and not yet handed to the buyer. */
const REFUSABLE: readonly string[] = ['processing', 'purchased', 'ready_to_ship', 'shipped', 'in_transit', 'at_pickup_point'];

/**
 * The console's «Отказаться от отправки» (issue 55): the shop refuses a registered parcel before it is
 * handed over (CDEK's refusal); the carrier brings it back, and its return comes in by tracking. Once.
 */
export async function refuseShipment(code: string, actor: Actor): Promise<void> {
  const row = await registeredShipment(code);
  if (!row?.carrier_uuid) throw refusal('delivery.ship.notRegistered');
  if (row.refused_at) return;
  if (!REFUSABLE.includes(row.status)) throw refusal('delivery.refuse.late');
  const carrier = usable(row.carrier);
  if (!carrier?.refuse) throw refusal('delivery.ship.notConfigured');
  try {
    await carrier.refuse({ uuid: row.carrier_uuid, number: row.number }, code);
  } catch (error) {
    if (error instanceof CarrierRefused || error instanceof CarrierUnavailable) noteCarrierError(carrier.id, 'refusal', error);
    return carrierFailure(error);
  }
  const db = await getDb();
  await db.execute(sql`UPDATE shipments SET refused_at = now(), updated_at = now() WHERE order_id = ${row.order_id}`);
  await db.execute(sql`INSERT INTO order_status_history (order_id, status, note) VALUES (${row.order_id}, ${row.status}, 'refused_by_shop')`);
  await audit(actor, 'order.refusal', 'order', code, null, { carrier: carrier.id });
}
