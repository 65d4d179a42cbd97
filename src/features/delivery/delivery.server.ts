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
import { CarrierRefused, CarrierUnavailable, cdekClient, type CdekClient } from './cdek.server.ts';
import type { CarrierCity, CarrierDeliveryRecord, DeliveryOffer, Parcel, PickupPoint, PointKind } from './delivery.ts';
import { openQuote, type SealedQuote } from './quote.server.ts';

export const POINTS_TTL_MS = 24 * 60 * 60 * 1000;
export const QUOTES_TTL_MS = 10 * 60 * 1000;
const CITIES_TTL_MS = 24 * 60 * 60 * 1000;

/** One item of a parcel until products carry their own weight and size (docs/delivery.md). */
export const ITEM_PARCEL: Parcel = { weight: 1000, length: 30, width: 25, height: 10 };

let client: CdekClient | undefined;

/** The configured carrier, or undefined when the shop has no carrier account (the fixed methods only). */
export function carrier(): CdekClient | undefined {
  const e = env();
  if (!e.CDEK_CLIENT_ID || !e.CDEK_CLIENT_SECRET) return undefined;
  // env() is read once per process: one client, and so one token, for the process's life.
  client ??= cdekClient({ url: e.CDEK_API_URL, clientId: e.CDEK_CLIENT_ID, clientSecret: e.CDEK_CLIENT_SECRET, timeoutMs: e.CARRIER_TIMEOUT_MS });
  return client;
}

/** Why there is no carrier answer: not configured, or the carrier could not give one now. */
export type Fallback = 'not_configured' | 'unavailable';

export type CarrierAnswer<T> = { ok: true; value: T } | { ok: false; fallback: Fallback };

// A process's own copy in front of the shared table: the pickup step reads the same city's points for
// every keystroke of its search.
const near = new Cache<string, unknown>({ name: 'carrier', ttlMs: 60_000, maxEntries: 2_000 });

/** `load`'s answer, kept in the shared table for `ttlMs`; a carrier's failure is counted, logged and answered as a fallback. */
async function remembered<T>(
  operation: 'cities' | 'points' | 'quotes',
  key: string,
  ttlMs: number,
  load: (cdek: CdekClient) => Promise<T>,
): Promise<CarrierAnswer<T>> {
  const cdek = carrier();
  if (!cdek) return { ok: false, fallback: 'not_configured' };
  const kept = near.get(key) as T | undefined;
  if (kept !== undefined) return { ok: true, value: kept };
  const db = await getDb();
  const [row] = await selectRows<{ value: T }>(db, sql`SELECT value FROM carrier_cache WHERE key = ${key} AND expires_at > now()`);
  if (row) {
    near.set(key, row.value);
    metrics().carrierCalls.inc({ carrier: 'cdek', operation, outcome: 'cached' });
    return { ok: true, value: row.value };
  }
  try {
    const value = await load(cdek);
    await db.execute(
      sql`INSERT INTO carrier_cache (key, value, expires_at) VALUES (${key}, ${JSON.stringify(value)}::jsonb, now() + ${`${ttlMs} milliseconds`}::interval)
          ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, expires_at = EXCLUDED.expires_at`,
    );
    near.set(key, value);
    metrics().carrierCalls.inc({ carrier: 'cdek', operation, outcome: 'ok' });
    return { ok: true, value };
  } catch (error) {
    if (!(error instanceof CarrierUnavailable) && !(error instanceof CarrierRefused)) throw error;
    const outcome = error instanceof CarrierRefused ? 'refused' : 'unavailable';
    metrics().carrierCalls.inc({ carrier: 'cdek', operation, outcome });
    // The question's key names a city code or a route, never a shopper's words or address.
    logger.warn({ carrier: 'cdek', operation, outcome, err: loggableError(error) }, 'carrier did not answer: checkout offers the fixed methods');
    return { ok: false, fallback: 'unavailable' };
  }
}

/** The carrier's cities whose names start with `query` (a refusal, like an unknown word, finds none). */
export async function suggestCities(query: string): Promise<CarrierAnswer<CarrierCity[]>> {
  const word = query.trim().toLowerCase();
  return remembered('cities', `cdek:cities:${word}`, CITIES_TTL_MS, (cdek) => cdek.suggestCities(word).catch(refusedAsNone));
}

const refusedAsNone = (error: unknown): never[] => {
  if (error instanceof CarrierRefused && error.status < 500 && error.status !== 401) return [];
  throw error;
};

/** The carrier's city named exactly `name` ("Москва"; a region after a comma is not compared), if it knows one. */
export async function cityNamed(name: string): Promise<CarrierCity | null> {
  const wanted = name.trim().toLowerCase();
  if (wanted.length < 2 || wanted.length > 60) return null;
  const found = await suggestCities(wanted);
  if (!found.ok) return null;
  return found.value.find((c) => c.name.split(',')[0]?.trim().toLowerCase() === wanted) ?? null;
}

/** One point of a city, if the carrier lists it (undefined also when the carrier cannot answer now). */
export async function pointIn(cityCode: number, code: string): Promise<PickupPoint | undefined> {
  const all = await pickupPoints(cityCode);
  return all.ok ? all.value.find((p) => p.code === code) : undefined;
}

export interface PointFilter {
  /** Words of the street, the metro station or the point's name. */
  q?: string | undefined;
  fittingRoom?: boolean | undefined;
  card?: boolean | undefined;
  kind?: PointKind | undefined;
}

/** A city's pickup points, filtered as the shopper asks. */
export async function pickupPoints(cityCode: number, filter: PointFilter = {}): Promise<CarrierAnswer<PickupPoint[]>> {
  const all = await remembered('points', `cdek:points:${cityCode}`, POINTS_TTL_MS, (cdek) => cdek.pickupPoints(cityCode));
  if (!all.ok) return all;
  const words = (filter.q ?? '').toLowerCase().split(/\s+/).filter(Boolean);
  const value = all.value.filter(
    (p) =>
      (!filter.fittingRoom || p.fittingRoom) &&
      (!filter.card || p.card) &&
      (!filter.kind || p.kind === filter.kind) &&
      words.every((w) => `${p.address} ${p.metro ?? ''} ${p.name}`.toLowerCase().includes(w)),
  );
  return { ok: true, value };
}

/** One parcel for a number of items: the weights add up, the box grows in height. */
export function parcelFor(items: number): Parcel {
  const n = Math.max(1, items);
  return { ...ITEM_PARCEL, weight: ITEM_PARCEL.weight * n, height: ITEM_PARCEL.height * n };
}

/** What the carrier offers to this city for a parcel of `items` items, with the arrival dates of an order placed `now`. */
export async function deliveryOffers(cityCode: number, items: number, now = new Date()): Promise<CarrierAnswer<DeliveryOffer[]>> {
  const e = env();
  const parcel = parcelFor(items);
  const route = `cdek:quotes:${e.DELIVERY_SENDER_CITY_CODE}:${cityCode}:${parcel.weight}:${parcel.length}x${parcel.width}x${parcel.height}`;
  const quotes = await remembered('quotes', route, QUOTES_TTL_MS, (cdek) => cdek.quotes(e.DELIVERY_SENDER_CITY_CODE, cityCode, [parcel]).catch(refusedAsNone));
  if (!quotes.ok) return quotes;
  const rules = { handlingDays: e.DELIVERY_HANDLING_DAYS, cutoff: e.DELIVERY_CUTOFF, timeZone: 'Europe/Moscow' };
  const order = { pickup: 0, postamat: 1, courier: 2 } as const;
  // A point first, then a postamat, then the door: the order shoppers compare them in.
  const sorted = [...quotes.value].sort((a, b) => order[a.mode] - order[b.mode]);
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

/** A quote this shop sealed, not run out, for a parcel of this many items; else the checkout's 422. */
export async function quoted(quoteToken: string, items: number): Promise<SealedQuote> {
  const quote = openQuote(await purposeKey('delivery-quote'), quoteToken);
  // Items added or taken away since: another parcel, another price. The shopper chooses again.
  if (!quote || quote.items !== items) throw new HttpError(422, 'error.validation', { 'delivery.quote': ['delivery.quoteStale'] });
  return quote;
}

/**
 * The carrier delivery a shopper chose at placement: its sealed quote opened (charged as quoted, even if
 * the tariff changed since), for the parcel being ordered, and for a pickup point or postamat one the
 * carrier still lists in that city. A point cannot be checked while the carrier is down: it is taken as
 * chosen rather than block the order. Field errors are the checkout's 422s.
 */
export async function carrierChoice(quoteToken: string, pointCode: string | undefined, items: number, cityName = ''): Promise<CarrierDeliveryRecord> {
  const quote = await quoted(quoteToken, items);
  const record: CarrierDeliveryRecord = {
    carrier: quote.carrier,
    city: { code: quote.city, name: cityName },
    tariff: quote.tariff,
    mode: quote.mode,
    price: quote.price,
    arrival: { from: quote.from, to: quote.to },
    point: null,
  };
  if (quote.mode === 'courier') return record;
  if (!pointCode) throw new HttpError(422, 'error.validation', { 'delivery.point': ['validation.required'] });
  const listed = await pickupPoints(quote.city);
  if (!listed.ok) return { ...record, point: { code: pointCode, name: pointCode, address: '', hours: '' } };
  const point = listed.value.find((p) => p.code === pointCode && (p.kind === 'postamat') === (quote.mode === 'postamat'));
  if (!point) throw new HttpError(422, 'error.validation', { 'delivery.point': ['delivery.pointGone'] });
  return { ...record, point: { code: point.code, name: point.name, address: point.address, hours: point.hours } };
}
