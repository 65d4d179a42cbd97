// The browser's delivery calls (docs/api.md "Delivery by carriers").
import { api } from '~/lib/api.client.ts';
import type { CarrierCity, CarrierId, OfferView, PointKind, PointView } from './delivery.ts';

const BASE = '/api/v1/ecommerce-core/delivery';

/** null when the carrier answered; otherwise why checkout offers the fixed methods. */
export type FallbackView = 'not_configured' | 'unavailable' | null;

export const citiesCall = (q: string, signal?: AbortSignal) =>
  api<{ cities: CarrierCity[]; fallback: FallbackView }>(`${BASE}/cities`, { query: { q }, ...(signal ? { signal } : {}) });

export interface PointQuery {
  city: CarrierCity;
  carrier?: CarrierId;
  q?: string;
  fitting_room?: boolean;
  card?: boolean;
  kind?: PointKind | undefined;
}

export function pointsCall(query: PointQuery, signal?: AbortSignal) {
  const q: Record<string, string | number> = { city: query.city.code, city_name: query.city.name };
  if (query.carrier) q.carrier = query.carrier;
  if (query.q?.trim()) q.q = query.q.trim();
  if (query.fitting_room) q.fitting_room = '1';
  if (query.card) q.card = '1';
  if (query.kind) q.kind = query.kind;
  return api<{ points: PointView[]; fallback: FallbackView }>(`${BASE}/points`, { query: q, ...(signal ? { signal } : {}) });
}

/** A line being bought: a product and how many. */
export interface ParcelLineView {
  id: number;
  quantity: number;
}

export const optionsCall = (city: CarrierCity, lines: readonly ParcelLineView[], signal?: AbortSignal) =>
  api<{ offers: OfferView[]; fallback: FallbackView }>(`${BASE}/options`, {
    method: 'POST',
    body: { city: city.code, city_name: city.name, lines: lines.map((l) => ({ id: l.id, quantity: l.quantity })) },
    ...(signal ? { signal } : {}),
  });

/**
 * The no-JavaScript point list's address for a city (and a way: office or postamat), with the lines being
 * bought so that the page prices each point for this parcel.
 */
export function pointListUrl(city: CarrierCity, kind?: PointKind, carrier?: CarrierId, lines: readonly ParcelLineView[] = []): string {
  const q = new URLSearchParams({ city: String(city.code), city_name: city.name });
  if (kind) q.set('kind', kind);
  if (carrier) q.set('carrier', carrier);
  if (lines.length > 0 && lines.length <= 100) q.set('lines', lines.map((l) => `${l.id}x${l.quantity}`).join(','));
  return `/checkout/pickup?${q}`;
}
