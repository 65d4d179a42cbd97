// Search as a new shop owner first tries it (issue 40): a shop started empty imports a feed of 2,000
// coats named "Пальто модель N" from brands "Бренд N mod 300", as the import hands it to the running shop,
// and searches the moment the import says it is done — the exact model first, a number taken whole,
// an article whole or by its parts, a brand typed with the wrong keyboard layout.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operatorToken } from '../support/ops.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

const API = '/api/v1/ecommerce-core';
const MODELS = 2000;
let shop: TestServer;
let work: string;

/** A YML feed as a shop's software writes one: coats by model, a few bags of two real brands, articles. */
function feed(): string {
  const offer = (id: number, name: string, vendor: string, article: string, price: number) =>
    `<offer id="o${id}" available="true"><price>${price}</price><currencyId>RUR</currencyId><categoryId>2</categoryId><vendor>${vendor}</vendor>` +
    `<vendorCode>${article}</vendorCode><name>${name}</name><param name="Размер">M</param><count>3</count></offer>`;
  const offers = Array.from({ length: MODELS }, (_, k) => offer(k + 1, `Пальто модель ${k + 1}`, `Бренд ${(k % 40) + 1} mod 300`, `PM-${k + 1}-X`, 10_000 + k));
  offers.push(offer(5001, 'Сумка Galleria', 'Prada', 'PR-1BA863', 250_000), offer(5002, 'Пуховик Maya', 'Moncler', 'MC-1A00', 180_000));
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n<yml_catalog date="2026-11-27"><shop><name>Поставщик</name><currencies><currency id="RUR" rate="1"/></currencies>` +
    `<categories><category id="1">Одежда</category><category id="2" parentId="1">Верхняя одежда</category></categories>` +
    `<offers>${offers.join('')}</offers></shop></yml_catalog>\n`
  );
}

async function search(text: string): Promise<string[]> {
  const res = await fetch(`${shop.baseUrl}${API}/products?search=${encodeURIComponent(text)}&per_page=20`);
  const body = (await res.json()) as { data: { products: { name: string }[] } };
  return body.data.products.map((p) => p.name);
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'search-relevance-'));
  writeFileSync(join(work, 'feed.yml'), feed());
  shop = await startTestServer({ label: 'search-relevance', seedProducts: 0 });
}, 120_000);
afterAll(async () => {
  await shop?.stop();
  rmSync(work, { recursive: true, force: true });
});

describe('search over a shop’s first import', () => {
  it('finds the import the moment it is done, the exact model first', async () => {
    const operator = { 'x-operator-token': operatorToken(shop), 'content-type': 'application/json' };
    const started = (await (
      await fetch(`${shop.baseUrl}${API}/ops/imports`, {
        method: 'POST',
        headers: operator,
        body: JSON.stringify({ path: join(work, 'feed.yml'), options: { skip_photos: true } }),
      })
    ).json()) as { data: { id: number } };
    let status = 'running';
    while (status === 'running') {
      await new Promise((r) => setTimeout(r, 100));
      status = ((await (await fetch(`${shop.baseUrl}${API}/ops/imports/${started.data.id}`, { headers: operator })).json()) as { data: { status: string } })
        .data.status;
    }
    expect(status).toBe('done');
    // The first search after "done" finds it (the index followed the import, it was not left to a poll).
    expect((await search('Пальто модель 123'))[0]).toBe('Пальто модель 123');
  }, 120_000);

  it('takes a number whole: 123 is not 1239, 1123 or 1230', async () => {
    expect(await search('Пальто модель 123')).toEqual(['Пальто модель 123']);
    expect((await search('123'))[0]).toBe('Пальто модель 123');
    expect(await search('модель 1239')).toEqual(['Пальто модель 1239']);
  });

  it('finds an article whole or by its number', async () => {
    expect(await search('PM-777-X')).toEqual(['Пальто модель 777']);
    expect((await search('pm777x'))[0]).toBe('Пальто модель 777');
    expect((await search('1BA863'))[0]).toBe('Сумка Galleria');
  });

  it('reads a brand typed with the Latin layout on as the Russian it was meant to be, and the other way round', async () => {
    // «прада» and «монклер» typed with the Latin layout on (the shop knows the brands' Russian names).
    expect((await search('ghflf'))[0]).toBe('Сумка Galleria');
    expect((await search('vjyrkth'))[0]).toBe('Пуховик Maya');
    // «prada» and «moncler» typed with the Russian layout on.
    expect((await search('зкфвф'))[0]).toBe('Сумка Galleria');
    expect((await search('ьщтсдук'))[0]).toBe('Пуховик Maya');
  });
});
