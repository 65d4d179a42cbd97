// The catalogue the judged query set is judged over (tests/search/README.md): the built shop's seeded
// catalogue (the template's 400 products) with the real YML fixtures imported on top, as an owner's
// import would add them (partial: nothing else is taken off sale). The same for the judge and the eval.
import { resolve } from 'node:path';
import { operatorToken } from '../support/ops.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

export const SEED_PRODUCTS = 400;
export const FIXTURES = [
  'yml-Zverushko-Excel-to-Yandex-YML-yandex_market.xml',
  'yml-stefanitsky-yandex_market_language-valid_feed.xml',
  'yml-lireincore-ymlparser-example-cp1251.xml',
  'yml-serkin-ymlparser-valid_xml.xml',
  'yml-artempyanykh-goods-simple_catalog.xml',
];
const API = '/api/v1/ecommerce-core';

export async function searchShop(label: string, env: Record<string, string> = {}): Promise<TestServer> {
  const shop = await startTestServer({ label, seedProducts: SEED_PRODUCTS, env: { LOG_LEVEL: 'warn', ...env } });
  const headers = { 'x-operator-token': operatorToken(shop), 'content-type': 'application/json' };
  for (const file of FIXTURES) {
    const path = resolve('../shared/fixtures/import', file);
    const started = (await (
      await fetch(`${shop.baseUrl}${API}/ops/imports`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ path, options: { partial: true, skip_photos: true } }),
      })
    ).json()) as { data?: { id: number } };
    for (;;) {
      await new Promise((r) => setTimeout(r, 50));
      const run = (await (await fetch(`${shop.baseUrl}${API}/ops/imports/${started.data?.id ?? 0}`, { headers })).json()) as { data?: { status: string } };
      if (run.data?.status !== 'running') break;
    }
  }
  return shop;
}

/** The shop's search results for a text, as the search page lists them: product ids, first 20. */
export async function rankingOf(shop: TestServer, text: string): Promise<number[]> {
  const res = await fetch(`${shop.baseUrl}${API}/products?search=${encodeURIComponent(text)}&per_page=20`);
  if (!res.ok) return [];
  const body = (await res.json()) as { data: { products: { id: number }[] } };
  return body.data.products.map((p) => p.id);
}
