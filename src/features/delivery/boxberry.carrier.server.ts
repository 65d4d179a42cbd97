// Boxberry as the shop's carrier contract (carrier.server.ts; its JSON API in boxberry.server.ts and
// docs/research/boxberry-api.md): its settings, its cities (one list, matched to checkout's by name),
// points, a price to a city (its price to the city's first office and first postamat), a parcel made by
// ParselCreate with the shop's order number (unique at Boxberry, so a repeat finds the parcel), its label,
// and its statuses, which are names read by their words. Boxberry pushes nothing: its parcels are polled.
import { env } from '~/lib/env.ts';
import { HttpError } from '~/lib/http/errors.ts';
import { t } from '~/lib/i18n/index.ts';
import type { OrderStatus } from '~/features/orders/orders.ts';
import {
  CarrierRefused,
  CITIES_TTL_MS,
  cityWord,
  lineName,
  orderParcel,
  positionKey,
  POINTS_TTL_MS,
  QUOTES_TTL_MS,
  refusedAsNone,
  type Carrier,
  type CarrierAnswer,
  type Remember,
  type ShipmentOrder,
} from './carrier.server.ts';
import { boxberryClient, type BoxberryClient } from './boxberry.server.ts';
import type { CarrierCity, CarrierQuote, Parcel } from './delivery.ts';
import { parcelKey } from './delivery.parcel.ts';

/** Boxberry's statuses are names (docs/research/boxberry-api.md): read by their words. */
const STATUSES: [RegExp, OrderStatus][] = [
  [/^выдано|^вручено/i, 'delivered'],
  [/возвращен|к возврату|возврат/i, 'returned'],
  [/поступило в пункт выдачи|на отделении-получателе|в постамате/i, 'at_pickup_point'],
  [/передан[оа]? на доставку|на курьерскую|в город|в городе получателя|в пути|на терминал/i, 'in_transit'],
  [/принято к доставке|передано на сортировку|сортировочный/i, 'shipped'],
];

/** Which of Boxberry's hosts an API address is (it has no test host: a token of a test account). */
export function boxberryHost(apiUrl: string): 'live' | 'other' {
  return new URL(apiUrl).hostname === 'api.boxberry.ru' ? 'live' : 'other';
}

let one: BoxberryClient | undefined;

/** Boxberry's client, or undefined when the shop has no Boxberry token. */
function client(): BoxberryClient | undefined {
  const e = env();
  if (!e.BOXBERRY_TOKEN) return undefined;
  one ??= boxberryClient({ url: e.BOXBERRY_API_URL, token: e.BOXBERRY_TOKEN, timeoutMs: e.CARRIER_TIMEOUT_MS });
  return one;
}

function configured(): BoxberryClient {
  const bb = client();
  // The shipments service asks configured() first: this is a programming error, not a shopper's.
  if (!bb) throw new Error('Boxberry is not configured');
  return bb;
}

/** Every city Boxberry serves (one list, kept a day). */
const cities = (remember: Remember): Promise<CarrierAnswer<CarrierCity[]>> => {
  const bb = configured();
  return remember('cities', 'boxberry:cities', CITIES_TTL_MS, () => bb.cities());
};

/** The order as Boxberry's ParselCreate takes it (docs/research/boxberry-api.md): strings, roubles, grams. */
export function boxberryParcelData({ order, record, items, senderPoint, collect }: ShipmentOrder): Record<string, unknown> {
  const parcel = orderParcel(order, items);
  const rub = (kopecks: number) => (kopecks / 100).toFixed(2);
  return {
    order_id: order.code,
    // The declared value: the goods at what they were sold for, after promotions (issue 56).
    price: rub(order.items_total - order.promo_discount),
    // Paid on delivery (issue 55): the whole of what the recipient pays, the delivery (with the fee) in it.
    payment_sum: collect ? rub(order.total) : '0',
    delivery_sum: rub(collect ? collect.delivery : record.price),
    vid: record.point ? '1' : '2',
    shop: { name: record.point?.code ?? '', name1: senderPoint },
    customer: { fio: order.contact_name, phone: order.contact_phone.replace(/[^\d+]/g, ''), email: order.contact_email },
    ...(record.point
      ? {}
      : { kurdost: { index: order.delivery_address.postcode, citi: order.delivery_address.city, addressp: order.delivery_address.address } }),
    // Paid on delivery, the items' prices are what is collected for them (their sum and delivery_sum make
    // payment_sum); a line whose kopecks do not divide is two items.
    items: order.lines.flatMap((l, i) =>
      (collect?.lines[i] ?? [{ quantity: l.quantity, unit: l.unit_price }]).map((g, n, all) => ({
        id: all.length > 1 ? positionKey(l, n + 1) : positionKey(l),
        name: lineName(l),
        UnitName: t('ru', 'delivery.boxberry.unit'),
        nds: '',
        price: rub(g.unit),
        quantity: String(g.quantity),
      })),
    ),
    weights: { weight: String(parcel.weight), x: String(parcel.length), y: String(parcel.width), z: String(parcel.height) },
    // Try on, keep what fits (issue 55): a fitting, and handing over part of the parcel (вид выдачи 2).
    issue: record.services?.partial ? '2' : '0',
    fitting: record.services?.tryOn ? '1' : '0',
  };
}

/** Boxberry's price to a city is its price to a point there: the city's first office and first postamat are asked. */
async function quotesTo(bb: BoxberryClient, code: number, parcel: Parcel): Promise<CarrierQuote[]> {
  const points = await bb.pickupPoints(code);
  const quotes: CarrierQuote[] = [];
  for (const kind of ['office', 'postamat'] as const) {
    const point = points.find((p) => p.kind === kind && (p.maxWeight === undefined || p.maxWeight >= parcel.weight));
    if (!point) continue;
    const cost = await bb.cost(point.code, parcel, 0).catch(refusedAsNone);
    if (Array.isArray(cost)) continue;
    quotes.push({
      carrier: 'boxberry',
      tariffCode: 0,
      tariffName: 'Boxberry',
      mode: kind === 'office' ? 'pickup' : 'postamat',
      price: cost.price,
      periodMin: cost.days,
      periodMax: cost.days,
    });
  }
  return quotes;
}

export const boxberry: Carrier = {
  id: 'boxberry',
  liveSetting: 'BOXBERRY_API_URL=https://api.boxberry.ru/json.php',
  configured: () => client() !== undefined,
  apiUrl: () => env().BOXBERRY_API_URL,
  host: () => boxberryHost(env().BOXBERRY_API_URL),
  senderPoint: () => env().BOXBERRY_SENDER_POINT,
  missing: () => (client() && !env().BOXBERRY_SENDER_POINT ? ['BOXBERRY_SENDER_POINT'] : []),
  settings: () => [env().BOXBERRY_API_URL, env().BOXBERRY_SENDER_POINT].join('|'),

  async suggestCities(word, remember) {
    const all = await cities(remember);
    return all.ok ? { ok: true, value: all.value.filter((c) => c.name.toLowerCase().startsWith(word)).slice(0, 10) } : all;
  },

  async cityCode(name, remember) {
    const all = await cities(remember);
    return all.ok ? { ok: true, value: all.value.find((c) => cityWord(c.name) === cityWord(name))?.code } : all;
  },

  points(cityCode, remember) {
    const bb = configured();
    return remember('points', `boxberry:points:${cityCode}`, POINTS_TTL_MS, () => bb.pickupPoints(cityCode).catch(refusedAsNone));
  },

  quotes(cityCode, parcel, remember) {
    const bb = configured();
    return remember('quotes', `boxberry:quotes:${cityCode}:${parcelKey(parcel)}`, QUOTES_TTL_MS, () => quotesTo(bb, cityCode, parcel).catch(refusedAsNone));
  },

  async register(shipment) {
    try {
      const made = await configured().createParcel(boxberryParcelData(shipment));
      // Its track is its number.
      return { uuid: made.track, number: made.track };
    } catch (error) {
      // Boxberry keeps one parcel per order number and answers a repeat "…уже занято": the parcel is there,
      // followed by the order's number (ListStatuses takes it); its track is in Boxberry's cabinet.
      // eslint-disable-next-line shop/no-cyrillic-literal -- Boxberry's own refusal, matched, never shown
      if (error instanceof CarrierRefused && error.codes.some((c) => c.includes('уже занято'))) return { uuid: shipment.order.code, number: undefined };
      throw error;
    }
  },

  async label(shipment) {
    // Boxberry's label, by the parcel's track (a parcel known only by the order's number has none here).
    if (!shipment.number) throw new HttpError(409, 'delivery.ship.notRegistered');
    const bb = configured();
    return bb.download(await bb.labelUrl(shipment.number));
  },

  async track(shipment) {
    return { statuses: await configured().statuses(shipment.uuid), carrierNumber: undefined };
  },

  statusOf: (code) => STATUSES.find(([words]) => words.test(code))?.[1],

  // At an office only (its ListPoints does not say which has a fitting room, so no trying on is offered).
  services: ({ mode, fittingRoom, units }) => ({ tryOn: mode === 'pickup' && fittingRoom === true, partial: mode === 'pickup' && units > 1 }),

  async authorize() {
    await configured().cities();
  },

  pointNamed: (code) => configured().pointNamed(code),

  // Recalled (CancelOrder, cancelType 2) by the shop's order number, which Boxberry keeps as its order_id.
  refuse: (_shipment, orderCode) => configured().recall(orderCode),
};
