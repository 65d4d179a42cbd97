// CDEK as the shop's carrier contract (carrier.server.ts; API v2 in cdek.server.ts and
// docs/research/cdek-api-v2.md): its settings, its cities (checkout's city codes are CDEK's when the shop
// has it), points and tariffs, an order's registration (found by the shop's number before a new one is
// made), its waybill, its statuses and their meaning for the order, the ORDER_STATUS webhook's
// subscription and the daily courier pickup.
import { env } from '~/lib/env.ts';
import { t } from '~/lib/i18n/index.ts';
import type { OrderStatus } from '~/features/orders/orders.ts';
import {
  CarrierRefused,
  CarrierUnavailable,
  CITIES_TTL_MS,
  cityWord,
  lineName,
  orderParcel,
  positionKey,
  POINTS_TTL_MS,
  QUOTES_TTL_MS,
  refusedAsNone,
  type Carrier,
  type MissingSetting,
  type ShipmentOrder,
  type WebhookState,
} from './carrier.server.ts';
import { cdekClient, type CdekClient } from './cdek.server.ts';
import { ITEM_PARCEL, parcelKey } from './delivery.parcel.ts';

/** CDEK's statuses as the order's (docs/research/cdek-api-v2.md §5); the others change nothing. */
const STATUSES: Record<string, OrderStatus> = {
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

export const CDEK_WEBHOOK_PATH = '/api/v1/ecommerce-core/delivery/cdek/webhook';

/** Which of CDEK's hosts an API address is (its test host is the shop's default). */
export function cdekHost(apiUrl: string): 'test' | 'live' | 'other' {
  const host = new URL(apiUrl).hostname;
  return host === 'api.edu.cdek.ru' ? 'test' : host === 'api.cdek.ru' ? 'live' : 'other';
}

/** The address CDEK's ORDER_STATUS webhook is subscribed to: the shop's public one, with its token. */
export function cdekWebhookUrl(): string | undefined {
  const token = env().CDEK_WEBHOOK_TOKEN;
  return token ? `${new URL(CDEK_WEBHOOK_PATH, env().SITE_URL).href}?token=${encodeURIComponent(token)}` : undefined;
}

let one: CdekClient | undefined;

/** CDEK's client, or undefined when the shop has no CDEK account. */
function client(): CdekClient | undefined {
  const e = env();
  if (!e.CDEK_CLIENT_ID || !e.CDEK_CLIENT_SECRET) return undefined;
  // env() is read once per process: one client, and so one token, for the process's life.
  one ??= cdekClient({ url: e.CDEK_API_URL, clientId: e.CDEK_CLIENT_ID, clientSecret: e.CDEK_CLIENT_SECRET, timeoutMs: e.CARRIER_TIMEOUT_MS });
  return one;
}

function configured(): CdekClient {
  const cdek = client();
  // The shipments service asks configured() first: this is a programming error, not a shopper's.
  if (!cdek) throw new Error('CDEK is not configured');
  return cdek;
}

/** Kopecks as CDEK's money fields take them: roubles, to the kopeck. */
const roubles = (kopecks: number) => Math.round(kopecks) / 100;

/** The receipts' VAT (YOOKASSA_VAT_CODE, YooKassa's table) as CDEK's vat_rate: null without VAT. */
const VAT_RATES: Record<number, number> = { 2: 0, 3: 10, 4: 20, 7: 5, 8: 7, 11: 22 };

/** A money field collected at the door, with its VAT as the receipt's lines have it. */
function collected(kopecks: number): { value: number; vat_rate: number | null; vat_sum?: number } {
  const rate = VAT_RATES[env().YOOKASSA_VAT_CODE];
  if (rate === undefined) return { value: roubles(kopecks), vat_rate: null };
  return { value: roubles(kopecks), vat_rate: rate, vat_sum: roubles(Math.round((kopecks * rate) / (100 + rate))) };
}

/** The seller CDEK's register names on the receipt at the door, when the owner has set it. */
function seller(): Record<string, unknown> {
  const e = env();
  if (!e.SELLER_INN || !e.SELLER_NAME || !e.SELLER_PHONE || e.SELLER_OWNERSHIP_FORM === undefined) return {};
  return { seller: { name: e.SELLER_NAME, inn: e.SELLER_INN, phone: e.SELLER_PHONE, ownership_form: e.SELLER_OWNERSHIP_FORM } };
}

/** The order as CDEK's POST /orders takes it (docs/research/cdek-api-v2.md §5). */
export function cdekOrderBody({ order, record, items, codes, senderPoint, collect }: ShipmentOrder): Record<string, unknown> {
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
    // Try on, keep what fits (issue 55): CDEK's services for a delivery paid at the door.
    ...(record.services?.tryOn || record.services?.partial
      ? { services: [...(record.services.tryOn ? [{ code: 'TRYING_ON' }] : []), ...(record.services.partial ? [{ code: 'PART_DELIV' }] : [])] }
      : {}),
    // Paid in advance, the recipient pays nothing at the point or to the courier; paid on delivery, the
    // delivery (with the fee for taking the money) on top of the goods' amounts (issue 55).
    delivery_recipient_cost: collect ? collected(collect.delivery) : { value: 0 },
    // Paid at the door, CDEK's register issues the receipt as the shop's agent, naming the seller.
    ...(collect ? seller() : {}),
    packages: [
      {
        number: '1',
        weight: parcel.weight,
        length: parcel.length,
        width: parcel.width,
        height: parcel.height,
        comment: t('ru', 'delivery.cdek.contents'),
        items: order.lines.flatMap((l, i) => {
          const item = {
            name: lineName(l),
            ware_key: positionKey(l),
            payment: { value: 0 },
            // The declared value, in roubles.
            cost: l.unit_price / 100,
            // Grams per item (CDEK's `weight` of a good is its unit's).
            weight: (items.get(l.product_id) ?? ITEM_PARCEL).weight,
            amount: l.quantity,
          };
          // Paid on delivery: each unit's amount to collect (CDEK's payment.value is per unit, VAT included).
          const groups = collect?.lines[i] ?? [{ quantity: l.quantity, unit: 0 }];
          const perUnit = groups.flatMap((g) => Array.from({ length: g.quantity }, () => g.unit));
          const key = (n: number) => positionKey(l, n);
          // Marked goods (issue 39): a position per unit, with its code in `marking` and an amount of 1.
          const marks = codes.get(l.id);
          const pay = (kopecks: number) => (collect ? collected(kopecks) : { value: 0 });
          if (marks?.length) return marks.map((marking, u) => ({ ...item, ware_key: key(u + 1), marking, amount: 1, payment: pay(perUnit[u] ?? 0) }));
          // Units at two amounts (the kopecks did not divide): two positions.
          if (groups.length === 1) return [{ ...item, payment: pay(groups[0]?.unit ?? 0) }];
          return groups.map((g, n) => ({ ...item, ware_key: key(n + 1), amount: g.quantity, payment: pay(g.unit) }));
        }),
      },
    ],
  };
}

export const cdek: Carrier = {
  id: 'cdek',
  liveSetting: 'CDEK_API_URL=https://api.cdek.ru/v2',
  configured: () => client() !== undefined,
  apiUrl: () => env().CDEK_API_URL,
  host: () => cdekHost(env().CDEK_API_URL),
  senderPoint: () => env().DELIVERY_SENDER_POINT,

  missing() {
    const e = env();
    if (!client()) return [];
    return [
      ...(e.DELIVERY_SENDER_POINT ? [] : (['DELIVERY_SENDER_POINT'] as const)),
      ...(e.CDEK_WEBHOOK_TOKEN ? [] : (['CDEK_WEBHOOK_TOKEN'] as const)),
      ...(e.DELIVERY_SENDER_ADDRESS && e.DELIVERY_SENDER_NAME && e.DELIVERY_SENDER_PHONE ? [] : (['DELIVERY_SENDER_CONTACT'] as const)),
    ] satisfies MissingSetting[];
  },

  settings() {
    const e = env();
    return [e.CDEK_API_URL, e.CDEK_CLIENT_ID, e.DELIVERY_SENDER_POINT, cdekWebhookUrl()].join('|');
  },

  suggestCities(word, remember) {
    const c = configured();
    return remember('cities', `cdek:cities:${word}`, CITIES_TTL_MS, () => c.suggestCities(word).catch(refusedAsNone));
  },

  async cityCode(name, remember) {
    const found = await cdek.suggestCities(cityWord(name), remember);
    return found.ok ? { ok: true, value: found.value.find((c) => cityWord(c.name) === cityWord(name))?.code } : found;
  },

  points(cityCode, remember) {
    const c = configured();
    return remember('points', `cdek:points:${cityCode}`, POINTS_TTL_MS, () => c.pickupPoints(cityCode));
  },

  quotes(cityCode, parcel, remember) {
    const c = configured();
    const from = env().DELIVERY_SENDER_CITY_CODE;
    return remember('quotes', `cdek:quotes:${from}:${cityCode}:${parcelKey(parcel)}`, QUOTES_TTL_MS, () =>
      c.quotes(from, cityCode, [parcel]).catch(refusedAsNone),
    );
  },

  async register(shipment) {
    const c = configured();
    // An earlier attempt may have reached the carrier and lost its answer: the carrier knows the order by our code.
    const held = await c.orderByNumber(shipment.order.code);
    const uuid = held?.uuid ?? (await c.createOrder(cdekOrderBody(shipment)));
    const processed = held ?? (await c.getOrder(uuid).catch((error: unknown) => (error instanceof CarrierUnavailable ? undefined : Promise.reject(error))));
    if (processed?.invalid) throw new CarrierRefused('CDEK found the order invalid', 400, processed.invalid);
    return { uuid, number: processed?.carrierNumber };
  },

  async label(shipment, wait) {
    const c = configured();
    const job = await c.printWaybill(shipment.uuid);
    for (let i = 0; i < wait.tries; i++) {
      const url = await c.printReady(job);
      if (url) return c.download(url);
      await new Promise((resolve) => setTimeout(resolve, wait.ms));
    }
    throw new CarrierUnavailable('CDEK did not make the waybill in time');
  },

  async track(shipment) {
    const held = await configured().getOrder(shipment.uuid);
    return { statuses: held.statuses, carrierNumber: held.carrierNumber, handOver: held.handOver };
  },

  statusOf: (code) => STATUSES[code],

  doorReceipts: (shipment) => configured().checks(shipment.uuid),

  transfers: (date) => configured().registries(date),

  // The buyer hands the return in at any CDEK point; it goes by the shop's return tariff (CDEK_RETURN_TARIFF).
  clientReturn: (shipment) => configured().clientReturn(shipment.uuid, env().CDEK_RETURN_TARIFF),

  refuse: (shipment) => configured().refusal(shipment.uuid),

  // Not for postamats (docs/research/cash-on-delivery.md §2); trying on at a point needs its fitting room,
  // and a partial buy-out more than one unit.
  services: ({ mode, fittingRoom, units }) => ({
    tryOn: mode === 'courier' || (mode === 'pickup' && fittingRoom === true),
    partial: mode !== 'postamat' && units > 1,
  }),

  authorize: () => configured().authorize(),

  async pointNamed(code) {
    const point = await configured().pointByCode(code);
    return point ? { name: point.name, address: point.address } : undefined;
  },

  pushUrl: cdekWebhookUrl,

  async subscribe(): Promise<WebhookState> {
    const url = cdekWebhookUrl();
    if (!url) return { state: 'off', why: 'no_token' };
    // CDEK's test account is shared by every integrator: its subscriptions are not the shop's to replace.
    if (cdek.host() === 'test') return { state: 'off', why: 'test_host' };
    const c = configured();
    const held = (await c.webhooks()).find((w) => w.type === 'ORDER_STATUS' && w.url === url);
    return held
      ? { state: 'subscribed', url, uuid: held.uuid, made: false }
      : { state: 'subscribed', url, uuid: await c.subscribe('ORDER_STATUS', url), made: true };
  },

  intake: {
    unready() {
      const e = env();
      return e.DELIVERY_SENDER_ADDRESS && e.DELIVERY_SENDER_NAME && e.DELIVERY_SENDER_PHONE ? null : 'delivery.intake.noSender';
    },
    request({ date, load, codes }) {
      const e = env();
      return configured().createIntake({
        intake_date: date,
        intake_time_from: '10:00',
        intake_time_to: '18:00',
        name: t('ru', 'delivery.cdek.intakeName'),
        weight: load.weight,
        length: load.length,
        width: load.width,
        height: load.height,
        comment: t('ru', 'delivery.cdek.intakeComment', { codes: codes.join(', ') }).slice(0, 255),
        need_call: true,
        sender: { name: e.DELIVERY_SENDER_NAME, phones: [{ number: e.DELIVERY_SENDER_PHONE }] },
        from_location: { code: e.DELIVERY_SENDER_CITY_CODE, address: e.DELIVERY_SENDER_ADDRESS },
      });
    },
  },
};
