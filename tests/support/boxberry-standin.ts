// A local stand-in for Boxberry's JSON API (docs/research/boxberry-api.md): one endpoint, json.php, with
// `token` and `method` beside the parameters — in the query string, a form body (ParselCreate's `sdata` a
// JSON string) or a JSON body; every refusal is HTTP 200 with `{ err }` (`[{ err }]` from list methods);
// values are strings where Boxberry sends strings. Holds four of the CDEK stand-in's cities under
// Boxberry's own codes (Boxberry knows no Vladimir or Vladivostok here), with points of its own. Modes:
// slow answers, 500s, and `{ err }` refusals. `advance` moves a parcel as Boxberry's depots do.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';

export const BOXBERRY_CITIES = [
  { code: '68', name: 'Москва', region: 'Москва', latitude: 55.75, longitude: 37.62 },
  { code: '1', name: 'Санкт-Петербург', region: 'Санкт-Петербург', latitude: 59.94, longitude: 30.32 },
  { code: '42', name: 'Новосибирск', region: 'Новосибирская', latitude: 55.03, longitude: 82.92 },
  { code: '67', name: 'Казань', region: 'Татарстан', latitude: 55.79, longitude: 49.11 },
] as const;

/** Statuses Boxberry's depots set, by name, as ListStatuses gives them. */
export const BOXBERRY_STATUSES = [
  'Загружен реестр ИМ',
  'Принято к доставке',
  'Передано на сортировку',
  'Передан на доставку до пункта выдачи',
  'Поступило в пункт выдачи',
  'Выдано',
  'Возвращено в ИМ',
  // After the shop recalls a parcel (CancelOrder, cancelType 2).
  'Готовится к возврату',
] as const;
export type BoxberryStatus = (typeof BOXBERRY_STATUSES)[number];

export interface BoxberryParcel {
  track: string;
  orderId: string;
  sdata: Record<string, unknown>;
  statuses: { Date: string; Name: BoxberryStatus }[];
}

export interface BoxberryStandin {
  /** The API's address (…/json.php) for BOXBERRY_API_URL. */
  url: string;
  calls: { method: string; params: Record<string, unknown> }[];
  parcels: Map<string, BoxberryParcel>;
  slow(ms: number): void;
  failNext(n: number): void;
  /** The next `n` calls are refused with `{ err }`, HTTP 200, as Boxberry refuses. */
  refuseNext(n: number): void;
  /** New parcels are taken in at once («Принято к доставке»), as a depot that scans them on arrival. */
  depotAcceptsAtOnce(on: boolean): void;
  /** The depots move a parcel (by the shop's order number) to a status. */
  advance(orderId: string, status: BoxberryStatus): void;
  close(): Promise<void>;
}

/** Points of a city, made the same way every time: offices (some taking cards) and a postamat. */
export function boxberryPoints(city: (typeof BOXBERRY_CITIES)[number]): Record<string, unknown>[] {
  return Array.from({ length: 4 }, (_, k) => {
    const postamat = k === 3;
    const code = `${city.code}${String(k + 1).padStart(3, '0')}`;
    return {
      Code: code,
      Name: `${city.name} ${postamat ? 'Постамат' : 'Отделение'} ${k + 1}`,
      CityCode: city.code,
      CityName: city.name,
      Address: `${city.name}, ул. Боксберри, д. ${k + 10}`,
      AddressReduce: `ул. Боксберри, д. ${k + 10}`,
      Phone: '8-800-700-54-30',
      WorkShedule: k === 1 ? 'пн-пт: 10.00-20.00, сб: 10.00-16.00' : 'пн-вс: 09.00-21.00',
      TripDescription: `Вход со двора, ${k + 1}-й подъезд`,
      DeliveryPeriod: 2,
      GPS: `${(city.latitude + k * 0.011).toFixed(6)},${(city.longitude - k * 0.013).toFixed(6)}`,
      Metro: city.code === '68' || city.code === '1' ? 'Маяковская' : '',
      Postamat: postamat,
      Acquiring: k % 2 === 0 ? 'Yes' : 'No',
      OnlyPrepaidOrders: postamat ? 'Yes' : 'No',
      LoadLimit: postamat ? 15 : 31,
      VolumeLimit: '0.19',
      TypeOfOffice: 'СПВЗ',
      TariffZone: '2',
      CountryCode: '643',
    };
  });
}

export async function startBoxberryStandin(token: string): Promise<BoxberryStandin> {
  const calls: BoxberryStandin['calls'] = [];
  const parcels = new Map<string, BoxberryParcel>();
  const state = { slowMs: 0, fail: 0, refuse: 0, acceptAtOnce: false, track: 127_020_000 };
  let base = '';
  // Moscow time, as Boxberry writes its dates.
  const moscow = (ms: number) => new Date(ms + 3 * 3_600_000).toISOString().slice(0, 19).replace('T', ' ');
  const now = () => moscow(Date.now());
  const json = (res: ServerResponse, body: unknown, status = 200) => {
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
    res.end(JSON.stringify(body));
  };
  const err = (res: ServerResponse, text: string) => json(res, { err: text });

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const url = new URL(req.url ?? '/', 'http://standin');
      if (state.slowMs) await new Promise((r) => setTimeout(r, state.slowMs));
      if (res.destroyed) return;
      // The label's address: a file, behind the token in its own query string.
      if (url.pathname === '/parcel-files/barcodes') {
        const parcel = [...parcels.values()].find((p) => p.track === url.searchParams.get('parcel_id'));
        if (!parcel || url.searchParams.get('token') !== token) return json(res, { err: 'Нет доступа' }, 403);
        res.writeHead(200, { 'content-type': 'application/pdf' });
        return res.end(labelPdf(`Boxberry ${parcel.track}`));
      }
      if (url.pathname !== '/json.php') return json(res, { err: 'Not found' }, 404);
      const text = Buffer.concat(chunks).toString('utf8');
      const params: Record<string, unknown> = Object.fromEntries(url.searchParams);
      if (text) {
        if ((req.headers['content-type'] ?? '').includes('application/json')) {
          try {
            Object.assign(params, JSON.parse(text) as Record<string, unknown>);
          } catch {
            return err(res, 'Неверный формат запроса');
          }
        } else Object.assign(params, Object.fromEntries(new URLSearchParams(text)));
      }
      if (state.fail > 0) {
        state.fail--;
        return json(res, { err: 'Internal error' }, 500);
      }
      if (params['token'] !== token) return err(res, 'Ключ интеграции не найден');
      const method = String(params['method'] ?? '');
      calls.push({ method, params: Object.fromEntries(Object.entries(params).filter(([k]) => k !== 'token')) });
      if (state.refuse > 0) {
        state.refuse--;
        return err(res, 'Сервис временно недоступен');
      }
      const city = (code: unknown) => BOXBERRY_CITIES.find((c) => c.code === String(code));

      switch (method) {
        case 'ListCities':
          return json(
            res,
            BOXBERRY_CITIES.map((c) => ({
              Code: c.code,
              Name: c.name,
              Region: c.region,
              Prefix: 'г',
              Kladr: '',
              UniqName: c.name,
              District: '',
              CountryCode: '643',
              Reception: '1',
              CourierDelivery: '1',
              PickupPoint: '1',
            })),
          );
        case 'ListPoints': {
          const c = city(params['CityCode']);
          if (!c) return json(res, [{ err: 'Город не найден' }]);
          const all = boxberryPoints(c);
          return json(res, params['is_include_postamat'] === '1' ? all : all.filter((p) => !p['Postamat']));
        }
        case 'PointsDescription': {
          // One point by its code, the shop's drop-off point too (the shop checks it at start).
          const found = BOXBERRY_CITIES.flatMap((c) => boxberryPoints(c)).find((p) => p['Code'] === String(params['code'] ?? ''));
          if (!found) return err(res, 'Пункт выдачи не найден');
          return json(res, { ...found, EnableFitting: found['Postamat'] ? '0' : '1', Reception: '1' });
        }
        case 'DeliveryCosts': {
          const weight = Number(params['weight']);
          if (!(weight > 0)) return err(res, 'Не указан вес');
          const target = String(params['target'] ?? '');
          const to = BOXBERRY_CITIES.find((c) => target.startsWith(c.code) && boxberryPoints(c).some((p) => p['Code'] === target));
          if (!to) return err(res, 'Пункт выдачи не найден');
          const far = to.code === '42' ? 3 : to.code === '68' ? 1 : 2;
          const price = Math.round(180 + far * 90 + (weight / 1000) * 35);
          return json(res, { price, price_base: price - 40, price_service: 40, delivery_period: String(far + 1) });
        }
        case 'ParselCreate': {
          let sdata: Record<string, unknown>;
          try {
            sdata = (typeof params['sdata'] === 'string' ? JSON.parse(params['sdata']) : params['sdata']) as Record<string, unknown>;
          } catch {
            return err(res, 'Неверный формат sdata');
          }
          const orderId = String(sdata?.['order_id'] ?? '');
          const shop = sdata?.['shop'] as { name?: string; name1?: string } | undefined;
          const customer = sdata?.['customer'] as { fio?: string; phone?: string } | undefined;
          if (!orderId) return err(res, 'Не указан номер заказа');
          if (!customer?.fio || !customer.phone) return err(res, 'Не указаны данные получателя');
          if (String(sdata['vid']) === '1' && !shop?.name) return err(res, 'Не указан пункт выдачи');
          if (!shop?.name1) return err(res, 'Не указан пункт приема');
          if ([...parcels.values()].some((p) => p.orderId === orderId)) return err(res, `Значение «${orderId}» для «Номер заказа в ИМ» уже занято.`);
          const track = `AAP${++state.track}`;
          parcels.set(track, {
            track,
            orderId,
            sdata,
            statuses: [
              { Date: now(), Name: 'Загружен реестр ИМ' },
              ...(state.acceptAtOnce ? [{ Date: moscow(Date.now() + 1000), Name: 'Принято к доставке' as const }] : []),
            ],
          });
          return json(res, { track, label: `${base}/parcel-files/barcodes?parcel_id=${track}&token=${token}` });
        }
        case 'ParselCheck': {
          const parcel = parcels.get(String(params['ImId'] ?? ''));
          if (!parcel) return err(res, 'Посылка не найдена');
          return json(res, { label: `${base}/parcel-files/barcodes?parcel_id=${parcel.track}&token=${token}` });
        }
        case 'CancelOrder': {
          // docs/research/cash-on-delivery.md §11: 1 deletes, 2 recalls («Готовится к возврату»).
          const type = String(params['cancelType'] ?? '');
          if (!['', '1', '2'].includes(type)) return err(res, 'Вариант отмены заказа должен быть пустым или равен 1 или 2.');
          const parcel = [...parcels.values()].find((p) => p.orderId === String(params['orderid'] ?? ''));
          if (!parcel) return err(res, 'Посылка не найдена');
          if (type === '2') parcel.statuses.push({ Date: moscow(Date.now() + 1000), Name: 'Готовится к возврату' });
          else parcels.delete(parcel.track);
          return json(res, { err: false });
        }
        case 'ListStatuses': {
          const id = String(params['ImId'] ?? '');
          const parcel = parcels.get(id) ?? [...parcels.values()].find((p) => p.orderId === id);
          if (!parcel) return json(res, [{ err: 'Посылка не найдена' }]);
          return json(res, parcel.statuses);
        }
        default:
          return err(res, `Метод ${method} не найден`);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  return {
    url: `${base}/json.php`,
    calls,
    parcels,
    slow: (ms) => (state.slowMs = ms),
    failNext: (n) => (state.fail = n),
    refuseNext: (n) => (state.refuse = n),
    depotAcceptsAtOnce: (on) => (state.acceptAtOnce = on),
    advance(orderId, status) {
      const parcel = [...parcels.values()].find((p) => p.orderId === orderId);
      if (!parcel) throw new Error(`the stand-in holds no parcel ${orderId}`);
      // A second later than the last, so the order of events is kept to the second.
      const last = parcel.statuses.at(-1)?.Date ?? now();
      const next = Math.max(Date.now(), new Date(`${last.replace(' ', 'T')}+03:00`).getTime() + 1000);
      parcel.statuses.push({ Date: moscow(next), Name: status });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function labelPdf(text: string): Buffer {
  const stream = `BT /F1 18 Tf 72 720 Td (${text.replace(/[()\\]/g, '')}) Tj ET`;
  const body = [
    '%PDF-1.4',
    '1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj',
    '2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj',
    '3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 298 420] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >> endobj',
    `4 0 obj << /Length ${stream.length} >> stream\n${stream}\nendstream endobj`,
    '5 0 obj << /Type /Font /Subtype /Type1 /BaseFont /Helvetica >> endobj',
    'trailer << /Root 1 0 R >>',
    '%%EOF',
  ];
  return Buffer.from(body.join('\n'), 'latin1');
}
