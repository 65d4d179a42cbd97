// The Boxberry client against the stand-in of its JSON API over loopback (tests/support/boxberry-standin.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBoxberryStandin, type BoxberryStandin } from '../../../tests/support/boxberry-standin.ts';
import { boxberryClient, type BoxberryClient } from './boxberry.server.ts';
import { CarrierRefused, CarrierUnavailable } from './carrier.server.ts';

const TOKEN = 'boxberry-client-token';
let standin: BoxberryStandin;
let bb: BoxberryClient;

beforeAll(async () => {
  standin = await startBoxberryStandin(TOKEN);
  bb = boxberryClient({ url: standin.url, token: TOKEN, timeoutMs: 300 });
});
afterAll(() => standin?.close());

describe('Boxberry, when it answers', () => {
  it('lists its cities under its own codes, and a city’s points with postamats, hours, card payment and the place from GPS', async () => {
    expect(await bb.cities()).toContainEqual({ code: 67, name: 'Казань' });
    const points = await bb.pickupPoints(67);
    expect(points).toHaveLength(4);
    expect(points[0]).toMatchObject({
      carrier: 'boxberry',
      code: '67001',
      kind: 'office',
      cityCode: 67,
      address: 'Казань, ул. Боксберри, д. 10',
      howToFind: 'Вход со двора, 1-й подъезд',
      hours: 'пн-вс: 09.00-21.00',
      card: true,
      cod: true,
      fittingRoom: false,
      maxWeight: 31_000,
    });
    expect(points[0]?.latitude).toBeCloseTo(55.79, 2);
    expect(points.filter((p) => p.kind === 'postamat')).toHaveLength(1);
    // OnlyPrepaidOrders "Yes" (the stand-in's postamat): no payment on delivery there.
    expect(points.filter((p) => !p.cod).map((p) => p.kind)).toEqual(['postamat']);
    expect(standin.calls.at(-1)).toMatchObject({ method: 'ListPoints', params: { CityCode: '67', prepaid: '1', is_include_postamat: '1' } });
  });

  it('prices a parcel to a point in kopecks with its working days', async () => {
    expect(await bb.cost('67001', { weight: 2000, length: 30, width: 25, height: 20 }, 0)).toEqual({ price: 43_000, days: 3 });
  });

  it('makes a parcel from a form’s sdata, finds its label and reads its statuses oldest first, by track or order number', async () => {
    const sdata = { order_id: 'BS-20000001', vid: '1', shop: { name: '67001', name1: '68001' }, customer: { fio: 'Вера', phone: '+79215554433' } };
    const made = await bb.createParcel(sdata);
    expect(made.track).toMatch(/^AAP\d+$/);
    expect(standin.parcels.get(made.track)?.sdata).toEqual(sdata);
    const label = await bb.labelUrl(made.track);
    expect(Buffer.from(await bb.download(label)).toString('latin1')).toContain(made.track);
    standin.advance('BS-20000001', 'Поступило в пункт выдачи');
    const statuses = await bb.statuses('BS-20000001');
    expect(statuses.map((s) => s.name)).toEqual(['Загружен реестр ИМ', 'Поступило в пункт выдачи']);
    expect((statuses[0]?.at ?? '') < (statuses[1]?.at ?? '')).toBe(true);
  });

  it('recalls a parcel by the shop’s order number (CancelOrder, cancelType 2): it is to come back; an unknown one is refused', async () => {
    await bb.createParcel({ order_id: 'BS-20000009', vid: '1', shop: { name: '67001', name1: '68001' }, customer: { fio: 'Вера', phone: '+79215554433' } });
    await bb.recall('BS-20000009');
    expect(standin.calls.at(-1)).toMatchObject({ method: 'CancelOrder', params: { orderid: 'BS-20000009', cancelType: '2' } });
    const statuses = await bb.statuses('BS-20000009');
    expect(statuses.at(-1)?.name).toBe('Готовится к возврату');
    await expect(bb.recall('BS-99999999')).rejects.toBeInstanceOf(CarrierRefused);
  });
});

describe('Boxberry, when it refuses or fails', () => {
  it('reads a refusal sent as HTTP 200 with err, as Boxberry sends them, and a repeated order number as one', async () => {
    await expect(bb.pickupPoints(99999)).rejects.toBeInstanceOf(CarrierRefused);
    const sdata = { order_id: 'BS-20000002', vid: '1', shop: { name: '67001', name1: '68001' }, customer: { fio: 'Вера', phone: '+79215554433' } };
    await bb.createParcel(sdata);
    await expect(bb.createParcel(sdata)).rejects.toMatchObject({ codes: [expect.stringContaining('уже занято')] });
  });

  it('is unavailable when it answers 500 or slower than the deadline, and never fetches a label from another host', async () => {
    standin.failNext(1);
    await expect(bb.cities()).rejects.toBeInstanceOf(CarrierUnavailable);
    standin.slow(600);
    await expect(bb.cities()).rejects.toBeInstanceOf(CarrierUnavailable);
    standin.slow(0);
    await expect(bb.download('https://elsewhere.example/parcel-files/barcodes?parcel_id=1')).rejects.toBeInstanceOf(CarrierUnavailable);
  });
});
