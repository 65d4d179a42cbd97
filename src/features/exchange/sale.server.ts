// The sale half of the 1C exchange: orders out as a CommerceML document (type=sale&mode=query) — new ones
// and those changed since 1C last confirmed (mode=success) — and 1C's documents in (mode=file), whose
// status changes go through the operator's own rules and e-mails (fulfilment/fulfilment.server.ts).
import { env } from '~/lib/env.ts';
import { escapeHtml } from '~/lib/html.ts';
import { HttpError } from '~/lib/http/errors.ts';
import { getDatabase } from '~/lib/db/index.ts';
import type { Actor } from '~/features/ops/ops.audit.server.ts';
import { operatorUpdate, type OperatorChange } from '~/features/fulfilment/fulfilment.server.ts';
import { canMove, ORDER_FLOW, type OrderStatus } from '~/features/orders/orders.ts';
import { carrierNameKey, type CarrierDeliveryRecord } from '~/features/delivery/delivery.ts';
import { t } from '~/lib/i18n/index.ts';
import { orderByCode, type OrderView } from '~/features/orders/orders.server.ts';
import type { ImportProblem } from '~/features/import/import.ts';
import { readState, writeState } from './packages.server.ts';
import type { CmlDocument } from './commerceml.server.ts';
import { E, SALE, SALE_IN, STATUS_WORDS } from './cml-words.ts';

/** The schema version of the documents the shop writes (and names in its init answer). */
export const SALE_VERSION = '2.08';
/** Orders per mode=query answer; 1C asks again after mode=success for the rest. */
const QUERY_LIMIT = 500;
/** The goods line 1C reads as the delivery service (as Bitrix names it, which 1C's exchange knows). */
const DELIVERY_ID = 'ORDER_DELIVERY';

/** The order as the document needs it: the order's view without its lines and history, and its version. */
interface OrderRow extends Omit<OrderView, 'lines' | 'history' | 'delivered_at' | 'created_at' | 'delivery_address' | 'shipment'> {
  delivery_address: Partial<OrderView['delivery_address']>;
  created_at: string | Date;
  updated_at: string | Date;
  /** updated_at to the microsecond, as the database keeps it (a JS Date would cut it to milliseconds). */
  version: string;
}

interface LineRow {
  id: number;
  order_id: number;
  product_id: number;
  variant_id: number | null;
  name: string;
  brand: string;
  variant_label: string;
  unit_price: number;
  quantity: number;
  product_external: string | null;
  variant_external: string | null;
}

const money = (kopecks: number) => (kopecks / 100).toFixed(2);
const x = (text: string | number) => escapeHtml(String(text));
const el = (name: string, value: string | number) => `<${name}>${x(value)}</${name}>`;
const requisite = (name: string, value: string) => `<${E.requisite}>${el(E.name, name)}${el(E.value, value)}</${E.requisite}>`;
/** Moscow time, as 1C expects it of a Russian shop: date and time apart. */
function moscow(at: string | Date): { date: string; time: string } {
  const local = new Date(new Date(at).getTime() + 3 * 3600_000).toISOString();
  return { date: local.slice(0, 10), time: local.slice(11, 19) };
}

/** The id 1C knows a line's goods by: the offer id it sent, or the shop's own product#size. */
function goodsId(line: LineRow): string {
  if (line.variant_external?.startsWith('cml:')) return line.variant_external.slice(4);
  if (line.product_external?.startsWith('cml:')) return line.product_external.slice(4);
  return `${line.product_id}${line.variant_id === null ? '' : `#${line.variant_id}`}`;
}

/** A promotion's share of a line: 1C reads it as the line's `Скидка`, counted in the line's sum. */
interface LineDiscount {
  name: string;
  amount: number;
}

function goods(
  id: string,
  name: string,
  price: number,
  quantity: number,
  kind: string,
  codes: readonly string[] = [],
  discounts: readonly LineDiscount[] = [],
): string {
  const marks = codes.map((code) => requisite(SALE.markingCode, Buffer.from(code, 'utf8').toString('base64'))).join('');
  const off = discounts.reduce((s, d) => s + d.amount, 0);
  const cut = discounts
    .map((d) => `<${SALE.discount}>${el(E.name, d.name)}${el(SALE.sum, money(d.amount))}${el(SALE.includedInSum, 'true')}</${SALE.discount}>`)
    .join('');
  return `<${E.product}>${el(E.id, id)}${el(E.name, name)}<${SALE.baseUnit} ${SALE.pieceAttributes}>${SALE.unitShort}</${SALE.baseUnit}>${el(
    E.unitPrice,
    money(price),
  )}${el(E.quantity, quantity)}${el(SALE.sum, money(price * quantity - off))}${cut ? `<${SALE.discounts}>${cut}</${SALE.discounts}>` : ''}<${E.requisites}>${requisite(SALE.kindOfGoods, kind)}${requisite(SALE.typeOfGoods, kind)}${marks}</${E.requisites}></${E.product}>`;
}

/** What 1C is told of a carrier's delivery: the service and tariff, the point, the dates promised. */
function carrierRequisites(carrier: CarrierDeliveryRecord | null | undefined): string[] {
  if (!carrier) return [];
  return [
    requisite(
      SALE.deliveryService,
      carrier.tariff
        ? t('ru', 'ops.order.carrierTariff', { carrier: t('ru', carrierNameKey(carrier.carrier)), tariff: carrier.tariff })
        : t('ru', carrierNameKey(carrier.carrier)),
    ),
    ...(carrier.point ? [requisite(SALE.pickupPoint, `${carrier.point.code}, ${carrier.point.address}`)] : []),
    requisite(SALE.deliveryDates, `${carrier.arrival.from} – ${carrier.arrival.to}`),
  ];
}

function documentOf(
  order: OrderRow,
  lines: LineRow[],
  codes: ReadonlyMap<number, string[]>,
  promotions: ReadonlyMap<number, LineDiscount[]>,
  deliveryPromotions: ReadonlyMap<number, LineDiscount[]>,
): string {
  const { date, time } = moscow(order.created_at);
  const changed = moscow(order.updated_at);
  const [surname = '', ...rest] = order.contact_name.trim().split(/\s+/).reverse();
  const address = [order.delivery_address.postcode, order.delivery_address.city, order.delivery_address.address].filter(Boolean).join(', ');
  const paid = order.payment_status === 'paid';
  const goodsLines = lines.map((l) =>
    goods(
      goodsId(l),
      [l.brand, l.name, l.variant_label && `(${l.variant_label})`].filter(Boolean).join(' '),
      l.unit_price,
      l.quantity,
      SALE.goods,
      codes.get(l.id),
      promotions.get(l.id),
    ),
  );
  // Delivery made cheaper or free by a promotion (issue 56): its price before, and the promotion as its
  // Скидка counted in its sum, as the goods' lines carry theirs; a free delivery is still a line at 0.
  const deliveryOff = deliveryPromotions.get(order.id) ?? [];
  const deliveryBefore = order.delivery_price + deliveryOff.reduce((sum, d) => sum + d.amount, 0);
  if (deliveryBefore > 0) goodsLines.push(goods(DELIVERY_ID, SALE.delivery, deliveryBefore, 1, SALE.service, undefined, deliveryOff));
  const taken = order.bonus_used + order.balance_used + order.discount_total;
  const discounts =
    taken > 0
      ? `<${SALE.discounts}><${SALE.discount}>${el(E.name, SALE.bonuses)}${el(SALE.sum, money(taken))}${el(SALE.includedInSum, 'true')}</${SALE.discount}></${SALE.discounts}>`
      : '';
  const method = { courier: SALE.courier, pickup: SALE.pickup, post: SALE.post }[order.delivery_method] ?? order.delivery_method;
  return [
    `<${E.document}>`,
    el(E.id, order.code),
    el(E.number, order.code),
    el(SALE.date, date),
    el(SALE.time, time),
    el(SALE.operationTag, SALE.operation),
    el(SALE.role, SALE.seller),
    el(E.currency, 'RUB'),
    el(SALE.rate, 1),
    // What the order costs the buyer: the card's part and the gift certificates' (a payment, named below).
    el(SALE.sum, money(order.total + Number(order.certificate_used ?? 0))),
    `<${SALE.counterparties}><${SALE.counterparty}>`,
    el(E.id, order.customer_id === null ? `guest-${order.code}` : `customer-${order.customer_id}`),
    el(E.name, order.contact_name),
    el(SALE.fullName, order.contact_name),
    el(SALE.role, SALE.buyer),
    el(SALE.surname, rest.length > 0 ? surname : ''),
    el(SALE.firstName, rest.length > 0 ? rest.reverse().join(' ') : order.contact_name),
    `<${SALE.address}>${el(SALE.presentation, address)}</${SALE.address}>`,
    `<${SALE.contacts}>`,
    `<${SALE.contact}>${el(SALE.type, SALE.email)}${el(E.value, order.contact_email)}</${SALE.contact}>`,
    `<${SALE.contact}>${el(SALE.type, SALE.phone)}${el(E.value, order.contact_phone)}</${SALE.contact}>`,
    `</${SALE.contacts}>`,
    `</${SALE.counterparty}></${SALE.counterparties}>`,
    el(SALE.comment, order.delivery_address.comment ?? ''),
    discounts,
    `<${E.products}>${goodsLines.join('')}</${E.products}>`,
    `<${E.requisites}>`,
    requisite(SALE.paymentMethod, order.payment_method === 'sbp' ? SALE.sbp : SALE.card),
    requisite(SALE.deliveryMethod, method),
    ...(Number(order.certificate_used ?? 0) > 0 ? [requisite(SALE.certificate, money(Number(order.certificate_used)))] : []),
    requisite(SALE.paid, String(paid)),
    requisite(SALE.deliveryAllowed, String(paid && order.status !== 'cancelled')),
    requisite(SALE.cancelled, String(order.status === 'cancelled')),
    requisite(SALE.final, String(order.status === 'delivered' || order.status === 'cancelled' || order.status === 'returned')),
    requisite(SALE.orderStatus, order.status),
    requisite(SALE.statusChanged, `${changed.date} ${changed.time}`),
    requisite(SALE.tracking, order.tracking_id ?? ''),
    ...carrierRequisites(order.delivery_carrier),
    requisite(SALE.site, new URL(env().SITE_URL).host),
    `</${E.requisites}>`,
    `</${E.document}>`,
  ].join('');
}

/**
 * The orders 1C has not confirmed in their present version, as one CommerceML document (text; the
 * caller encodes it). The orders and versions sent are remembered for mode=success.
 */
export async function ordersDocument(now = new Date()): Promise<{ xml: string; count: number }> {
  const database = await getDatabase();
  const q = database.query;
  const orders = (
    await q(
      `SELECT id, code, customer_id, status, payment_status, payment_method, delivery_method, contact_name, contact_phone, contact_email,
              delivery_address, items_total, discount_total, delivery_price, bonus_used, balance_used, certificate_used, total, tracking_id, delivery_carrier, created_at,
              updated_at, updated_at::text AS version
         FROM orders WHERE (exchanged_at IS NULL OR updated_at > exchanged_at) AND kind = 'goods' ORDER BY updated_at, id LIMIT $1`,
      [QUERY_LIMIT],
    )
  ).rows as unknown as OrderRow[];
  const lines =
    orders.length === 0
      ? []
      : ((
          await q(
            `SELECT l.id, l.order_id, l.product_id, l.variant_id, l.name, l.brand, l.variant_label, l.unit_price, l.quantity,
                    p.external_id AS product_external, v.external_id AS variant_external
               FROM order_lines l JOIN products p ON p.id = l.product_id LEFT JOIN product_variants v ON v.id = l.variant_id
              WHERE l.order_id = ANY($1::int[]) ORDER BY l.id`,
            [orders.map((o) => o.id)],
          )
        ).rows as unknown as LineRow[]);
  const byOrder = new Map<number, LineRow[]>();
  for (const line of lines) byOrder.set(line.order_id, [...(byOrder.get(line.order_id) ?? []), line]);
  // The codes of marked units that left the shop (handed to the carrier or on their way) and did not come back.
  const marks =
    orders.length === 0
      ? []
      : ((
          await q(
            `SELECT m.line_id, m.code FROM order_marks m JOIN orders o ON o.id = m.order_id
              WHERE m.order_id = ANY($1::int[]) AND m.status = 'sold'
                AND (o.status IN ('shipped', 'in_transit', 'at_pickup_point', 'delivered', 'returned')
                     OR EXISTS (SELECT 1 FROM shipments s WHERE s.order_id = o.id AND s.state = 'registered'))
              ORDER BY m.line_id, m.unit`,
            [orders.map((o) => o.id)],
          )
        ).rows as unknown as { line_id: number; code: string }[]);
  const codes = new Map<number, string[]>();
  for (const m of marks) codes.set(m.line_id, [...(codes.get(m.line_id) ?? []), m.code]);
  // Each promotion's kopecks per line (issue 56, order_promotions): a Скидка of the line, counted in its sum.
  const applied =
    orders.length === 0
      ? []
      : ((
          await q(
            `SELECT p.name, (l.value->>'line_id')::int AS line_id, (l.value->>'amount')::int AS amount
               FROM order_promotions p CROSS JOIN LATERAL jsonb_array_elements(p.lines) l
              WHERE p.order_id = ANY($1::int[]) ORDER BY p.id`,
            [orders.map((o) => o.id)],
          )
        ).rows as unknown as { name: string; line_id: number; amount: number }[]);
  const promotions = new Map<number, LineDiscount[]>();
  for (const a of applied) promotions.set(a.line_id, [...(promotions.get(a.line_id) ?? []), { name: a.name, amount: Number(a.amount) }]);
  // What delivery promotions took off each order's delivery (they name no line).
  const deliveryApplied =
    orders.length === 0
      ? []
      : ((
          await q(`SELECT order_id, name, amount FROM order_promotions WHERE class = 'delivery' AND order_id = ANY($1::int[]) ORDER BY id`, [
            orders.map((o) => o.id),
          ])
        ).rows as unknown as { order_id: number; name: string; amount: number }[]);
  const deliveryPromotions = new Map<number, LineDiscount[]>();
  for (const a of deliveryApplied)
    deliveryPromotions.set(Number(a.order_id), [...(deliveryPromotions.get(Number(a.order_id)) ?? []), { name: a.name, amount: Number(a.amount) }]);
  const formed = moscow(now);
  const xml = `<?xml version="1.0" encoding="windows-1251"?>\n<${E.root} ${E.version}="${SALE_VERSION}" ${E.formed}="${formed.date}T${formed.time}">${orders
    .map((o) => documentOf(o, byOrder.get(o.id) ?? [], codes, promotions, deliveryPromotions))
    .join('\n')}</${E.root}>\n`;
  await writeState(
    database.query,
    'sale:sent',
    orders.map((o) => ({ id: o.id, version: o.version })),
  );
  return { xml, count: orders.length };
}

/** mode=success: the orders of the last answer are 1C's now, each in the version it was sent in. */
export async function confirmOrdersSent(): Promise<number> {
  const database = await getDatabase();
  return database.rawTransaction(async (query) => {
    const sent = await readState<{ id: number; version: string }[]>(query, 'sale:sent', []);
    if (sent.length > 0)
      await query('UPDATE orders o SET exchanged_at = u.version FROM unnest($1::int[], $2::timestamptz[]) AS u(id, version) WHERE o.id = u.id', [
        sent.map((s) => s.id),
        sent.map((s) => s.version),
      ]);
    await writeState(query, 'sale:sent', []);
    return sent.length;
  });
}

/** The status a document from 1C asks for, and its tracking number, from its requisites. */
function changeOf(document: CmlDocument): { status?: OrderStatus; tracking?: string } {
  const value = (pattern: RegExp) => document.requisites.find((r) => pattern.test(r.name.trim()))?.value.trim() ?? '';
  const change: { status?: OrderStatus; tracking?: string } = {};
  const tracking = value(SALE_IN.tracking);
  if (tracking) change.tracking = tracking.slice(0, 100);
  if (/^(true|да)$/i.test(value(SALE_IN.cancelled))) change.status = 'cancelled';
  else {
    const named = value(SALE_IN.status);
    const found = STATUS_WORDS.find(([pattern]) => pattern.test(named));
    if (found) change.status = found[1];
    if (value(SALE_IN.shippedOn) && (!change.status || ORDER_FLOW.indexOf(change.status as (typeof ORDER_FLOW)[number]) < ORDER_FLOW.indexOf('shipped')))
      change.status = 'shipped';
  }
  return change;
}

/**
 * 1C's documents applied to the shop's orders: each one found by its number, its status moved forward
 * (or cancelled, the money refunded) by the operator's rules, which e-mail the customer. A document the
 * rules refuse, or for an order the shop does not have, is one problem line; the others still apply.
 */
/** How 1C's changes are signed in the audit log. */
const EXCHANGE_ACTOR: Actor = { operatorId: null, name: '1c', ip: '' };

export async function applyOrderDocuments(documents: readonly CmlDocument[], problems: ImportProblem[]): Promise<number> {
  let applied = 0;
  for (const document of documents) {
    const code = document.number || document.id;
    const order = code ? await orderByCode(code) : null;
    if (!order) {
      problems.push({ severity: 'error', id: code, line: document.line, reason: 'no such order in the shop' });
      continue;
    }
    const { status, tracking } = changeOf(document);
    const change: OperatorChange = { note: '1C' };
    // Only forward: a document repeating a status the order has passed changes nothing.
    if (status && status !== order.status && canMove(order.status, status)) change.status = status;
    if (tracking && tracking !== order.tracking_id) change.tracking_id = tracking;
    if (change.status === undefined && change.tracking_id === undefined) continue;
    try {
      await operatorUpdate(order.code, change, EXCHANGE_ACTOR);
      applied++;
    } catch (error) {
      if (!(error instanceof HttpError)) throw error;
      problems.push({
        severity: 'error',
        id: code,
        line: document.line,
        reason: `the order cannot move from ${order.status} to ${change.status ?? order.status}${order.payment_status !== 'paid' ? ' (it is not paid)' : ''}`,
      });
    }
  }
  return applied;
}
