// CDEK's integration API v2 (docs/research/cdek-api-v2.md has the protocol and its sources): an OAuth
// client-credentials token, kept until shortly before it expires and asked for again once on a 401;
// city suggestions, pickup points and the tariff list. Every call has a deadline (CARRIER_TIMEOUT_MS):
// checkout never waits longer for a carrier. What the carrier sends back is checked field by field and
// anything it does not promise is left out, so a changed answer is one error here, not a broken page.
import { z } from '~/lib/zod.ts';
import {
  CarrierRefused,
  CarrierUnavailable,
  SHIPPING_TIMEOUT_MS,
  type CarrierStatus,
  type CodTransfer,
  type DoorReceipt,
  type HandOver,
} from './carrier.server.ts';
import type { CarrierCity, CarrierQuote, DeliveryMode, Parcel, PickupPoint } from './delivery.ts';

export interface CdekConfig {
  /** The API's base, `https://api.cdek.ru/v2` (or the test host, or a stand-in). */
  url: string;
  clientId: string;
  clientSecret: string;
  timeoutMs: number;
}

const tokenSchema = z.object({ access_token: z.string().min(1), expires_in: z.number().positive() });
const errorList = z.array(z.object({ code: z.string(), message: z.string().optional() }));
// Synchronous calls refuse with `errors`; the asynchronous entities (orders, prints, intakes) inside `requests`.
const errorsSchema = z.object({ errors: errorList.optional(), requests: z.array(z.object({ errors: errorList.optional() })).optional() });
const errorCodes = (body: unknown): string[] => {
  const parsed = errorsSchema.safeParse(body).data;
  return [...(parsed?.errors ?? []), ...(parsed?.requests ?? []).flatMap((r) => r.errors ?? [])].map((e) => e.code);
};

/** An asynchronous entity's answer: `{ entity: { uuid, … }, requests: [{ state, errors }] }`. */
const entitySchema = z.object({
  entity: z.looseObject({ uuid: z.string().min(1).max(100) }),
  requests: z.array(z.object({ state: z.string(), errors: errorList.optional() })).default([]),
});

const carrierStatusSchema = z.object({ code: z.string(), name: z.string().default(''), date_time: z.string(), city: z.string().optional() });
const orderEntitySchema = z.object({
  uuid: z.string(),
  number: z.string().optional(),
  cdek_number: z.union([z.string(), z.number()]).optional(),
  statuses: z.array(z.unknown()).default([]),
  packages: z.array(z.object({ items: z.array(z.unknown()).default([]) })).default([]),
  delivery_detail: z.unknown().optional(),
});
// After handing over (docs/research/cash-on-delivery.md §4): each item's delivery_amount, and what was taken.
const handedItemSchema = z.object({
  ware_key: z.string(),
  marking: z.string().optional(),
  amount: z.number().int(),
  delivery_amount: z.number().int().min(0).optional(),
});
const deliveryDetailSchema = z.object({
  payment_sum: z.number().nonnegative().optional(),
  payment_info: z.array(z.object({ type: z.string(), sum: z.number().nonnegative() })).default([]),
});
const printEntitySchema = z.object({ uuid: z.string(), url: z.string().optional(), statuses: z.array(z.object({ code: z.string() })).default([]) });

const suggestionSchema = z.array(z.object({ code: z.number().int(), full_name: z.string() }));

const pointSchema = z.object({
  code: z.string().min(1).max(50),
  name: z.string().max(300).optional(),
  type: z.string(),
  address_comment: z.string().optional(),
  nearest_metro_station: z.string().optional(),
  work_time: z.string().default(''),
  is_dressing_room: z.boolean().default(false),
  have_cashless: z.boolean().default(false),
  allowed_cod: z.boolean().default(false),
  is_handout: z.boolean().default(true),
  weight_max: z.number().optional(),
  location: z.object({ city_code: z.number().int(), address: z.string(), latitude: z.number(), longitude: z.number() }),
});

const tariffSchema = z.object({
  tariff_code: z.number().int(),
  tariff_name: z.string(),
  delivery_mode: z.number().int(),
  delivery_sum: z.number().nonnegative(),
  period_min: z.number().int(),
  period_max: z.number().int(),
});
const tariffListSchema = z.object({ tariff_codes: z.array(z.unknown()).default([]) });

/** Where a tariff's parcel ends (CDEK's delivery_mode: 2 and 4 at an office, 6 and 7 at a postamat, 1 and 3 at the door). */
export function modeOf(deliveryMode: number): DeliveryMode | undefined {
  if (deliveryMode === 2 || deliveryMode === 4) return 'pickup';
  if (deliveryMode === 6 || deliveryMode === 7) return 'postamat';
  if (deliveryMode === 1 || deliveryMode === 3) return 'courier';
  return undefined;
}

/** The shop hands parcels over at a CDEK office: only tariffs that start at one (modes 3, 4, 7). */
const FROM_OFFICE = new Set([3, 4, 7]);

/** What the carrier holds of a shop's order. */
export interface CarrierOrder {
  uuid: string;
  /** The shop's order code, as sent. */
  number: string | undefined;
  /** The carrier's own number, once it has processed the order. */
  carrierNumber: string | undefined;
  /** The request was refused after it was accepted (CDEK's INVALID): the codes why. */
  invalid: string[] | undefined;
  /** Oldest first. */
  statuses: CarrierStatus[];
  /** Once handed over and paid on delivery: each position's units taken and the money (undefined before). */
  handOver: HandOver | undefined;
}

export interface CdekClient {
  suggestCities(name: string): Promise<CarrierCity[]>;
  pickupPoints(cityCode: number): Promise<PickupPoint[]>;
  /** The tariffs from the sender's city to this one for these parcels, one per mode and the cheapest of each. */
  quotes(from: number, to: number, parcels: readonly Parcel[]): Promise<CarrierQuote[]>;
  /** Registers an order (POST /orders, answered 202): the carrier's uuid for it. */
  createOrder(body: Record<string, unknown>): Promise<string>;
  getOrder(uuid: string): Promise<CarrierOrder>;
  /** The order the carrier holds under the shop's number, if any (the newest of several). */
  orderByNumber(number: string): Promise<CarrierOrder | undefined>;
  /** Asks for an order's waybill (POST /print/orders); the print job's uuid. */
  printWaybill(orderUuid: string): Promise<string>;
  /** The print job's PDF address once ready, undefined while it is being made. */
  printReady(printUuid: string): Promise<string | undefined>;
  /** A PDF the carrier made (its address needs the token). */
  download(url: string): Promise<Uint8Array<ArrayBuffer>>;
  /** Asks for a courier to pick parcels up (POST /intakes): the intake's uuid. */
  createIntake(body: Record<string, unknown>): Promise<string>;
  /** Asks for a token: whether the credentials work, asking nothing else (CarrierRefused when they do not). */
  authorize(): Promise<void>;
  /** An office by its code (GET /deliverypoints?code=), or undefined when CDEK has none. */
  pointByCode(code: string): Promise<PickupPoint | undefined>;
  /** The account's webhook subscriptions (GET /webhooks). */
  webhooks(): Promise<{ uuid: string; type: string; url: string }[]>;
  /** Subscribes the address to a webhook type (POST /webhooks; a second of one type replaces its address): its uuid. */
  subscribe(type: string, url: string): Promise<string>;
  /** The receipts CDEK's register issued for an order's money taken at the door (GET /check?order_uuid=). */
  checks(orderUuid: string): Promise<DoorReceipt[]>;
  /** The registers of money taken at the door that CDEK paid the shop on a day (GET /registries?date=). */
  registries(date: string): Promise<CodTransfer[]>;
  /** A delivered order's client return (POST /orders/{uuid}/clientReturn), by a tariff of the shop's contract. */
  clientReturn(orderUuid: string, tariffCode: number): Promise<void>;
  /** The shop's refusal of an order not yet handed over (POST /orders/{uuid}/refusal): CDEK brings it back. */
  refusal(orderUuid: string): Promise<void>;
}

// GET /registries (docs/research/cash-on-delivery.md §6): registry_number an integer by the docs, a string in
// some clients — either is read.
const registrySchema = z.object({
  registry_number: z.union([z.number(), z.string()]),
  payment_date: z.string().optional(),
  payment_order_number: z.string().optional(),
  orders: z
    .array(
      z.object({
        cdek_number: z.union([z.string(), z.number()]),
        transfer_sum: z.number(),
        payment_sum: z.number(),
        agent_commission_sum: z.number().default(0),
      }),
    )
    .default([]),
});

// GET /check (docs/research/cash-on-delivery.md §5): fiscal numbers and sums, no item lines.
const checkSchema = z.object({
  date: z.string(),
  fiscal_storage_number: z.union([z.string(), z.number()]),
  document_number: z.union([z.string(), z.number()]),
  fiscal_sign: z.union([z.string(), z.number()]),
  type: z.enum(['CASH_RECEIPT_IN', 'CASH_RECEIPT_REFUND']),
  payment_info: z.array(z.object({ type: z.string(), sum: z.number().nonnegative() })).default([]),
});

function carrierOrder(body: unknown): CarrierOrder {
  const parsed = z
    .object({ entity: orderEntitySchema, requests: z.array(z.object({ state: z.string(), errors: errorList.optional() })).default([]) })
    .safeParse(body);
  if (!parsed.success) throw new CarrierUnavailable('CDEK answered the order with something else');
  const { entity, requests } = parsed.data;
  const invalid = requests.find((r) => r.state === 'INVALID');
  const statuses: CarrierStatus[] = [];
  for (const row of entity.statuses) {
    const s = carrierStatusSchema.safeParse(row);
    if (s.success) statuses.push({ code: s.data.code, name: s.data.name, at: new Date(s.data.date_time).toISOString(), city: s.data.city ?? '' });
  }
  // CDEK lists the newest first; the shop applies them in the order they happened (two in one second keep CDEK's order).
  statuses.reverse().sort((a, b) => a.at.localeCompare(b.at));
  return {
    uuid: entity.uuid,
    number: entity.number,
    carrierNumber: entity.cdek_number === undefined ? undefined : String(entity.cdek_number),
    invalid: invalid ? (invalid.errors ?? []).map((e) => e.code) : undefined,
    statuses,
    handOver: handOverOf(entity.packages, entity.delivery_detail),
  };
}

/**
 * What was handed over, once CDEK says: the money taken (delivery_detail.payment_sum, "net of the items
 * refused") and each item's delivery_amount. Before that (no payment_sum), undefined.
 */
function handOverOf(packages: { items: unknown[] }[], detail: unknown): HandOver | undefined {
  const money = deliveryDetailSchema.safeParse(detail);
  if (!money.success || money.data.payment_sum === undefined) return undefined;
  const positions = packages.flatMap((p) =>
    p.items.flatMap((row) => {
      const item = handedItemSchema.safeParse(row);
      if (!item.success) return [];
      return [{ key: item.data.ware_key, marking: item.data.marking, delivered: item.data.delivery_amount ?? item.data.amount }];
    }),
  );
  return {
    positions,
    collected: Math.round(money.data.payment_sum * 100),
    payments: money.data.payment_info.map((p) => ({ type: p.type === 'CASH' ? ('cash' as const) : ('card' as const), sum: Math.round(p.sum * 100) })),
  };
}

/** A point of CDEK's list as the shop keeps it; undefined for one malformed (or, when asked, one that hands nothing out). */
function pointOf(item: unknown, handoutOnly: boolean): PickupPoint | undefined {
  const parsed = pointSchema.safeParse(item);
  if (!parsed.success || (handoutOnly && !parsed.data.is_handout)) return undefined;
  const p = parsed.data;
  return {
    carrier: 'cdek',
    code: p.code,
    name: p.name ?? p.code,
    kind: p.type === 'POSTAMAT' ? 'postamat' : 'office',
    cityCode: p.location.city_code,
    address: p.location.address,
    ...(p.address_comment ? { howToFind: p.address_comment } : {}),
    // CDEK writes the station with its "м." or without; the shop writes it once.
    ...(p.nearest_metro_station ? { metro: p.nearest_metro_station.replace(/^м\.\s*/, '') } : {}),
    hours: p.work_time,
    latitude: p.location.latitude,
    longitude: p.location.longitude,
    fittingRoom: p.is_dressing_room,
    card: p.have_cashless,
    cod: p.allowed_cod,
    // CDEK gives kilograms.
    ...(p.weight_max ? { maxWeight: Math.round(p.weight_max * 1000) } : {}),
  };
}

export function cdekClient(config: CdekConfig, fetchImpl: typeof fetch = fetch): CdekClient {
  let token: { value: string; until: number } | undefined;
  let asking: Promise<string> | undefined;

  type Init = RequestInit & { query?: Record<string, string | number>; timeoutMs?: number };

  async function send(path: string, init: Init): Promise<Response> {
    const url = new URL(/^https?:/.test(path) ? path : config.url.replace(/\/$/, '') + path);
    for (const [name, value] of Object.entries(init.query ?? {})) url.searchParams.set(name, String(value));
    const timeoutMs = init.timeoutMs ?? config.timeoutMs;
    try {
      return await fetchImpl(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    } catch (error) {
      const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
      throw new CarrierUnavailable(timedOut ? `CDEK did not answer within ${timeoutMs} ms` : `CDEK could not be reached (${(error as Error).message})`);
    }
  }

  async function newToken(): Promise<string> {
    const body = new URLSearchParams({ grant_type: 'client_credentials', client_id: config.clientId, client_secret: config.clientSecret });
    const res = await send('/oauth/token', { method: 'POST', body, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    if (res.status >= 500 || res.status === 429) throw new CarrierUnavailable(`CDEK's token endpoint answered ${res.status}`, res.status);
    if (!res.ok) throw new CarrierRefused(`CDEK refused the shop's credentials (${res.status})`, res.status, ['unauthorized']);
    const parsed = tokenSchema.safeParse(await res.json().catch(() => undefined));
    if (!parsed.success) throw new CarrierUnavailable('CDEK answered the token request with something else');
    // A minute early: a token that expires on the way is a wasted call.
    token = { value: parsed.data.access_token, until: Date.now() + Math.max(0, parsed.data.expires_in - 60) * 1000 };
    return token.value;
  }

  async function bearer(fresh: boolean): Promise<string> {
    if (!fresh && token && token.until > Date.now()) return token.value;
    // Callers at once share one token request.
    asking ??= newToken().finally(() => (asking = undefined));
    return asking;
  }

  /** A call with the token; a 401 (an expired or revoked token) asks for a new one once. */
  async function call(path: string, init: Init = {}): Promise<unknown> {
    return (await authorised(path, init, (res) => res.json().catch(() => undefined))) as unknown;
  }

  async function authorised<T>(path: string, init: Init, read: (res: Response) => Promise<T>): Promise<T | unknown> {
    for (let attempt = 0; ; attempt++) {
      const res = await send(path, { ...init, headers: { ...init.headers, authorization: `Bearer ${await bearer(attempt > 0)}`, accept: 'application/json' } });
      if (res.status === 401 && attempt === 0) {
        token = undefined;
        continue;
      }
      if (res.status >= 500 || res.status === 429) throw new CarrierUnavailable(`CDEK answered ${res.status} to ${path}`, res.status);
      if (!res.ok) {
        const codes = errorCodes(await res.json().catch(() => undefined));
        throw new CarrierRefused(
          `CDEK refused ${path.replace(/^https?:\/\/[^/]+/, '')} (${res.status}${codes.length ? `: ${codes.join(', ')}` : ''})`,
          res.status,
          codes,
        );
      }
      return read(res);
    }
  }

  const post = (body: unknown): Init => ({
    method: 'POST',
    body: JSON.stringify(body),
    headers: { 'content-type': 'application/json' },
    timeoutMs: SHIPPING_TIMEOUT_MS,
  });
  const entityUuid = (body: unknown, what: string): string => {
    const parsed = entitySchema.safeParse(body);
    if (!parsed.success) throw new CarrierUnavailable(`CDEK answered the ${what} with something else`);
    const invalid = parsed.data.requests.find((r) => r.state === 'INVALID');
    if (invalid)
      throw new CarrierRefused(
        `CDEK refused the ${what}`,
        400,
        (invalid.errors ?? []).map((e) => e.code),
      );
    return parsed.data.entity.uuid;
  };

  return {
    async suggestCities(name) {
      const found = suggestionSchema.safeParse(await call('/location/suggest/cities', { query: { name, country_code: 'RU' } }));
      if (!found.success) throw new CarrierUnavailable('CDEK answered the city suggestions with something else');
      return found.data.slice(0, 10).map((c) => ({ code: c.code, name: c.full_name.replace(/, Россия$/, '') }));
    },

    async pickupPoints(cityCode) {
      const answer = await call('/deliverypoints', { query: { city_code: cityCode, type: 'ALL', is_handout: 1 } });
      if (!Array.isArray(answer)) throw new CarrierUnavailable('CDEK answered the pickup points with something else');
      // One malformed point is left out, not the city's whole list.
      return answer.map((item) => pointOf(item, true)).filter((p): p is PickupPoint => p !== undefined);
    },

    async authorize() {
      await bearer(true);
    },

    async pointByCode(code) {
      const answer = await call('/deliverypoints', { query: { code } });
      if (!Array.isArray(answer)) throw new CarrierUnavailable('CDEK answered the point with something else');
      // The sender's office takes parcels in; it need not hand any out.
      return answer.map((item) => pointOf(item, false)).find((p) => p?.code === code);
    },

    async webhooks() {
      const answer = z.array(z.object({ uuid: z.string(), type: z.string(), url: z.string() })).safeParse(await call('/webhooks'));
      if (!answer.success) throw new CarrierUnavailable('CDEK answered the webhooks with something else');
      return answer.data;
    },

    async subscribe(type, url) {
      return entityUuid(await call('/webhooks', post({ type, url })), 'webhook subscription');
    },

    async quotes(from, to, parcels) {
      const body = {
        type: 1,
        currency: 1,
        lang: 'rus',
        from_location: { code: from },
        to_location: { code: to },
        packages: parcels.map((p) => ({ weight: p.weight, length: p.length, width: p.width, height: p.height })),
      };
      const answer = tariffListSchema.safeParse(
        await call('/calculator/tarifflist', { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
      );
      if (!answer.success) throw new CarrierUnavailable('CDEK answered the tariff list with something else');
      const best = new Map<DeliveryMode, CarrierQuote>();
      for (const row of answer.data.tariff_codes) {
        const parsed = tariffSchema.safeParse(row);
        if (!parsed.success || !FROM_OFFICE.has(parsed.data.delivery_mode)) continue;
        const t = parsed.data;
        const mode = modeOf(t.delivery_mode);
        if (!mode) continue;
        const quote: CarrierQuote = {
          carrier: 'cdek',
          tariffCode: t.tariff_code,
          tariffName: t.tariff_name,
          mode,
          price: Math.round(t.delivery_sum * 100),
          periodMin: t.period_min,
          periodMax: t.period_max,
        };
        const kept = best.get(mode);
        // The cheapest of each mode; of two at one price, the faster.
        if (!kept || quote.price < kept.price || (quote.price === kept.price && quote.periodMax < kept.periodMax)) best.set(mode, quote);
      }
      return [...best.values()];
    },

    async createOrder(body) {
      return entityUuid(await call('/orders', post(body)), 'order');
    },

    async getOrder(uuid) {
      return carrierOrder(await call(`/orders/${encodeURIComponent(uuid)}`, { timeoutMs: SHIPPING_TIMEOUT_MS }));
    },

    async orderByNumber(number) {
      try {
        return carrierOrder(await call('/orders', { query: { im_number: number }, timeoutMs: SHIPPING_TIMEOUT_MS }));
      } catch (error) {
        if (error instanceof CarrierRefused && error.codes.some((c) => c.startsWith('v2_entity_not_found'))) return undefined;
        throw error;
      }
    },

    async printWaybill(orderUuid) {
      return entityUuid(await call('/print/orders', post({ orders: [{ order_uuid: orderUuid }], copy_count: 2, type: 'tpl_russia' })), 'waybill');
    },

    async printReady(printUuid) {
      const parsed = z
        .object({ entity: printEntitySchema })
        .safeParse(await call(`/print/orders/${encodeURIComponent(printUuid)}`, { timeoutMs: SHIPPING_TIMEOUT_MS }));
      if (!parsed.success) throw new CarrierUnavailable('CDEK answered the waybill with something else');
      const codes = parsed.data.entity.statuses.map((s) => s.code);
      if (codes.includes('INVALID') || codes.includes('REMOVED')) throw new CarrierRefused('CDEK could not make the waybill', 400, codes);
      return codes.includes('READY') ? parsed.data.entity.url : undefined;
    },

    async download(url) {
      // Only from the carrier's own host: the address came in an answer, and the token must not go elsewhere.
      if (new URL(url).origin !== new URL(config.url).origin) throw new CarrierUnavailable('CDEK gave a waybill address on another host');
      const bytes = await authorised(url, { timeoutMs: SHIPPING_TIMEOUT_MS }, (res) => res.arrayBuffer());
      if (!(bytes instanceof ArrayBuffer) || bytes.byteLength === 0) throw new CarrierUnavailable('CDEK sent no waybill');
      return new Uint8Array(bytes);
    },

    async createIntake(body) {
      return entityUuid(await call('/intakes', post(body)), 'courier pickup');
    },

    async clientReturn(orderUuid, tariffCode) {
      entityUuid(await call(`/orders/${encodeURIComponent(orderUuid)}/clientReturn`, post({ tariff_code: tariffCode })), 'client return');
    },

    async refusal(orderUuid) {
      entityUuid(await call(`/orders/${encodeURIComponent(orderUuid)}/refusal`, post({})), 'refusal');
    },

    async registries(date) {
      const answer = z
        .object({ registries: z.array(z.unknown()).default([]) })
        .safeParse(await call('/registries', { query: { date }, timeoutMs: SHIPPING_TIMEOUT_MS }));
      if (!answer.success) throw new CarrierUnavailable('CDEK answered the registries with something else');
      const kopecks = (roubles: number) => Math.round(roubles * 100);
      return answer.data.registries.flatMap((row) => {
        const registry = registrySchema.safeParse(row);
        if (!registry.success) return [];
        return registry.data.orders.map((o) => ({
          registry: String(registry.data.registry_number),
          paidOn: registry.data.payment_date ?? null,
          paymentOrder: registry.data.payment_order_number ?? null,
          carrierNumber: String(o.cdek_number),
          collected: kopecks(o.payment_sum),
          commission: kopecks(o.agent_commission_sum),
          transferred: kopecks(o.transfer_sum),
        }));
      });
    },

    async checks(orderUuid) {
      const answer = z
        .object({ check_info: z.array(z.unknown()).default([]) })
        .safeParse(await call('/check', { query: { order_uuid: orderUuid }, timeoutMs: SHIPPING_TIMEOUT_MS }));
      if (!answer.success) throw new CarrierUnavailable('CDEK answered the receipts with something else');
      return answer.data.check_info.flatMap((row) => {
        const check = checkSchema.safeParse(row);
        if (!check.success) return [];
        const payments = check.data.payment_info.map((p) => ({
          type: p.type === 'CASH' ? ('cash' as const) : ('card' as const),
          sum: Math.round(p.sum * 100),
        }));
        return [
          {
            kind: check.data.type === 'CASH_RECEIPT_IN' ? ('sale' as const) : ('refund' as const),
            at: new Date(check.data.date.replace(/([+-]\d{2})(\d{2})$/, '$1:$2')).toISOString(),
            fiscal: { storage: String(check.data.fiscal_storage_number), document: String(check.data.document_number), sign: String(check.data.fiscal_sign) },
            sum: payments.reduce((s, p) => s + p.sum, 0),
            payments,
          },
        ];
      });
    },
  };
}
