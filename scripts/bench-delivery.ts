// `npm run bench -- --delivery [--requests 300] [--connections 8]` (issue 38): the pickup step and the
// delivery options, warm, as checkout asks them — against the built shop on loopback with both carriers'
// stand-ins (tests/support/*-standin.ts), answering at once, so the figures are the shop's own. Warm means
// the carriers' answers are in the shared table and the process's 60-second copy: what every shopper but
// the first of a city in a day (points) or ten minutes (tariffs) meets. Also the first, cold question of a
// city, for which the shop asks the carriers. p50 and p95 in ms over --requests requests from --connections
// at once; the budgets are the issue's: the pickup step p95 ≤ 300 ms, the options p95 ≤ 500 ms.
import { commandLine, wholeNumber } from './cli.ts';

const cli = commandLine('npm run bench -- --delivery [--requests N] [--connections N]', {
  options: {
    delivery: { type: 'boolean', default: true },
    requests: { type: 'string', default: '300' },
    connections: { type: 'string', default: '8' },
  },
});
const requests = wholeNumber(cli, '--requests', cli.values.requests, { min: 10, max: 100_000 });
const connections = wholeNumber(cli, '--connections', cli.values.connections, { min: 1, max: 256 });

const { startCdekStandin } = await import('../tests/support/cdek-standin.ts');
const { startBoxberryStandin } = await import('../tests/support/boxberry-standin.ts');
const { startTestServer } = await import('../tests/support/server.ts');

const cdek = await startCdekStandin('bench-cdek', 'bench-cdek-secret');
const boxberry = await startBoxberryStandin('bench-boxberry-token');
const shop = await startTestServer({
  label: 'bench-delivery',
  seedProducts: 10,
  env: {
    CDEK_API_URL: cdek.url,
    CDEK_CLIENT_ID: 'bench-cdek',
    CDEK_CLIENT_SECRET: 'bench-cdek-secret',
    BOXBERRY_TOKEN: 'bench-boxberry-token',
    BOXBERRY_API_URL: boxberry.url,
    // Parcels from the categories' defaults: each options call reads its products' category chain.
    DELIVERY_PARCELS: '*-obuv=1500:34x22x13,*-sumki=900:40x30x15,*=700:35x25x8',
    // Payment at the door (issue 55): the summary says for which point, with the fee and the services.
    PAY_ON_DELIVERY: '1',
    COD_FEE_PERCENT: '2',
    LOG_LEVEL: 'warn',
  },
});

const CITIES = [
  { code: 44, name: 'Москва' },
  { code: 137, name: 'Санкт-Петербург' },
  { code: 424, name: 'Казань' },
  { code: 270, name: 'Новосибирск' },
];
const WORDS = ['', 'мира', 'садовая 19', 'пушкина', 'невский'];

const API = `${shop.baseUrl}/api/v1/ecommerce-core`;
/** Each city's pickup offer's sealed quote and a point there, for one unit of product 1's first size. */
const product = ((await (await fetch(`${API}/product/1`)).json()) as { data: { variants: { code: string }[] } }).data;
const item = { id: 1, quantity: 1, variant_code: product.variants[0]?.code ?? '' };
const atDoor: { quote: string; point: string }[] = [];
for (const city of CITIES) {
  const options = (await (
    await fetch(`${API}/delivery/options`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ city: city.code, city_name: city.name, lines: [{ id: 1, quantity: 1 }] }),
    })
  ).json()) as { data: { offers: { carrier: string; mode: string; quote: string }[] } };
  const points = (await (
    await fetch(`${API}/delivery/points?city=${city.code}&city_name=${encodeURIComponent(city.name)}&carrier=cdek&kind=office`)
  ).json()) as {
    data: { points: { code: string }[] };
  };
  const offer = options.data.offers.find((o) => o.carrier === 'cdek' && o.mode === 'pickup');
  if (offer && points.data.points[0]) atDoor.push({ quote: offer.quote, point: points.data.points[0].code });
}

type Ask = (i: number) => Promise<Response>;
const asks: Record<string, Ask> = {
  'pickup page (no JS, SSR), search and filters': (i) => {
    const city = CITIES[i % CITIES.length]!;
    const q = new URLSearchParams({ city: String(city.code), city_name: city.name, q: WORDS[i % WORDS.length]!, ...(i % 3 === 0 ? { card: '1' } : {}) });
    return fetch(`${shop.baseUrl}/checkout/pickup?${q}`);
  },
  'points call (the island’s list and map)': (i) => {
    const city = CITIES[i % CITIES.length]!;
    const q = new URLSearchParams({ city: String(city.code), city_name: city.name, q: WORDS[i % WORDS.length]!, carrier: i % 2 ? 'cdek' : 'boxberry' });
    return fetch(`${shop.baseUrl}/api/v1/ecommerce-core/delivery/points?${q}`);
  },
  'options (both carriers, sealed quotes)': (i) => {
    const city = CITIES[i % CITIES.length]!;
    return fetch(`${shop.baseUrl}/api/v1/ecommerce-core/delivery/options`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ city: city.code, city_name: city.name, lines: [{ id: 1 + (i % 10), quantity: 1 + (i % 3) }] }),
    });
  },
  'summary with payment at the door (the point, the fee, the services)': (i) => {
    const chosen = atDoor[i % atDoor.length]!;
    return fetch(`${API}/checkout/summary`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        items: [item],
        delivery: { method: 'pickup', quote: chosen.quote, point: chosen.point },
        payment: i % 2 ? 'on_delivery' : 'card',
      }),
    });
  },
};

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? 0;

async function timed(ask: Ask, i: number): Promise<number> {
  const started = performance.now();
  const res = await ask(i);
  await res.arrayBuffer();
  if (!res.ok) throw new Error(`${res.status} from the shop`);
  return performance.now() - started;
}

// Cold: the first question of each city and parcel, which the shop puts to the carriers.
const cold: number[] = [];
for (const [i] of CITIES.entries()) {
  cold.push(await timed(asks['options (both carriers, sealed quotes)']!, i));
  cold.push(await timed(asks['points call (the island’s list and map)']!, i));
}
// Warm-up: every city, parcel and page once.
for (const ask of Object.values(asks)) for (let i = 0; i < 60; i++) await timed(ask, i);

const rows: string[] = [];
for (const [name, ask] of Object.entries(asks)) {
  const times: number[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (next < requests) times.push(await timed(ask, next++));
    }),
  );
  times.sort((a, b) => a - b);
  rows.push(`| ${name} | ${quantile(times, 0.5).toFixed(1)} | ${quantile(times, 0.95).toFixed(1)} | ${quantile(times, 0.99).toFixed(1)} |`);
}
cold.sort((a, b) => a - b);
console.log(`\n${requests} requests each from ${connections} connections, warm (ms):\n`);
console.log('| request | p50 | p95 | p99 |\n| --- | --- | --- | --- |');
console.log(rows.join('\n'));
console.log(
  `\nCold (the carriers asked; stand-ins answering at once): median ${quantile(cold, 0.5).toFixed(1)} ms, slowest ${cold.at(-1)?.toFixed(1)} ms of ${cold.length}.`,
);
await shop.stop();
await cdek.close();
await boxberry.close();
