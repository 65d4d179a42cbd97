// A local stand-in for CDEK's integration API v2, answering as its documentation and recorded answers of
// its test host describe (docs/research/cdek-api-v2.md): an OAuth client-credentials token (parameters in
// the query string or a form body, `expires_in` 3599), Bearer auth on every call, bare JSON arrays for
// cities and pickup points with optional keys left out, `{ tariff_codes: [...] }` from the calculator,
// `{ errors: [{ code, message }] }` on a refusal. Its modes: slow answers, 500s, 429s and expired tokens,
// so tests see what the shop does when the carrier misbehaves. Holds a few real cities with their codes.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';

export interface StandinCity {
  code: number;
  city: string;
  region: string;
  latitude: number;
  longitude: number;
}

export const CDEK_CITIES: readonly StandinCity[] = [
  { code: 44, city: 'Москва', region: 'Москва', latitude: 55.753215, longitude: 37.622504 },
  { code: 137, city: 'Санкт-Петербург', region: 'Санкт-Петербург', latitude: 59.939099, longitude: 30.315877 },
  { code: 270, city: 'Новосибирск', region: 'Новосибирская область', latitude: 55.030199, longitude: 82.92043 },
  { code: 424, city: 'Казань', region: 'Республика Татарстан', latitude: 55.796127, longitude: 49.106414 },
  { code: 94, city: 'Владимир', region: 'Владимирская область', latitude: 56.129057, longitude: 40.406635 },
  { code: 1081, city: 'Владивосток', region: 'Приморский край', latitude: 43.115536, longitude: 131.885485 },
];

const STREETS = ['ул. Тверская', 'Ленинский пр-т', 'ул. Мира', 'ул. Садовая', 'пр-т Победы', 'ул. Пушкина', 'Невский пр-т'];
const METRO = ['Пушкинская', 'Октябрьская', 'Проспект Мира', 'Садовая', 'Парк Победы', 'Чеховская'];

/** Pickup points of a city, made the same way every time: offices (some with a fitting room) and postamats. */
export function standinPoints(city: StandinCity): Record<string, unknown>[] {
  const prefix = city.city === 'Москва' ? 'MSK' : city.city === 'Санкт-Петербург' ? 'SPB' : `C${city.code}-`;
  const subway = city.code === 44 || city.code === 137;
  return Array.from({ length: 7 }, (_, k) => {
    const postamat = k >= 5;
    const street = STREETS[k % STREETS.length] as string;
    const code = `${prefix}${postamat ? 'P' : ''}${k + 1}`;
    const point: Record<string, unknown> = {
      code,
      name: `${code}, ${city.city}, ${street}`,
      uuid: randomUUID(),
      work_time: postamat ? 'Пн-Вс 00:00-23:59' : k % 2 ? 'Пн-Пт 10:00-20:00, Сб 10:00-16:00' : 'Пн-Вс 09:00-21:00',
      work_time_list: postamat ? [{ day: 1, time: '00:00/23:59' }] : [{ day: 1, time: '10:00/20:00' }],
      phones: [{ number: '+78002501405' }],
      type: postamat ? 'POSTAMAT' : 'PVZ',
      owner_code: 'CDEK',
      take_only: false,
      is_handout: true,
      is_reception: !postamat,
      is_dressing_room: !postamat && k % 2 === 0,
      is_ltl: false,
      have_cashless: !postamat || k === 6,
      have_cash: !postamat,
      allowed_cod: !postamat,
      weight_min: 0,
      weight_max: postamat ? 20 : 50,
      location: {
        country_code: 'RU',
        city_code: city.code,
        city: city.city,
        region: city.region,
        postal_code: String(100000 + city.code * 10 + k),
        longitude: Number((city.longitude + k * 0.01).toFixed(6)),
        latitude: Number((city.latitude - k * 0.007).toFixed(6)),
        address: `${street}, ${10 + k * 3}`,
        address_full: `${city.city}, ${street}, ${10 + k * 3}`,
      },
      fulfillment: false,
    };
    // Optional keys are left out, not null, as CDEK sends them.
    if (k % 3 === 0) point['address_comment'] = 'Вход со двора, второй подъезд';
    if (subway) point['nearest_metro_station'] = `м. ${METRO[k % METRO.length]}`;
    if (postamat) point['dimensions'] = [{ width: 40, height: 40, depth: 60 }];
    return point;
  });
}

/** Tariffs CDEK's calculator offers an online shop (code, name, delivery_mode, price factor, days factor). */
const TARIFFS: readonly [number, string, number, number, number][] = [
  [136, 'Посылка склад-склад', 4, 1, 1],
  [137, 'Посылка склад-дверь', 3, 1.45, 1],
  [368, 'Посылка склад-постамат', 7, 0.95, 1],
  [234, 'Экономичная посылка склад-склад', 4, 0.8, 1.8],
  [233, 'Экономичная посылка склад-дверь', 3, 1.2, 1.8],
  [483, 'Экспресс склад-склад', 4, 1.9, 0.5],
  // Starts at the sender's door: the shop hands parcels over at an office, so it must not offer these.
  [139, 'Посылка дверь-дверь', 1, 1.2, 1],
  [138, 'Посылка дверь-склад', 2, 0.7, 1],
];

function distanceKm(a: StandinCity, b: StandinCity): number {
  const rad = Math.PI / 180;
  const h =
    Math.sin(((b.latitude - a.latitude) * rad) / 2) ** 2 +
    Math.cos(a.latitude * rad) * Math.cos(b.latitude * rad) * Math.sin(((b.longitude - a.longitude) * rad) / 2) ** 2;
  return 2 * 6371 * Math.asin(Math.sqrt(h));
}

export interface StandinCall {
  method: string;
  path: string;
  query: Record<string, string>;
  body: unknown;
}

export interface CdekStandin {
  url: string;
  /** Every call but the token's, in order. */
  calls: StandinCall[];
  tokensIssued: number;
  /** Answers every call `ms` late. */
  slow(ms: number): void;
  /** The next `n` calls answer 500. */
  failNext(n: number): void;
  /** The next `n` calls answer 429, as a rate limit does. */
  rateLimitNext(n: number): void;
  /** The tokens issued so far stop working (a 401), as when they expire. */
  expireTokens(): void;
  close(): Promise<void>;
}

export async function startCdekStandin(clientId: string, clientSecret: string): Promise<CdekStandin> {
  const tokens = new Set<string>();
  const calls: StandinCall[] = [];
  const state = { slowMs: 0, fail: 0, limit: 0, tokensIssued: 0 };

  const json = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json;charset=UTF-8' });
    res.end(JSON.stringify(body));
  };
  const refuse = (res: ServerResponse, status: number, code: string, message: string) => json(res, status, { errors: [{ code, message }] });

  const readBody = (req: IncomingMessage) =>
    new Promise<string>((resolve, reject) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
      req.on('error', reject);
    });

  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://standin');
    const text = await readBody(req);
    if (state.slowMs) await new Promise((r) => setTimeout(r, state.slowMs));
    if (res.destroyed) return;
    if (state.fail > 0) {
      state.fail--;
      return json(res, 500, { errors: [{ code: 'v2_internal_error', message: 'Internal server error' }] });
    }
    if (state.limit > 0) {
      state.limit--;
      return json(res, 429, { errors: [{ code: 'v2_too_many_requests', message: 'Too many requests' }] });
    }
    const path = url.pathname.replace(/^\/v2/, '');

    if (path === '/oauth/token' && req.method === 'POST') {
      // The parameters in the query string or a form body: clients do both.
      const form = new URLSearchParams(text);
      const param = (name: string) => url.searchParams.get(name) ?? form.get(name);
      if (param('grant_type') !== 'client_credentials' || param('client_id') !== clientId || param('client_secret') !== clientSecret)
        return json(res, 401, { error: 'invalid_client', error_description: 'No such account secure' });
      const token = `standin.${randomUUID()}`;
      tokens.add(token);
      state.tokensIssued++;
      return json(res, 200, { access_token: token, token_type: 'bearer', expires_in: 3599, scope: 'location:all order:all payment:all', jti: randomUUID() });
    }

    const auth = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    if (!auth || !tokens.has(auth)) return refuse(res, 401, 'v2_token_expired', 'Token is expired or invalid');
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      return refuse(res, 400, 'v2_bad_request', 'Malformed JSON');
    }
    calls.push({ method: req.method ?? '', path, query: Object.fromEntries(url.searchParams), body });

    if (path === '/location/suggest/cities' && req.method === 'GET') {
      const name = (url.searchParams.get('name') ?? '').toLowerCase();
      if (!name) return refuse(res, 400, 'v2_field_is_empty', 'name is empty');
      return json(
        res,
        200,
        CDEK_CITIES.filter((c) => c.city.toLowerCase().startsWith(name)).map((c) => ({
          city_uuid: randomUUID(),
          code: c.code,
          full_name: c.city === c.region ? `${c.city}, Россия` : `${c.city}, ${c.region}, Россия`,
          country_code: 'RU',
        })),
      );
    }
    if (path === '/location/cities' && req.method === 'GET') {
      const code = url.searchParams.get('code');
      const city = url.searchParams.get('city')?.toLowerCase();
      return json(
        res,
        200,
        CDEK_CITIES.filter((c) => (!code || String(c.code) === code) && (!city || c.city.toLowerCase() === city)).map((c) => ({
          code: c.code,
          city: c.city,
          country_code: 'RU',
          country: 'Россия',
          region: c.region,
          longitude: c.longitude,
          latitude: c.latitude,
          time_zone: 'Europe/Moscow',
          payment_limit: -1,
        })),
      );
    }
    if (path === '/deliverypoints' && req.method === 'GET') {
      const city = CDEK_CITIES.find((c) => String(c.code) === url.searchParams.get('city_code'));
      if (!city) return json(res, 200, []);
      const type = url.searchParams.get('type') ?? 'ALL';
      return json(
        res,
        200,
        standinPoints(city).filter((p) => type === 'ALL' || p['type'] === type),
      );
    }
    if (path === '/calculator/tarifflist' && req.method === 'POST') {
      const request = body as { from_location?: { code?: number }; to_location?: { code?: number }; packages?: { weight?: number }[] } | undefined;
      const from = CDEK_CITIES.find((c) => c.code === request?.from_location?.code);
      const to = CDEK_CITIES.find((c) => c.code === request?.to_location?.code);
      if (!from) return refuse(res, 400, 'v2_sender_location_not_recognized', 'Sender location is not recognized');
      if (!to) return refuse(res, 400, 'v2_recipient_location_not_recognized', 'Recipient location is not recognized');
      const packages = request?.packages ?? [];
      if (!packages.length || packages.some((p) => !p.weight || p.weight <= 0)) return refuse(res, 400, 'v2_field_is_empty', 'packages[].weight is empty');
      const kg = packages.reduce((sum, p) => sum + (p.weight ?? 0), 0) / 1000;
      const km = distanceKm(from, to);
      const baseDays = km < 50 ? 1 : km < 800 ? 2 : km < 3000 ? 4 : 7;
      return json(res, 200, {
        tariff_codes: TARIFFS.map(([code, name, mode, priceFactor, daysFactor]) => {
          const periodMin = Math.max(1, Math.round(baseDays * daysFactor));
          return {
            tariff_code: code,
            tariff_name: name,
            tariff_description: '',
            delivery_mode: mode,
            delivery_sum: Math.round((250 + km * 0.12 + kg * 45) * priceFactor * 100) / 100,
            period_min: periodMin,
            period_max: periodMin + 2,
            calendar_min: periodMin,
            calendar_max: periodMin + 3,
          };
        }),
      });
    }
    return refuse(res, 404, 'v2_entity_not_found', `No such method: ${req.method} ${url.pathname}`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/v2`,
    calls,
    get tokensIssued() {
      return state.tokensIssued;
    },
    slow: (ms) => (state.slowMs = ms),
    failNext: (n) => (state.fail = n),
    rateLimitNext: (n) => (state.limit = n),
    expireTokens: () => tokens.clear(),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
