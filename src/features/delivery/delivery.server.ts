// Delivery by carriers for checkout (issue 38, docs/delivery.md): the carrier's cities, a city's pickup
// points and the offers for a cart — each offer the carrier's cheapest tariff of a way to receive the
// parcel, with its price and the arrival dates. A carrier that is not configured, refuses, is down or
// slower than CARRIER_TIMEOUT_MS never blocks checkout: the answer says so, and checkout offers the fixed
// methods (src/content/site/delivery.json) as before. What carriers answer is kept in `carrier_cache`,
// shared by every process: a city's points for 24 hours, a route's tariffs for 10 minutes.
import { sql } from 'drizzle-orm';
import { Cache } from '~/lib/cache.ts';
import { selectRows } from '~/lib/db/client.ts';
import { getDb } from '~/lib/db/index.ts';
import { env } from '~/lib/env.ts';
import { logger, loggableError } from '~/lib/log.ts';
import { HttpError } from '~/lib/http/errors.ts';
import { metrics } from '~/lib/metrics.ts';
import { purposeKey } from '~/features/orders/orders.server.ts';
import { arrivalRange } from './arrival.ts';
import { CarrierRefused, CarrierUnavailable, cityWord, type Carrier, type CarrierAnswer, type Remember } from './carrier.server.ts';
import { carrierOf, configuredCarriers } from './carriers.server.ts';
import type { CarrierCity, CarrierDeliveryRecord, CarrierId, CarrierQuote, DeliveryOffer, PickupPoint, PointKind } from './delivery.ts';
import { parcelKey } from './delivery.parcel.ts';
import { parcelOf } from './delivery.parcel.server.ts';
import { noteCarrierError } from './delivery.errors.server.ts';
import { openQuote, type SealedQuote } from './quote.server.ts';
import type { Parcel } from './delivery.ts';

/** The carriers the shop has accounts with, in the registry's order. */
export function carriers(): CarrierId[] {
  return configuredCarriers().map((c) => c.id);
}

/**
 * The carrier whose city codes checkout's city carries: the first configured. Another carrier finds the
 * city by its name.
 */
function citySource(): Carrier | undefined {
  return configuredCarriers()[0];
}

// A process's own copy in front of the shared table: the pickup step reads the same city's points for
// every keystroke of its search.
const near = new Cache<string, unknown>({ name: 'carrier', ttlMs: 60_000, maxEntries: 2_000 });

/** A carrier's answers kept in the shared table; its failures counted, logged and answered as a fallback. */
function rememberFor(carrierId: CarrierId): Remember {
  return async <T>(operation: 'cities' | 'points' | 'quotes', key: string, ttlMs: number, load: () => Promise<T>): Promise<CarrierAnswer<T>> => {
    const kept = near.get(key) as T | undefined;
    if (kept !== undefined) return { ok: true, value: kept };
    const db = await getDb();
    const [row] = await selectRows<{ value: T }>(db, sql`SELECT value FROM carrier_cache WHERE key = ${key} AND expires_at > now()`);
    if (row) {
      near.set(key, row.value);
      metrics().carrierCalls.inc({ carrier: carrierId, operation, outcome: 'cached' });
      return { ok: true, value: row.value };
    }
    try {
      const value = await load();
      await db.execute(
        sql`INSERT INTO carrier_cache (key, value, expires_at) VALUES (${key}, ${JSON.stringify(value)}::jsonb, now() + ${`${ttlMs} milliseconds`}::interval)
            ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, expires_at = EXCLUDED.expires_at`,
      );
      near.set(key, value);
      metrics().carrierCalls.inc({ carrier: carrierId, operation, outcome: 'ok' });
      return { ok: true, value };
    } catch (error) {
      if (!(error instanceof CarrierUnavailable) && !(error instanceof CarrierRefused)) throw error;
      const outcome = error instanceof CarrierRefused ? 'refused' : 'unavailable';
      metrics().carrierCalls.inc({ carrier: carrierId, operation, outcome });
      noteCarrierError(carrierId, operation, error);
      // The question's key names a city code or a route, never a shopper's words or address.
      logger.warn({ carrier: carrierId, operation, outcome, err: loggableError(error) }, 'carrier did not answer: checkout offers the fixed methods');
      return { ok: false, fallback: 'unavailable' };
    }
  };
}

/** The cities of checkout's city source whose names start with `query` (a refusal, like an unknown word, finds none). */
export async function suggestCities(query: string): Promise<CarrierAnswer<CarrierCity[]>> {
  const source = citySource();
  if (!source) return { ok: false, fallback: 'not_configured' };
  return source.suggestCities(query.trim().toLowerCase(), rememberFor(source.id));
}

/** The carrier's city named exactly `name` ("Москва"; a region after a comma is not compared), if it knows one. */
export async function cityNamed(name: string): Promise<CarrierCity | null> {
  const wanted = name.trim().toLowerCase();
  if (wanted.length < 2 || wanted.length > 60) return null;
  const found = await suggestCities(wanted);
  if (!found.ok) return null;
  return found.value.find((c) => cityWord(c.name) === wanted) ?? null;
}

/** A carrier's own code for checkout's city: the code itself for the city source, else found by the name. */
async function codeFor(carrier: Carrier, city: CarrierCity): Promise<CarrierAnswer<number | undefined>> {
  if (carrier.id === citySource()?.id) return { ok: true, value: city.code };
  return carrier.cityCode(city.name, rememberFor(carrier.id));
}

/** One carrier's points of a city, by its own city code. */
function pointsOf(id: CarrierId, code: number): Promise<CarrierAnswer<PickupPoint[]>> {
  const carrier = carrierOf(id);
  if (!carrier.configured()) return Promise.resolve({ ok: false, fallback: 'not_configured' });
  return carrier.points(code, rememberFor(id));
}

/** One point of a carrier in a city, if it lists it (undefined also when the carrier cannot answer now). */
export async function pointIn(city: CarrierCity, code: string, id: CarrierId): Promise<PickupPoint | undefined> {
  const carrier = carrierOf(id);
  if (!carrier.configured()) return undefined;
  const own = await codeFor(carrier, city);
  if (!own.ok || own.value === undefined) return undefined;
  const all = await pointsOf(id, own.value);
  return all.ok ? all.value.find((p) => p.code === code) : undefined;
}

export interface PointFilter {
  /** Words of the street, the metro station or the point's name. */
  q?: string | undefined;
  fittingRoom?: boolean | undefined;
  card?: boolean | undefined;
  cod?: boolean | undefined;
  kind?: PointKind | undefined;
  carrier?: CarrierId | undefined;
}

/**
 * Answers of every carrier asked, together; a fallback only when none answered — `unavailable` when one
 * could not, `not_configured` when none applies (no account, or none knows the city by its name).
 */
async function together<T>(asked: readonly Carrier[], ask: (carrier: Carrier) => Promise<CarrierAnswer<T[]>>): Promise<CarrierAnswer<T[]>> {
  const answers = await Promise.all(asked.map(ask));
  const got = answers.filter((a): a is { ok: true; value: T[] } => a.ok);
  if (got.length > 0) return { ok: true, value: got.flatMap((a) => a.value) };
  return { ok: false, fallback: answers.some((a) => !a.ok && a.fallback === 'unavailable') ? 'unavailable' : 'not_configured' };
}

/** A carrier that does not know checkout's city (found by its name) has nothing to say about it. */
const NOT_HERE = { ok: false, fallback: 'not_configured' } as const;

/** A city's pickup points of every carrier (or one), filtered as the shopper asks. */
export async function pickupPoints(city: CarrierCity, filter: PointFilter = {}): Promise<CarrierAnswer<PickupPoint[]>> {
  const asked = configuredCarriers().filter((c) => !filter.carrier || c.id === filter.carrier);
  const all = await together(asked, async (carrier) => {
    const own = await codeFor(carrier, city);
    if (!own.ok) return own;
    return own.value === undefined ? NOT_HERE : carrier.points(own.value, rememberFor(carrier.id));
  });
  if (!all.ok) return all;
  const words = (filter.q ?? '').toLowerCase().split(/\s+/).filter(Boolean);
  // A point takes payment on delivery for this shop only when the shop offers it through that carrier.
  const value = all.value
    .map((p) => (!p.cod || takesPaymentAtDoor(p.carrier) ? p : { ...p, cod: false }))
    .filter(
      (p) =>
        (!filter.fittingRoom || p.fittingRoom) &&
        (!filter.card || p.card) &&
        (!filter.cod || p.cod) &&
        (!filter.kind || p.kind === filter.kind) &&
        words.every((w) => `${p.address} ${p.metro ?? ''} ${p.name}`.toLowerCase().includes(w)),
    );
  return { ok: true, value };
}

/** What the carriers offer to this city for this parcel (parcel.server.ts parcelOf), with the arrival dates of an order placed `now`. */
export async function deliveryOffers(city: CarrierCity, parcel: Parcel, now = new Date()): Promise<CarrierAnswer<DeliveryOffer[]>> {
  const e = env();
  const answer = await together(configuredCarriers(), async (carrier): Promise<CarrierAnswer<(CarrierQuote & { cityCode: number })[]>> => {
    const own = await codeFor(carrier, city);
    if (!own.ok) return own;
    const code = own.value;
    if (code === undefined) return NOT_HERE;
    const quotes = await carrier.quotes(code, parcel, rememberFor(carrier.id));
    return quotes.ok ? { ok: true, value: quotes.value.map((q) => ({ ...q, cityCode: code })) } : quotes;
  });
  if (!answer.ok) return answer;
  const rules = { handlingDays: e.DELIVERY_HANDLING_DAYS, cutoff: e.DELIVERY_CUTOFF, timeZone: 'Europe/Moscow' };
  const order = { pickup: 0, postamat: 1, courier: 2 } as const;
  // A point first, then a postamat, then the door, the cheaper first: the order shoppers compare them in.
  const sorted = [...answer.value].sort((a, b) => order[a.mode] - order[b.mode] || a.price - b.price);
  return { ok: true, value: sorted.map((q) => ({ ...q, arrival: arrivalRange(now, q.periodMin, q.periodMax, rules) })) };
}

/** Deletes what carriers answered past its time (the housekeeping job); the rows deleted. */
export async function forgetExpiredCarrierAnswers(): Promise<number> {
  const rows = await selectRows<{ n: number }>(
    await getDb(),
    sql`WITH gone AS (DELETE FROM carrier_cache WHERE expires_at <= now() RETURNING 1) SELECT count(*)::int AS n FROM gone`,
  );
  return rows[0]?.n ?? 0;
}

/** A quote this shop sealed, not run out, for this parcel; else the checkout's 422. */
export async function quoted(quoteToken: string, parcel: Parcel): Promise<SealedQuote> {
  const quote = openQuote(await purposeKey('delivery-quote'), quoteToken);
  // Items added or taken away since (or a product's weight changed): another parcel, another price. The
  // shopper chooses again.
  if (!quote || quote.parcel !== parcelKey(parcel)) throw new HttpError(422, 'error.validation', { 'delivery.quote': ['delivery.quoteStale'] });
  return quote;
}

/**
 * The carrier delivery a shopper chose at placement: its sealed quote opened (charged as quoted, even if
 * the tariff changed since), for the parcel being ordered, and for a pickup point or postamat one the
 * carrier still lists in that city. A point cannot be checked while the carrier is down: it is taken as
 * chosen rather than block the order. Field errors are the checkout's 422s.
 */
export async function carrierChoice(quoteToken: string, pointCode: string | undefined, parcel: Parcel, cityName = ''): Promise<CarrierDeliveryRecord> {
  const quote = await quoted(quoteToken, parcel);
  const record: CarrierDeliveryRecord = {
    carrier: quote.carrier,
    city: { code: quote.city, name: cityName },
    tariff: quote.tariff,
    mode: quote.mode,
    price: quote.price,
    arrival: { from: quote.from, to: quote.to },
    point: null,
    parcel,
  };
  if (quote.mode === 'courier') return record;
  if (!pointCode) throw new HttpError(422, 'error.validation', { 'delivery.point': ['validation.required'] });
  // The quote keeps the carrier's own city code.
  const listed = await pointsOf(quote.carrier, quote.city);
  if (!listed.ok) return { ...record, point: { code: pointCode, name: pointCode, address: '', hours: '' } };
  const point = listed.value.find((p) => p.code === pointCode && (p.kind === 'postamat') === (quote.mode === 'postamat'));
  if (!point) throw new HttpError(422, 'error.validation', { 'delivery.point': ['delivery.pointGone'] });
  return {
    ...record,
    point: {
      code: point.code,
      name: point.name,
      address: point.address,
      hours: point.hours,
      cod: point.cod && takesPaymentAtDoor(quote.carrier),
      fittingRoom: point.fittingRoom,
    },
  };
}

/**
 * Whether a carrier takes payment at the door for this shop (issue 55): the shop offers it
 * (PAY_ON_DELIVERY), and the carrier's register's receipts can be read back to show the buyer.
 */
export function takesPaymentAtDoor(id: CarrierId): boolean {
  return env().PAY_ON_DELIVERY && carrierOf(id).doorReceipts !== undefined;
}

/** The services a carrier can add to a delivery paid at the door (issue 55). */
export const servicesFor = (id: CarrierId, way: Parameters<Carrier['services']>[0]) => carrierOf(id).services(way);

/**
 * What checkout's summary needs of the chosen point (issue 55): whether it takes payment on delivery and
 * has a fitting room — undefined when no point is chosen yet or the carrier cannot say now. The door
 * takes payment; a fitting room is the point's alone.
 */
export async function pointFacts(quote: SealedQuote, pointCode: string | undefined): Promise<{ cod: boolean | undefined; fittingRoom: boolean | undefined }> {
  const takes = takesPaymentAtDoor(quote.carrier);
  if (quote.mode === 'courier') return { cod: takes, fittingRoom: undefined };
  if (!pointCode) return { cod: takes ? undefined : false, fittingRoom: undefined };
  const listed = await pointsOf(quote.carrier, quote.city);
  const point = listed.ok ? listed.value.find((p) => p.code === pointCode) : undefined;
  return { cod: point ? point.cod && takes : undefined, fittingRoom: point?.fittingRoom };
}

/** A line being bought, as the no-JavaScript point list's address carries it (`lines=12x1,34x2`). */
export interface LineRef {
  id: number;
  quantity: number;
}

/** `12x1,34x2` read as lines; null for anything else (at most 100 lines, 1–999 each). */
export function parseLineRefs(raw: string | null): LineRef[] | null {
  if (!raw || raw.length > 1_200 || !/^\d{1,9}x\d{1,3}(,\d{1,9}x\d{1,3})*$/.test(raw)) return null;
  const lines = raw.split(',').map((pair) => {
    const [id, quantity] = pair.split('x').map(Number);
    return { id: id ?? 0, quantity: quantity ?? 0 };
  });
  return lines.length <= 100 && lines.every((l) => l.id > 0 && l.quantity > 0) ? lines : null;
}

/**
 * What each way of receiving costs and when it arrives, per carrier and way (`cdek:pickup`), for the
 * point list without JavaScript (issue 54): the lines' own parcel when they are known (the island's link
 * carries them, a customer has a server cart), else one item's default parcel — `exact` says which. An
 * unavailable carrier gives no entry: the list shows the points without a price.
 */
export async function offersByWay(city: CarrierCity, lines: readonly LineRef[] | null): Promise<{ offers: Map<string, DeliveryOffer>; exact: boolean }> {
  const parcel = await parcelOf(lines && lines.length > 0 ? lines.map((l) => ({ productId: l.id, quantity: l.quantity })) : [{ productId: 0, quantity: 1 }]);
  const answer = await deliveryOffers(city, parcel);
  const offers = new Map<string, DeliveryOffer>();
  if (answer.ok) for (const offer of answer.value) if (!offers.has(`${offer.carrier}:${offer.mode}`)) offers.set(`${offer.carrier}:${offer.mode}`, offer);
  return { offers, exact: Boolean(lines && lines.length > 0) };
}

/** The key of `offersByWay` for a point: its carrier and whether it is a postamat. */
export const wayOf = (point: Pick<PickupPoint, 'carrier' | 'kind'>) => `${point.carrier}:${point.kind === 'postamat' ? 'postamat' : 'pickup'}`;
