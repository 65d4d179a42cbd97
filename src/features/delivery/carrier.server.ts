// The carrier contract (issue 55, docs/delivery.md "Adding a carrier"): everything the shop asks of a
// carrier — its cities, a city's points, a parcel's quotes, registering a shipment, its label, its
// statuses read back and mapped to the order's, the set-up checks — as one interface. Each carrier is
// one adapter module beside its API client (cdek.carrier.server.ts, boxberry.carrier.server.ts), listed
// in one registry (carriers.server.ts); checkout, shipments, tracking and the console work through this
// contract and never name a carrier. Money in kopecks, weights in grams, sizes in centimetres.
import type { MessageKey } from '~/lib/i18n/index.ts';
import type { OrderView } from '~/features/orders/orders.server.ts';
import { ORDER_FLOW, type OrderStatus } from '~/features/orders/orders.ts';
import type { CarrierCity, CarrierDeliveryRecord, CarrierId, CarrierQuote, Parcel, PickupPoint } from './delivery.ts';
import { ITEM_PARCEL, packParcel } from './delivery.parcel.ts';

/** The carrier could not answer in time or at all (network, 5xx, 429): checkout falls back. */
export class CarrierUnavailable extends Error {
  readonly status: number | undefined;
  constructor(message: string, status?: number) {
    super(message);
    this.name = 'CarrierUnavailable';
    this.status = status;
  }
}

/** The carrier answered and refused the request (4xx with its error codes). */
export class CarrierRefused extends Error {
  readonly status: number;
  readonly codes: readonly string[];
  constructor(message: string, status: number, codes: readonly string[]) {
    super(message);
    this.name = 'CarrierRefused';
    this.status = status;
    this.codes = codes;
  }
}

/** Shipping calls are a manager's or a job's, not a shopper's: they may wait longer than checkout does. */
export const SHIPPING_TIMEOUT_MS = 15_000;

export const POINTS_TTL_MS = 24 * 60 * 60 * 1000;
export const QUOTES_TTL_MS = 10 * 60 * 1000;
export const CITIES_TTL_MS = 24 * 60 * 60 * 1000;

/** A status of a carrier's order, as the carrier lists it. */
export interface CarrierStatus {
  code: string;
  name: string;
  /** ISO time. */
  at: string;
  city: string;
}

/** A position of the parcel as the carrier reports it once handed over (issue 55). */
export interface HandedPosition {
  /** The position's key as the shop gave it (positionKey). */
  key: string;
  /** A marked unit's code, when the position carried one. */
  marking: string | undefined;
  /** How many units of it the buyer took. */
  delivered: number;
}

/** What the carrier says was handed over and collected (paid on delivery; a partial buy-out names the positions). */
export interface HandOver {
  /** Empty when the carrier does not say per position: everything was taken. */
  positions: HandedPosition[];
  /** Kopecks the carrier took from the buyer; undefined when it does not say. */
  collected: number | undefined;
  payments: { type: 'cash' | 'card'; sum: number }[];
}

/** What the carrier says of a shipment now. */
export interface CarrierTrack {
  /** Oldest first. */
  statuses: CarrierStatus[];
  /** The carrier's own number, once it has given one. */
  carrierNumber: string | undefined;
  /** Once handed over: what was taken and paid. */
  handOver?: HandOver | undefined;
}

/**
 * A receipt the carrier's register issued for money it took at the door as the shop's agent (54-ФЗ;
 * docs/payments.md "Receipts for money taken at the door"), as read back: its fiscal numbers and sums.
 */
export interface DoorReceipt {
  kind: 'sale' | 'refund';
  at: string;
  /** ФН, ФД, ФП. */
  fiscal: { storage: string; document: string; sign: string };
  /** Kopecks. */
  sum: number;
  payments: { type: 'cash' | 'card'; sum: number }[];
}

/** An order's money taken at the door, as a carrier's register of transfers to the shop lists it (kopecks). */
export interface CodTransfer {
  registry: string;
  paidOn: string | null;
  paymentOrder: string | null;
  /** The carrier's own number of the order (the shipment's number). */
  carrierNumber: string;
  collected: number;
  commission: number;
  transferred: number;
}

/** The extra services of a delivery paid at the door (issue 55): trying on, and keeping only part of the order. */
export interface Services {
  tryOn: boolean;
  partial: boolean;
}

/** An order line's key in a carrier's document: its size's code (or the line's id), short enough for a suffix. */
export const lineKey = (l: { variant_code: string; id: number }) => (l.variant_code || `line-${l.id}`).slice(0, 45);
/** A position's key: the line's, with `#n` when a line is several positions (units at two amounts, marked units). */
export const positionKey = (l: { variant_code: string; id: number }, n?: number) => (n === undefined ? lineKey(l) : `${lineKey(l)}#${n}`);
/** The line key a position's key belongs to. */
export const lineKeyOf = (key: string) => key.replace(/#\d+$/, '');

/** Why there is no carrier answer: not configured, or the carrier could not give one now. */
export type Fallback = 'not_configured' | 'unavailable';

export type CarrierAnswer<T> = { ok: true; value: T } | { ok: false; fallback: Fallback };

/**
 * `load`'s answer kept in the shared `carrier_cache` for `ttlMs` under `key` (delivery.server.ts); a
 * carrier's failure is counted, logged and answered as a fallback.
 */
export type Remember = <T>(operation: 'cities' | 'points' | 'quotes', key: string, ttlMs: number, load: () => Promise<T>) => Promise<CarrierAnswer<T>>;

/** A setting a carrier needs for a part of its work, by the variable's name. */
export type MissingSetting = 'DELIVERY_SENDER_POINT' | 'CDEK_WEBHOOK_TOKEN' | 'DELIVERY_SENDER_CONTACT' | 'BOXBERRY_SENDER_POINT';

export type WebhookState =
  | { state: 'subscribed'; url: string; uuid: string; made: boolean }
  | { state: 'off'; why: 'no_token' | 'test_host' | 'none' }
  | { state: 'failed'; error: string };

/** Each ordered product's item parcel, by product id (their weights and sizes now). */
export type ItemParcels = ReadonlyMap<number, Parcel>;

/** An order as a carrier registers it, read once by the shipments service. */
export interface ShipmentOrder {
  order: OrderView;
  record: CarrierDeliveryRecord;
  items: ItemParcels;
  /** Marked goods' codes by order line (issue 39). */
  codes: ReadonlyMap<number, string[]>;
  /** The point parcels are handed over at. */
  senderPoint: string;
  /**
   * Paid on delivery (issue 55): what the carrier collects — each line's units at their amounts (by the
   * receipts' allocation, lines in the order's order) and the delivery with the fee; null when prepaid.
   */
  collect: { lines: { quantity: number; unit: number }[][]; delivery: number } | null;
}

/** A registered shipment as the shop keeps it. */
export interface Shipment {
  /** The carrier's id of it (CDEK's uuid; Boxberry's track, or the order's code). */
  uuid: string;
  /** The carrier's number (its track), once known. */
  number: string | null;
}

/** A courier asked to pick the day's parcels up. */
export interface IntakeRequest {
  date: string;
  /** The day's parcels as one load. */
  load: Parcel;
  codes: readonly string[];
}

export interface Carrier {
  readonly id: CarrierId;
  /** Whether the shop has an account (its credentials are set). */
  configured(): boolean;
  /** The API's address as set. */
  apiUrl(): string;
  /** Which of the carrier's hosts the address is: its test host, its live one, or another (a stand-in). */
  host(): 'test' | 'live' | 'other';
  /** The variable that points the shop at the live host, for the log's hint on the test host. */
  readonly liveSetting: string;
  /** The point parcels are handed over at, as set. */
  senderPoint(): string | undefined;
  /** Settings missing for parts of its work (the console and the log name them). */
  missing(): MissingSetting[];
  /** What a set-up check depends on: a check made under other settings says nothing about these. */
  settings(): string;

  /** Cities whose names start with the word (asked of the carrier whose codes checkout's city carries). */
  suggestCities(word: string, remember: Remember): Promise<CarrierAnswer<CarrierCity[]>>;
  /** The carrier's own code of a city named exactly so, if it knows one. */
  cityCode(name: string, remember: Remember): Promise<CarrierAnswer<number | undefined>>;
  /** A city's points, by the carrier's own city code. */
  points(cityCode: number, remember: Remember): Promise<CarrierAnswer<PickupPoint[]>>;
  /** What the carrier asks to carry this parcel to the city, one quote per way of receiving it. */
  quotes(cityCode: number, parcel: Parcel, remember: Remember): Promise<CarrierAnswer<CarrierQuote[]>>;

  /** Registers the order once: an earlier attempt that reached the carrier is found, not repeated. */
  register(shipment: ShipmentOrder): Promise<{ uuid: string; number: string | undefined }>;
  /** The shipment's label or waybill, a PDF. */
  label(shipment: Shipment, wait: { ms: number; tries: number }): Promise<Uint8Array<ArrayBuffer>>;
  /** What the carrier says of the shipment now. */
  track(shipment: Shipment): Promise<CarrierTrack>;
  /** The order's status a carrier's status means, if any. */
  statusOf(code: string): OrderStatus | undefined;
  /**
   * The services it can add to a delivery paid at the door: by the way (no postamat takes them), the point's
   * fitting room, and how many units there are (a partial buy-out of one unit is a refusal).
   */
  services(way: { mode: 'pickup' | 'postamat' | 'courier'; fittingRoom: boolean | undefined; units: number }): Services;

  /**
   * The receipts its register issued for money taken at the door, read back. A carrier without this takes
   * no payment at the door for the shop: the shop could not show the buyer's receipt (docs/payments.md).
   */
  doorReceipts?(shipment: Shipment): Promise<DoorReceipt[]>;
  /** A delivered order's return by the buyer, made with the carrier (the buyer hands the parcel in at its point). */
  clientReturn?(shipment: Shipment, record: CarrierDeliveryRecord): Promise<void>;
  /** The shop refuses the parcel before it is handed over (it is known by the shop's order code too): the carrier brings it back. */
  refuse?(shipment: Shipment, orderCode: string): Promise<void>;
  /** The money taken at the door it transferred to the shop on a day (YYYY-MM-DD), by its registers. */
  transfers?(date: string): Promise<CodTransfer[]>;

  /** Proves the credentials, asking nothing else (CarrierRefused when they do not work). */
  authorize(): Promise<void>;
  /** A point by its code (the sender's), or undefined when the carrier has none. */
  pointNamed(code: string): Promise<{ name: string; address: string } | undefined>;
  /** The shop's address the carrier's status pushes are subscribed to, where it has them (undefined: a setting missing). */
  pushUrl?(): string | undefined;
  /** Subscribes the shop to the carrier's status pushes, where it has them; else it is polled. */
  subscribe?(): Promise<WebhookState>;
  /** A courier asked to pick parcels up, where the shop has that with the carrier. */
  intake?: {
    /** Why it cannot be asked now (a setting missing), or null. */
    unready(): MessageKey | null;
    /** The carrier's id of the intake. */
    request(request: IntakeRequest): Promise<string>;
  };
}

/** A refusal that means "none" (an unknown city or point), not "the carrier is down". */
export const refusedAsNone = (error: unknown): never[] => {
  if (error instanceof CarrierRefused && error.status < 500 && error.status !== 401) return [];
  throw error;
};

/** A city's name as compared across carriers: before a region's comma, in lower case. */
export const cityWord = (name: string) => (name.split(',')[0] ?? '').trim().toLowerCase();

/**
 * The order's box: the parcel quoted and charged at checkout, else (orders placed before parcels were
 * quoted) its lines packed; never lighter than its items weigh now.
 */
export function orderParcel(order: Pick<OrderView, 'lines' | 'delivery_carrier'>, items: ItemParcels): Parcel {
  const packed = packParcel(order.lines.map((l) => ({ parcel: items.get(l.product_id) ?? ITEM_PARCEL, quantity: l.quantity })));
  const quoted = order.delivery_carrier?.parcel;
  return quoted ? { ...quoted, weight: Math.max(quoted.weight, packed.weight) } : packed;
}

/** A line's name as a carrier's document carries it: brand, name and size. */
export const lineName = (l: OrderView['lines'][number]) => [l.brand, l.name, l.variant && `(${l.variant})`].filter(Boolean).join(' ').slice(0, 255);

/** Of the carrier's statuses, the one the order should have now: the furthest along, or returned. */
export function furthest(statuses: readonly { code: string }[], carrier: Pick<Carrier, 'statusOf'>): OrderStatus | undefined {
  let best: OrderStatus | undefined;
  for (const s of statuses) {
    const status = carrier.statusOf(s.code);
    if (!status) continue;
    if (status === 'returned') return 'returned';
    if (!best || ORDER_FLOW.indexOf(status as (typeof ORDER_FLOW)[number]) > ORDER_FLOW.indexOf(best as (typeof ORDER_FLOW)[number])) best = status;
  }
  return best;
}
