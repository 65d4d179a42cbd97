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
      // Cash on delivery: not at the fourth office; at a postamat by card only (CDEK's docs), not at the first.
      allowed_cod: postamat ? k === 6 : k !== 3,
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

/** The statuses the stand-in's depots set, with CDEK's names and legacy numbers. */
export const STANDIN_STATUSES = {
  ACCEPTED: ['Принят', 0],
  CREATED: ['Создан', 1],
  RECEIVED_AT_SHIPMENT_WAREHOUSE: ['Принят на склад отправителя', 3],
  SENT_TO_RECIPIENT_CITY: ['Отправлен в г. получатель', 8],
  ACCEPTED_AT_RECIPIENT_CITY_WAREHOUSE: ['Принят на склад доставки', 10],
  TAKEN_BY_COURIER: ['Выдан на доставку', 11],
  ACCEPTED_AT_PICK_UP_POINT: ['Принят на склад до востребования', 12],
  DELIVERED: ['Вручен', 4],
  NOT_DELIVERED: ['Не вручен', 5],
} as const;
export type StandinStatusCode = keyof typeof STANDIN_STATUSES;

export interface StandinOrder {
  uuid: string;
  number: string;
  cdekNumber: string;
  body: Record<string, unknown>;
  /** Refused after acceptance (CDEK's INVALID), with the codes why. */
  invalid: string[] | undefined;
  /** Oldest first. */
  statuses: { code: StandinStatusCode; date_time: string; city: string }[];
  /** Once delivered: each position's units handed over (by ware_key; absent: all) and how it was paid. */
  handed?: { kept: Record<string, number>; paidBy: 'CASH' | 'CARD' };
}

/** How a delivery paid at the door went (docs/research/cash-on-delivery.md §4): units kept by ware_key (absent: all), and how the buyer paid. */
export interface StandinHandOver {
  kept?: Record<string, number>;
  paidBy?: 'CASH' | 'CARD';
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
  /** The next `n` calls are carried out but answered 500, as when an answer is lost on the way back. */
  loseNextAnswer(n: number): void;
  /** New orders are received at the sender's office at once (RECEIVED_AT_SHIPMENT_WAREHOUSE), as a depot that scans them in. */
  depotAcceptsAtOnce(on: boolean): void;
  /** The orders registered with it, by uuid. */
  orders: Map<string, StandinOrder>;
  /** The webhook subscriptions (POST /webhooks), by uuid. */
  webhooks: Map<string, { uuid: string; type: string; url: string }>;
  /** The courier pickups asked of it. */
  intakes: Record<string, unknown>[];
  /** The client returns (POST /orders/{uuid}/clientReturn) made, with their bodies. */
  clientReturns: { uuid: string; body: unknown }[];
  /** The orders the shop refused (POST /orders/{uuid}/refusal). */
  refusals: string[];
  /**
   * The carrier moves an order (by the shop's number) to a status, as its depots do; the ORDER_STATUS webhook
   * body it would send. DELIVERED may say what the buyer kept and how they paid (a partial buy-out).
   */
  advance(number: string, code: StandinStatusCode, handOver?: StandinHandOver): Record<string, unknown>;
  /**
   * CDEK pays the shop an order's money taken at the door in a register on a day (YYYY-MM-DD), keeping its
   * agency fee (the share given): the register GET /registries?date= lists from then on.
   */
  transfer(number: string, date: string, registry: number, feeShare?: number): void;
  close(): Promise<void>;
}

export async function startCdekStandin(clientId: string, clientSecret: string): Promise<CdekStandin> {
  const tokens = new Set<string>();
  const calls: StandinCall[] = [];
  const state = { slowMs: 0, fail: 0, limit: 0, lose: 0, acceptAtOnce: false, tokensIssued: 0, cdekNumber: 1_107_000_000 };
  const orders = new Map<string, StandinOrder>();
  const webhooks = new Map<string, { uuid: string; type: string; url: string }>();
  const prints = new Map<string, { orders: string[]; asked: number }>();
  const intakes: Record<string, unknown>[] = [];
  const clientReturns: { uuid: string; body: unknown }[] = [];
  const refusals: string[] = [];
  const registries = new Map<string, Map<number, { cdek_number: string; payment_sum: number; agent_commission_sum: number; transfer_sum: number }[]>>();
  let base = '';
  const now = () => new Date().toISOString().replace(/\.\d+Z$/, '+0000');
  const accepted = (res: ServerResponse, uuid: string, type = 'CREATE') =>
    json(res, 202, { entity: { uuid }, requests: [{ request_uuid: randomUUID(), type, date_time: now(), state: 'ACCEPTED' }], related_entities: [] });
  const notFound = (res: ServerResponse, what: string) =>
    json(res, 400, {
      requests: [
        {
          type: 'GET',
          state: 'INVALID',
          date_time: now(),
          errors: [{ code: 'v2_entity_not_found', additional_code: '0x7B234F39', message: `Entity is not found by uuid ${what}` }],
        },
      ],
      related_entities: [],
    });
  /**
   * An order's packages and delivery_detail as CDEK answers them: before handing over, the detail without
   * payment_sum; after, each item's delivery_amount and the money taken (net of what was refused).
   */
  const handedView = (o: StandinOrder) => {
    type Item = { ware_key: string; amount: number; payment?: { value?: number } };
    const packages = (o.body['packages'] ?? []) as { items?: Item[] }[];
    const recipientCost = Number((o.body['delivery_recipient_cost'] as { value?: number } | undefined)?.value ?? 0);
    if (!o.handed) return { packages, delivery_detail: { delivery_sum: 350, total_sum: 350, payment_info: [] } };
    const kept = o.handed.kept;
    const items = (p: { items?: Item[] }) => (p.items ?? []).map((i) => ({ ...i, delivery_amount: kept[i.ware_key] ?? i.amount }));
    const handed = packages.map((p) => ({ ...p, items: items(p) }));
    const goods = handed.flatMap((p) => p.items).reduce((s, i) => s + Math.round(Number(i.payment?.value ?? 0) * 100) * i.delivery_amount, 0);
    const taken = handed.flatMap((p) => p.items).some((i) => i.delivery_amount > 0);
    const sum = (goods + (taken ? Math.round(recipientCost * 100) : 0)) / 100;
    return {
      packages: handed,
      delivery_detail: {
        date: new Date().toISOString().slice(0, 10),
        recipient_name: (o.body['recipient'] as { name?: string } | undefined)?.name ?? '',
        payment_sum: sum,
        delivery_sum: 350,
        total_sum: 350,
        payment_info: sum > 0 ? [{ type: o.handed.paidBy, sum }] : [],
      },
    };
  };
  const orderView = (o: StandinOrder) => ({
    entity: {
      uuid: o.uuid,
      type: 1,
      is_return: false,
      is_reverse: false,
      number: o.number,
      tariff_code: o.body['tariff_code'],
      ...(o.invalid ? {} : { cdek_number: o.cdekNumber }),
      recipient: o.body['recipient'],
      ...handedView(o),
      // CDEK lists the newest first.
      statuses: [...o.statuses]
        .reverse()
        .map((st) => ({ code: st.code, name: STANDIN_STATUSES[st.code][0], date_time: st.date_time, city: st.city, deleted: false })),
    },
    requests: [
      {
        request_uuid: randomUUID(),
        type: 'CREATE',
        date_time: o.statuses[0]?.date_time ?? now(),
        state: o.invalid ? 'INVALID' : 'SUCCESSFUL',
        ...(o.invalid ? { errors: o.invalid.map((code) => ({ code, message: 'Введённый номер отправления ИМ не уникальный' })) } : {}),
      },
    ],
    related_entities: [],
  });

  const json = (res: ServerResponse, status: number, body: unknown) => {
    // A lost answer: the work is done, the caller hears a failure.
    if (state.lose > 0 && status < 300 && !res.req.url?.includes('/oauth/')) {
      state.lose--;
      res.writeHead(500, { 'content-type': 'application/json;charset=UTF-8' });
      res.end(JSON.stringify({ errors: [{ code: 'v2_internal_error', message: 'Internal server error' }] }));
      return;
    }
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
    if (path === '/deliverypoints' && req.method === 'GET' && url.searchParams.has('code')) {
      // One point by its code, wherever it is (the shop checks its sender point so): a list, empty when none.
      const code = url.searchParams.get('code');
      return json(
        res,
        200,
        CDEK_CITIES.flatMap((c) => standinPoints(c)).filter((p) => p['code'] === code),
      );
    }
    // Webhooks (api-docs.cdek.ru/33828888.html): a subscription per type; a second of the same type replaces
    // the first's url. A create answers 202 with the entity's uuid in CDEK's asynchronous envelope.
    if (path === '/webhooks' && req.method === 'GET') return json(res, 200, [...webhooks.values()]);
    if (path === '/webhooks' && req.method === 'POST') {
      const request = body as { url?: unknown; type?: unknown } | undefined;
      if (typeof request?.url !== 'string' || !/^https?:\/\//.test(request.url)) return refuse(res, 400, 'v2_field_is_empty', 'url is empty');
      if (typeof request.type !== 'string') return refuse(res, 400, 'v2_field_is_empty', 'type is empty');
      const existing = [...webhooks.values()].find((w) => w.type === request.type);
      const uuid = existing?.uuid ?? randomUUID();
      webhooks.set(uuid, { uuid, type: request.type, url: request.url });
      return json(res, 202, {
        entity: { uuid },
        requests: [{ request_uuid: randomUUID(), type: 'CREATE', date_time: new Date().toISOString(), state: 'ACCEPTED' }],
      });
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
    if (path === '/orders' && req.method === 'POST') {
      const order = (body ?? {}) as Record<string, unknown>;
      const recipient = order['recipient'] as { name?: string; phones?: { number?: string }[] } | undefined;
      const packages = order['packages'] as { number?: string; weight?: number; items?: unknown[] }[] | undefined;
      if (!order['tariff_code']) return refuse(res, 400, 'v2_order_tariff_code_is_empty', 'tariff_code is empty');
      if (!recipient?.name || !recipient.phones?.[0]?.number) return refuse(res, 400, 'order_recipient_is_empty', 'recipient is empty');
      if (!packages?.length || packages.some((p) => !p.number || !p.weight)) return refuse(res, 400, 'order_packages_is_empty', 'packages is empty');
      // A marked good goes one unit per position, its code in `marking` (CDEK refuses a marked position of several).
      const positions = packages.flatMap((p) => (p.items ?? []) as { marking?: unknown; amount?: number }[]);
      if (positions.some((i) => i.marking !== undefined && (typeof i.marking !== 'string' || !i.marking || i.amount !== 1)))
        return refuse(res, 400, 'v2_item_marking_invalid', 'a marked item must have amount 1 and its code');
      if (order['delivery_point'] && order['to_location']) return refuse(res, 400, 'v2_delivery_address_multivalued', 'delivery_point and to_location');
      if (!order['delivery_point'] && !order['to_location']) return refuse(res, 400, 'delivery_location_is_not_recognized', 'no delivery location');
      if (!order['shipment_point'] && !order['from_location']) return refuse(res, 400, 'shipment_location_is_not_recognized', 'no shipment location');
      const number = String(order['number'] ?? '');
      if (number.length > 40 || !/^[\x20-\x7e]*$/.test(number)) return refuse(res, 400, 'v2_invalid_format', 'number');
      const uuid = randomUUID();
      // A second order under a number already taken is accepted, then found INVALID, as CDEK does.
      const taken = [...orders.values()].some((o) => o.number === number && !o.invalid);
      orders.set(uuid, {
        uuid,
        number,
        cdekNumber: String(++state.cdekNumber),
        body: order,
        invalid: taken ? ['error_validate_im_dep_number_has_already_had_integration'] : undefined,
        statuses: [
          { code: 'ACCEPTED', date_time: now(), city: 'Офис СДЭК' },
          ...(taken ? [] : [{ code: 'CREATED' as const, date_time: now(), city: 'Офис СДЭК' }]),
          ...(!taken && state.acceptAtOnce ? [{ code: 'RECEIVED_AT_SHIPMENT_WAREHOUSE' as const, date_time: now(), city: 'Москва' }] : []),
        ],
      });
      return accepted(res, uuid);
    }
    if (path === '/orders' && req.method === 'GET') {
      const number = url.searchParams.get('im_number');
      const found = [...orders.values()].filter((o) => o.number === number && !o.invalid).at(-1);
      if (!found)
        return json(res, 400, {
          requests: [
            {
              type: 'GET',
              state: 'INVALID',
              date_time: now(),
              errors: [{ code: 'v2_entity_not_found_im_number', message: `Entity is not found by im_number ${number}` }],
            },
          ],
          related_entities: [],
        });
      return json(res, 200, orderView(found));
    }
    // The registers of money taken at the door paid to the shop on a day (docs/research/cash-on-delivery.md §6).
    if (path === '/registries' && req.method === 'GET') {
      const date = url.searchParams.get('date') ?? '';
      if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) return refuse(res, 400, 'v2_field_is_empty', 'date');
      const day = registries.get(date) ?? new Map<number, { cdek_number: string; payment_sum: number; agent_commission_sum: number; transfer_sum: number }[]>();
      return json(res, 200, {
        registries: [...day.entries()].map(([number, orders]) => ({
          registry_number: number,
          payment_date: date,
          sum: Math.round(orders.reduce((s, o) => s + o.transfer_sum * 100, 0)) / 100,
          payment_order_number: String(number * 10),
          orders,
        })),
      });
    }
    // The receipts CDEK's register issued for money it took at the door (docs/research/cash-on-delivery.md §5).
    if (path === '/check' && req.method === 'GET') {
      const uuid = url.searchParams.get('order_uuid') ?? '';
      const found = orders.get(uuid);
      if (!found) return notFound(res, uuid);
      const detail = handedView(found).delivery_detail as { payment_sum?: number; payment_info: { type: string; sum: number }[] };
      if (!detail.payment_sum) return json(res, 200, { check_info: [] });
      return json(res, 200, {
        check_info: [
          {
            order_uuid: uuid,
            cdek_number: Number(found.cdekNumber),
            date: now(),
            fiscal_storage_number: '9960440300000001',
            document_number: String(10_000 + [...orders.keys()].indexOf(uuid)),
            fiscal_sign: 3_512_345_678,
            type: 'CASH_RECEIPT_IN',
            payment_info: detail.payment_info,
          },
        ],
      });
    }
    // A delivered order's client return, and the shop's refusal before handing over (research §7). The
    // codes refusing them in the wrong state are not published: these name what is wrong.
    const actionPath = /^\/orders\/([\w-]+)\/(clientReturn|refusal)$/.exec(path);
    if (actionPath && req.method === 'POST') {
      const [, uuid = '', action] = actionPath;
      const found = orders.get(uuid);
      if (!found) return notFound(res, uuid);
      const last = found.statuses.at(-1)?.code;
      if (action === 'clientReturn') {
        if (last !== 'DELIVERED') return refuse(res, 400, 'v2_order_not_delivered', 'a client return needs a delivered order');
        if (typeof (body as { tariff_code?: unknown } | undefined)?.tariff_code !== 'number') return refuse(res, 400, 'v2_field_is_empty', 'tariff_code');
        clientReturns.push({ uuid, body });
        return accepted(res, uuid, 'CREATE_CLIENT_RETURN');
      }
      if (last === 'DELIVERED' || last === 'NOT_DELIVERED') return refuse(res, 400, 'v2_order_status_final', 'the order is already handed over or returned');
      refusals.push(uuid);
      // It becomes NOT_DELIVERED (reason 11: refused without a reason).
      found.statuses.push({ code: 'NOT_DELIVERED', date_time: now(), city: 'Санкт-Петербург' });
      return accepted(res, uuid, 'CREATE_REFUSAL');
    }
    const orderPath = /^\/orders\/([\w-]+)$/.exec(path);
    if (orderPath && req.method === 'GET') {
      const found = orders.get(orderPath[1] ?? '');
      return found ? json(res, 200, orderView(found)) : notFound(res, orderPath[1] ?? '');
    }
    if (path === '/print/orders' && req.method === 'POST') {
      const wanted = ((body as { orders?: { order_uuid?: string }[] } | undefined)?.orders ?? []).map((o) => o.order_uuid ?? '');
      if (wanted.length === 0 || wanted.length > 100) return refuse(res, 400, 'v2_field_is_empty', 'orders');
      if (wanted.some((uuid) => !orders.has(uuid))) return refuse(res, 400, 'v2_entity_not_found', 'order');
      const uuid = randomUUID();
      prints.set(uuid, { orders: wanted, asked: 0 });
      return accepted(res, uuid);
    }
    const pdfPath = /^\/print\/orders\/([\w-]+)\.pdf$/.exec(path);
    if (pdfPath && req.method === 'GET') {
      const job = prints.get(pdfPath[1] ?? '');
      if (!job || job.asked < 2) return notFound(res, pdfPath[1] ?? '');
      const numbers = job.orders.map((uuid) => orders.get(uuid)?.cdekNumber ?? '').join(', ');
      res.writeHead(200, { 'content-type': 'application/pdf' });
      return res.end(minimalPdf(`CDEK waybill ${numbers}`));
    }
    const printPath = /^\/print\/orders\/([\w-]+)$/.exec(path);
    if (printPath && req.method === 'GET') {
      const uuid = printPath[1] ?? '';
      const job = prints.get(uuid);
      if (!job) return notFound(res, uuid);
      // Made on the second look, as CDEK's forms take a moment.
      job.asked++;
      const ready = job.asked >= 2;
      return json(res, 200, {
        entity: {
          uuid,
          orders: job.orders.map((order_uuid) => ({ order_uuid })),
          copy_count: 2,
          type: 'tpl_russia',
          ...(ready ? { url: `${base}/print/orders/${uuid}.pdf` } : {}),
          statuses: [
            { code: 'ACCEPTED', name: 'Принят', date_time: now() },
            ...(ready ? [{ code: 'READY', name: 'Сформирован', date_time: now() }] : [{ code: 'PROCESSING', name: 'Формируется', date_time: now() }]),
          ],
        },
        requests: [{ request_uuid: randomUUID(), type: 'CREATE', date_time: now(), state: 'SUCCESSFUL' }],
        related_entities: [],
      });
    }
    if (path === '/intakes' && req.method === 'POST') {
      const intake = (body ?? {}) as Record<string, unknown>;
      if (!/^\d{4}-\d{2}-\d{2}$/.test(String(intake['intake_date'] ?? ''))) return refuse(res, 400, 'v2_field_is_empty', 'intake_date');
      if (!intake['from_location'] || !intake['sender']) return refuse(res, 400, 'v2_field_is_empty', 'from_location, sender');
      if (!intake['order_uuid'] && !intake['cdek_number'] && !(Number(intake['weight']) > 0)) return refuse(res, 400, 'v2_field_is_empty', 'weight');
      if (intakes.some((i) => i['intake_date'] === intake['intake_date'])) return refuse(res, 400, 'v2_intake_exists_by_date_address', 'intake exists');
      intakes.push(intake);
      return accepted(res, randomUUID());
    }
    return refuse(res, 404, 'v2_entity_not_found', `No such method: ${req.method} ${url.pathname}`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  base = `http://127.0.0.1:${port}/v2`;
  return {
    url: base,
    calls,
    orders,
    webhooks,
    intakes,
    clientReturns,
    refusals,
    loseNextAnswer: (n) => (state.lose = n),
    depotAcceptsAtOnce: (on) => (state.acceptAtOnce = on),
    transfer(number, date, registry, feeShare = 0.03) {
      const order = [...orders.values()].filter((o) => o.number === number && !o.invalid).at(-1);
      if (!order) throw new Error(`the stand-in holds no order ${number}`);
      const taken = (handedView(order).delivery_detail as { payment_sum?: number }).payment_sum ?? 0;
      const fee = Math.round(taken * feeShare * 100) / 100;
      const day = registries.get(date) ?? new Map();
      registries.set(date, day);
      day.set(registry, [
        ...(day.get(registry) ?? []),
        { cdek_number: order.cdekNumber, payment_sum: taken, agent_commission_sum: fee, transfer_sum: Math.round((taken - fee) * 100) / 100 },
      ]);
    },
    advance(number, code, handOver) {
      const order = [...orders.values()].filter((o) => o.number === number && !o.invalid).at(-1);
      if (!order) throw new Error(`the stand-in holds no order ${number}`);
      if (code === 'DELIVERED') order.handed = { kept: handOver?.kept ?? {}, paidBy: handOver?.paidBy ?? 'CARD' };
      const at = now();
      const city = code === 'RECEIVED_AT_SHIPMENT_WAREHOUSE' || code === 'SENT_TO_RECIPIENT_CITY' ? 'Москва' : 'Санкт-Петербург';
      order.statuses.push({ code, date_time: at, city });
      return {
        type: 'ORDER_STATUS',
        date_time: at,
        uuid: order.uuid,
        attributes: {
          is_return: false,
          is_reverse: false,
          is_client_return: false,
          cdek_number: order.cdekNumber,
          number: order.number,
          code,
          status_code: String(STANDIN_STATUSES[code][1]),
          // A partial buy-out is DELIVERED with reason 20 (частичная доставка).
          ...(code === 'DELIVERED' && Object.keys(order.handed?.kept ?? {}).length > 0 ? { status_reason_code: '20' } : {}),
          status_date_time: at,
          city_name: city,
          city_code: '137',
          deleted: false,
        },
      };
    },
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

/** A one-page PDF with one line of text: what a waybill download is, in bytes a viewer opens. */
function minimalPdf(text: string): Buffer {
  const stream = `BT /F1 18 Tf 72 720 Td (${text.replace(/[()\\]/g, '')}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let pdf = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(pdf.length);
    pdf += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = pdf.length;
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(pdf, 'latin1');
}
