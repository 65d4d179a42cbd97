// Boxberry's JSON API (docs/research/boxberry-api.md): one endpoint, the token beside the method in the
// query string, ParselCreate's `sdata` as a form field. Boxberry refuses with HTTP 200 and `{ err }` (or
// `[{ err }]`), so every answer is read for that first. Cities (ListCities) are matched to the shop's by
// name; points come from ListPoints with postamats; a point's price and days from DeliveryCosts to that
// point; a parcel is made by ParselCreate (the shop's order number as order_id, unique at Boxberry), its
// label found by ParselCheck, its statuses read by ListStatuses — Boxberry pushes nothing, the shop polls.
import { z } from '~/lib/zod.ts';
import { CarrierRefused, CarrierUnavailable, SHIPPING_TIMEOUT_MS, type CarrierStatus } from './carrier.server.ts';
import type { CarrierCity, Parcel, PickupPoint } from './delivery.ts';

export interface BoxberryConfig {
  /** `https://api.boxberry.ru/json.php` (or a stand-in's). */
  url: string;
  token: string;
  timeoutMs: number;
}

const citySchema = z.object({ Code: z.string(), Name: z.string(), Region: z.string().default('') });
const pointSchema = z.object({
  Code: z.string().min(1).max(50),
  Name: z.string().max(300).default(''),
  Address: z.string(),
  WorkShedule: z.string().optional(),
  WorkSchedule: z.string().optional(),
  TripDescription: z.string().default(''),
  GPS: z.string().regex(/^-?\d+(\.\d+)?,\s*-?\d+(\.\d+)?$/),
  Metro: z.string().default(''),
  Postamat: z.union([z.boolean(), z.string()]).default(false),
  Acquiring: z.string().default('No'),
  // "Yes": the point hands out only parcels paid in advance.
  OnlyPrepaidOrders: z.string().default('Yes'),
  LoadLimit: z.union([z.number(), z.string()]).optional(),
});
const costSchema = z.object({ price: z.coerce.number().nonnegative(), delivery_period: z.coerce.number().int().min(0) });
const createdSchema = z.object({ track: z.string().min(1).max(50), label: z.string().optional() });
const statusSchema = z.object({ Date: z.string(), Name: z.string(), Comment: z.string().optional() });

/** Boxberry's refusal text, if the answer is one. */
function refusal(body: unknown): string | undefined {
  const first = Array.isArray(body) ? body[0] : body;
  if (!first || typeof first !== 'object') return undefined;
  const record = first as Record<string, unknown>;
  if (typeof record['err'] === 'string' && record['err']) return record['err'];
  if ((record['err'] === true || record['error'] === true) && typeof record['message'] === 'string') return record['message'];
  return undefined;
}

export interface BoxberryClient {
  cities(): Promise<CarrierCity[]>;
  pickupPoints(cityCode: number): Promise<PickupPoint[]>;
  /** The price (kopecks) and working days to a point for a parcel. */
  cost(target: string, parcel: Parcel, declared: number): Promise<{ price: number; days: number }>;
  createParcel(sdata: Record<string, unknown>): Promise<{ track: string; label: string | undefined }>;
  /** The label's address (ParselCheck by the track). */
  labelUrl(track: string): Promise<string>;
  download(url: string): Promise<Uint8Array<ArrayBuffer>>;
  /** The parcel's statuses, oldest first (by the track or the shop's order number). */
  statuses(id: string): Promise<CarrierStatus[]>;
  /** A point by its code (PointsDescription): its name and address, or undefined when Boxberry has none. */
  pointNamed(code: string): Promise<{ name: string; address: string } | undefined>;
  /** Recalls a parcel by the shop's order number (CancelOrder, cancelType 2: «отозвать», it comes back). */
  recall(orderId: string): Promise<void>;
}

export function boxberryClient(config: BoxberryConfig, fetchImpl: typeof fetch = fetch): BoxberryClient {
  async function send(url: URL, init: RequestInit, timeoutMs: number): Promise<Response> {
    try {
      return await fetchImpl(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    } catch (error) {
      const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
      throw new CarrierUnavailable(timedOut ? `Boxberry did not answer within ${timeoutMs} ms` : `Boxberry could not be reached (${(error as Error).message})`);
    }
  }

  async function call(
    method: string,
    params: Record<string, string | number> = {},
    options: { form?: Record<string, string>; timeoutMs?: number } = {},
  ): Promise<unknown> {
    const url = new URL(config.url);
    url.searchParams.set('token', config.token);
    url.searchParams.set('method', method);
    for (const [k, v] of Object.entries(params)) url.searchParams.set(k, String(v));
    const init: RequestInit = options.form
      ? { method: 'POST', body: new URLSearchParams({ token: config.token, method, ...options.form }), headers: { accept: 'application/json' } }
      : { headers: { accept: 'application/json' } };
    if (options.form) url.search = '';
    const res = await send(url, init, options.timeoutMs ?? config.timeoutMs);
    if (res.status >= 500 || res.status === 429) throw new CarrierUnavailable(`Boxberry answered ${res.status} to ${method}`, res.status);
    const body: unknown = await res.json().catch(() => undefined);
    if (body === undefined) throw new CarrierUnavailable(`Boxberry answered ${method} with something else`);
    const refused = refusal(body);
    // The refusal's text names no shopper: Boxberry's own words about a field or a code.
    if (refused || !res.ok)
      throw new CarrierRefused(`Boxberry refused ${method}: ${refused ?? res.status}`, res.ok ? 400 : res.status, [refused ?? String(res.status)]);
    return body;
  }

  return {
    async pointNamed(code) {
      try {
        const answer = z
          .object({ Name: z.string().default(''), Address: z.string().default('') })
          .safeParse(await call('PointsDescription', { code, photo: 0 }));
        if (!answer.success) throw new CarrierUnavailable('Boxberry answered the point with something else');
        return { name: answer.data.Name, address: answer.data.Address };
      } catch (error) {
        // Boxberry refuses an unknown code in its own words ("Пункт выдачи не найден"): no such point.
        if (error instanceof CarrierRefused) return undefined;
        throw error;
      }
    },

    async recall(orderId) {
      await call('CancelOrder', { orderid: orderId, cancelType: 2 }, { timeoutMs: SHIPPING_TIMEOUT_MS });
    },

    async cities() {
      const answer = await call('ListCities', { CountryCode: 643 });
      if (!Array.isArray(answer)) throw new CarrierUnavailable('Boxberry answered the cities with something else');
      const cities: CarrierCity[] = [];
      for (const row of answer) {
        const c = citySchema.safeParse(row);
        if (c.success && /^\d{1,9}$/.test(c.data.Code)) cities.push({ code: Number(c.data.Code), name: c.data.Name });
      }
      return cities;
    },

    async pickupPoints(cityCode) {
      const answer = await call('ListPoints', { CityCode: cityCode, prepaid: 1, is_include_postamat: 1 });
      if (!Array.isArray(answer)) throw new CarrierUnavailable('Boxberry answered the points with something else');
      const points: PickupPoint[] = [];
      for (const row of answer) {
        const parsed = pointSchema.safeParse(row);
        if (!parsed.success) continue;
        const p = parsed.data;
        const [latitude = 0, longitude = 0] = p.GPS.split(',').map(Number);
        const load = Number(p.LoadLimit);
        points.push({
          carrier: 'boxberry',
          code: p.Code,
          name: p.Name || p.Address,
          kind: p.Postamat === true || p.Postamat === 'true' || p.Postamat === '1' ? 'postamat' : 'office',
          cityCode,
          address: p.Address,
          ...(p.TripDescription ? { howToFind: p.TripDescription } : {}),
          ...(p.Metro ? { metro: p.Metro } : {}),
          hours: p.WorkShedule ?? p.WorkSchedule ?? '',
          latitude,
          longitude,
          // ListPoints does not say whether a point has a fitting room (PointsDescription does, one point a call).
          fittingRoom: false,
          card: p.Acquiring === 'Yes',
          cod: p.OnlyPrepaidOrders === 'No',
          ...(load > 0 ? { maxWeight: load * 1000 } : {}),
        });
      }
      return points;
    },

    async cost(target, parcel, declared) {
      const parsed = costSchema.safeParse(
        await call('DeliveryCosts', {
          weight: parcel.weight,
          target,
          ordersum: Math.round(declared / 100),
          paysum: 0,
          height: parcel.height,
          width: parcel.width,
          depth: parcel.length,
        }),
      );
      if (!parsed.success) throw new CarrierUnavailable('Boxberry answered the cost with something else');
      return { price: Math.round(parsed.data.price * 100), days: parsed.data.delivery_period };
    },

    async createParcel(sdata) {
      const parsed = createdSchema.safeParse(await call('ParselCreate', {}, { form: { sdata: JSON.stringify(sdata) }, timeoutMs: SHIPPING_TIMEOUT_MS }));
      if (!parsed.success) throw new CarrierUnavailable('Boxberry answered the parcel with something else');
      return { track: parsed.data.track, label: parsed.data.label };
    },

    async labelUrl(track) {
      const parsed = z.object({ label: z.string().min(1) }).safeParse(await call('ParselCheck', { ImId: track }, { timeoutMs: SHIPPING_TIMEOUT_MS }));
      if (!parsed.success) throw new CarrierUnavailable('Boxberry answered the label with something else');
      return parsed.data.label;
    },

    async download(url) {
      // Only from Boxberry's own host: the address came in an answer, and it carries the token.
      if (new URL(url).origin !== new URL(config.url).origin) throw new CarrierUnavailable('Boxberry gave a label address on another host');
      const res = await send(new URL(url), {}, SHIPPING_TIMEOUT_MS);
      if (!res.ok) throw new CarrierUnavailable(`Boxberry answered ${res.status} to the label`, res.status);
      const bytes = await res.arrayBuffer();
      if (bytes.byteLength === 0) throw new CarrierUnavailable('Boxberry sent no label');
      return new Uint8Array(bytes);
    },

    async statuses(id) {
      const answer = await call('ListStatuses', { ImId: id }, { timeoutMs: SHIPPING_TIMEOUT_MS });
      if (!Array.isArray(answer)) throw new CarrierUnavailable('Boxberry answered the statuses with something else');
      const statuses: CarrierStatus[] = [];
      for (const row of answer) {
        const s = statusSchema.safeParse(row);
        if (!s.success) continue;
        // "2020-12-26 12:23:26" (Moscow time) or "2019-05-01T00:56:12".
        const at = new Date(`${s.data.Date.replace(' ', 'T')}+03:00`);
        if (Number.isNaN(at.getTime())) continue;
        statuses.push({ code: s.data.Name, name: s.data.Name, at: at.toISOString(), city: '' });
      }
      return statuses;
    },
  };
}
