// The search index follows every change at once (issue 40): an import searched the moment it says done,
// in a loop, while other shoppers' searches never get an empty or half-built answer; the managers'
// synonyms and brand names from the console's /ops/search; a sale's last unit shown sold out by the
// selling process. On PostgreSQL (CI's second stage) a second process of the same shop follows each change
// within its poll of the catalogue version; PGlite has one process by nature.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operatorToken, signedInOperator, Visitor } from '../support/ops.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

const API = '/api/v1/ecommerce-core';
const onPostgres = Boolean(process.env['DATABASE_URL']);
let a: TestServer;
let b: TestServer | undefined;
let manager: Visitor;
let work: string;

interface Listed {
  total: number;
  products: { id: number; name: string; brand: string }[];
}
async function search(server: TestServer, text: string, extra = ''): Promise<Listed> {
  const res = await fetch(`${server.baseUrl}${API}/products?search=${encodeURIComponent(text)}&per_page=50${extra}`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: Listed }).data;
}

/** Waits for the other process to see what `check` looks for; its poll is 2 s, its rebuild on top. */
async function followed(what: string, check: () => Promise<boolean>): Promise<number> {
  const started = Date.now();
  await expect.poll(check, { timeout: 30_000, interval: 100, message: what }).toBe(true);
  return Date.now() - started;
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'search-fresh-'));
  a = await startTestServer({ label: 'search-fresh', seedProducts: 40 });
  if (onPostgres) b = await startTestServer({ seedProducts: 40, database: a.database });
  manager = (await signedInOperator(a, 'search.words@shop.ru', 'manager')).visitor;
}, 180_000);
afterAll(async () => {
  await b?.stop();
  await a?.stop();
  rmSync(work, { recursive: true, force: true });
});

/** A word no catalogue has, made of letters only (a number would be read as a number). */
const LETTERS = 'бвгджзклмнпрстфхцчшщ';
const VOWELS = 'аеиоуя';
const nonsense = () =>
  Array.from(
    { length: 4 },
    () => (LETTERS[Math.floor(Math.random() * LETTERS.length)] ?? 'б') + (VOWELS[Math.floor(Math.random() * VOWELS.length)] ?? 'а'),
  ).join('');

function feed(round: number, word: string): string {
  const offers = Array.from(
    { length: 20 },
    (_, k) =>
      `<offer id="fresh-${round}-${k}" available="true"><price>${12_000 + k}</price><currencyId>RUR</currencyId><categoryId>2</categoryId>` +
      `<vendor>Ganni</vendor><vendorCode>FR${round}Z${k + 1}</vendorCode><name>Жилет ${word} ${k + 1}</name><param name="Размер">M</param><count>2</count></offer>`,
  ).join('');
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n<yml_catalog date="2026-11-28"><shop><name>Поставщик</name><currencies><currency id="RUR" rate="1"/></currencies>` +
    `<categories><category id="1">Одежда</category><category id="2" parentId="1">Жилеты</category></categories><offers>${offers}</offers></shop></yml_catalog>\n`
  );
}

async function importFeed(path: string): Promise<void> {
  const operator = { 'x-operator-token': operatorToken(a), 'content-type': 'application/json' };
  const started = await fetch(`${a.baseUrl}${API}/ops/imports`, {
    method: 'POST',
    headers: operator,
    body: JSON.stringify({ path, options: { skip_photos: true, partial: true } }),
  });
  expect(started.status, await started.clone().text()).toBe(200);
  const { id } = ((await started.json()) as { data: { id: number } }).data;
  for (;;) {
    const run = ((await (await fetch(`${a.baseUrl}${API}/ops/imports/${id}`, { headers: operator })).json()) as { data: { status: string } }).data;
    if (run.status !== 'running') {
      expect(run.status).toBe('done');
      return;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('the index follows an import', () => {
  it('finds each import the moment it is done, in a loop, and never answers from an empty or half-built index meanwhile', async () => {
    const listing = (await (await fetch(`${a.baseUrl}${API}/products?per_page=5`)).json()) as { data: Listed };
    const known = listing.data.products[0];
    expect(known, 'the seeded catalogue has products').toBeDefined();
    const knownText = known!.name;
    const knownTotal = (await search(a, knownText)).total;
    // Another shopper searching all the while: every answer has what was there before.
    let searching = true;
    const answers: number[] = [];
    const shopper = (async () => {
      while (searching) answers.push((await search(a, knownText)).total);
    })();
    const followedBy: number[] = [];
    try {
      for (let round = 1; round <= 4; round++) {
        const word = nonsense();
        const path = join(work, `feed-${round}.yml`);
        writeFileSync(path, feed(round, word));
        await importFeed(path);
        // The first search after "done", on the process that ran the import.
        const found = await search(a, `Жилет ${word} 7`);
        expect(found.products[0]?.name, `round ${round}`).toBe(`Жилет ${word} 7`);
        expect((await search(a, word)).total).toBe(20);
        if (b) followedBy.push(await followed(`round ${round} on the second process`, async () => (await search(b!, word)).total === 20));
      }
    } finally {
      searching = false;
      await shopper;
    }
    expect(answers.length).toBeGreaterThan(0);
    expect(answers.filter((n) => n < knownTotal)).toEqual([]);
    if (b) console.log(`[search-fresh] the second process followed each import in ${followedBy.join(', ')} ms`);
  }, 240_000);
});

describe('the managers’ words for search (/ops/search)', () => {
  it('a synonym group finds the others’ products at once, one way when asked; a delete takes it back', async () => {
    // A word of the catalogue's own names, and shoppers' slang for it.
    const word = ((await search(a, 'кроссовки')).total > 0 ? 'кроссовки' : 'платье') as string;
    const target = await search(a, word);
    expect(target.total).toBeGreaterThan(0);
    const slang = nonsense();
    expect((await search(a, slang)).products.map((p) => p.id)).not.toEqual(target.products.map((p) => p.id));

    const page = await manager.go('/ops/search');
    expect(page.status).toBe(200);
    expect(page.html).toContain('Поиск: синонимы и названия брендов');
    const added = await manager.go('/ops/search', {
      _csrf: Visitor.formToken(page.html),
      action: 'synonym_add',
      terms: `${slang.toUpperCase()}, ${word}`,
      one_way: 'on',
    });
    expect(added.status).toBe(303);
    expect(added.headers.get('location')).toBe('/ops/search?done=synonymAdded');
    // At once on this process: the save waited for the index.
    const found = await search(a, slang);
    expect(found.total).toBe(target.total);
    expect(found.products.map((p) => p.id).sort()).toEqual(target.products.map((p) => p.id).sort());
    // One way: the catalogue's word finds what it found before, no more.
    expect((await search(a, word)).total).toBe(target.total);
    const shown = await manager.go('/ops/search?done=synonymAdded');
    expect(shown.html).toContain('Синонимы добавлены: поиск учитывает их');
    expect(shown.html).toMatch(new RegExp(`>${slang}</a>\\s*→\\s*<a[^>]*>${word}</a>`));
    if (b) await followed('the synonym on the second process', async () => (await search(b!, slang)).total === target.total);

    const id = /value="synonym_delete"[^>]*>\s*<input type="hidden" name="id" value="(\d+)"/.exec(shown.html)?.[1];
    expect(id).toBeDefined();
    const deleted = await manager.go('/ops/search', { _csrf: Visitor.formToken(shown.html), action: 'synonym_delete', id: id! });
    expect(deleted.headers.get('location')).toBe('/ops/search?done=synonymDeleted');
    expect((await search(a, slang)).products.map((p) => p.id)).not.toEqual(target.products.map((p) => p.id));
  });

  it('a brand’s other name finds the brand’s products, also in several words and with ё; the audit log keeps who did it', async () => {
    const first = ((await (await fetch(`${a.baseUrl}${API}/products?per_page=1`)).json()) as { data: Listed }).data.products[0];
    const brand = first!.brand;
    const brandTotal = (await search(a, brand)).total;
    const page = await manager.go('/ops/search');
    const brandId = new RegExp(`<option value="(\\d+)">${brand.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/&/g, '&amp;')}</option>`).exec(page.html)?.[1];
    expect(brandId, brand).toBeDefined();
    const alias = `Дом ${nonsense()}ё`;
    const added = await manager.go('/ops/search', { _csrf: Visitor.formToken(page.html), action: 'alias_add', alias, brand_id: brandId! });
    expect(added.headers.get('location')).toBe('/ops/search?done=aliasAdded');
    const folded = alias.toLowerCase().replace('ё', 'е');
    for (const typed of [alias, folded, alias.toUpperCase()]) {
      const found = await search(a, typed);
      expect(found.total, typed).toBe(brandTotal);
      expect(new Set(found.products.map((p) => p.brand))).toEqual(new Set([brand]));
    }
    if (b) await followed('the brand name on the second process', async () => (await search(b!, folded)).total === brandTotal);

    // The same name again, or a brand's own name, is refused with the reason, and nothing is kept.
    const again = await manager.go('/ops/search', {
      _csrf: Visitor.formToken(page.html),
      action: 'alias_add',
      alias: folded.toUpperCase(),
      brand_id: brandId!,
    });
    expect(again.status).toBe(409);
    expect(again.html).toContain('Это название уже отдано другому бренду');
    const own = await manager.go('/ops/search', { _csrf: Visitor.formToken(page.html), action: 'alias_add', alias: brand, brand_id: brandId! });
    expect(own.status).toBe(422);
    expect(own.html).toContain(`Так называется бренд ${brand.replace(/&/g, '&amp;')}: поиск уже находит его`);

    const admin = (await signedInOperator(a, 'search.audit@shop.ru', 'admin')).visitor;
    const log = await admin.go('/ops/audit?object=search');
    expect(log.html).toContain('search.words@shop.ru');
    expect(log.html).toContain('search.alias_add');
    expect(log.html).toContain(folded);
  });

  it('refuses bad forms with the reason, in Russian, and keeps nothing', async () => {
    const page = await manager.go('/ops/search');
    const token = Visitor.formToken(page.html);
    const cases: [Record<string, string>, number, string][] = [
      [{ action: 'synonym_add', terms: 'одно' }, 422, 'Нужно хотя бы два разных слова через запятую'],
      [{ action: 'synonym_add', terms: 'кеды, кеды' }, 422, 'Нужно хотя бы два разных слова через запятую'],
      [{ action: 'synonym_add', terms: 'кожаные кеды, кроссовки' }, 422, 'Каждый синоним — одно слово из букв и цифр (можно через дефис)'],
      [{ action: 'synonym_add', terms: Array.from({ length: 11 }, (_, k) => `слово${k}`).join(', ') }, 422, 'Не больше 10 слов в группе'],
      // A control character is refused with the form, as a forged one is (ops.server.ts checkedForm).
      [{ action: 'synonym_add', terms: 'кеды,\u0000кроссовки' }, 403, ''],
      [{ action: 'synonym_add', terms: 'а'.repeat(41) + ', б' }, 422, 'Слишком длинное слово'],
      [{ action: 'alias_add', alias: 'гуччи', brand_id: '999999' }, 422, 'Выберите бренд из списка'],
      [{ action: 'alias_add', alias: 'гуччи', brand_id: 'gucci' }, 422, 'Выберите бренд из списка'],
      [{ action: 'alias_add', alias: '   ', brand_id: '1' }, 422, 'Напишите, как покупатели называют бренд'],
      [{ action: 'alias_add', alias: 'один два три четыре пять шесть', brand_id: '1' }, 422, 'Название — от одного до пяти слов из букв и цифр'],
      [{ action: 'synonym_delete', id: '999999' }, 404, 'Этой записи уже нет'],
      [{ action: 'alias_delete', id: '-1' }, 422, ''],
      [{ action: 'drop_table' }, 422, ''],
    ];
    const before = await manager.go('/ops/search');
    for (const [form, status, message] of cases) {
      const res = await manager.go('/ops/search', { _csrf: token, ...form });
      expect(res.status, JSON.stringify(form)).toBe(status);
      if (message) expect(res.html, JSON.stringify(form)).toContain(message);
    }
    const after = await manager.go('/ops/search');
    const rows = (html: string) => html.match(/<tr>/g)?.length ?? 0;
    expect(rows(after.html)).toBe(rows(before.html));
    // Without the form token, or signed out, nothing is done either.
    expect((await manager.go('/ops/search', { _csrf: 'forged', action: 'synonym_add', terms: 'кеды, кроссовки' })).status).toBe(403);
    expect((await new Visitor(a.baseUrl).go('/ops/search')).status).toBe(303);
  });
});

describe('a sale', () => {
  it('shows the last unit of a size sold out on the selling process at once', async () => {
    // A size with little stock left, bought whole by a guest.
    let chosen: { id: number; name: string; code: string; label: string; left: number } | undefined;
    for (const p of (await search(a, 'Жилет')).products) {
      const detail = (
        (await (await fetch(`${a.baseUrl}${API}/product/${p.id}`)).json()) as {
          data: { variants: { code: string; label: string; available: boolean; left: number }[] };
        }
      ).data;
      const v = detail.variants.find((x) => x.available && x.left > 0 && x.left <= 5);
      if (v) {
        chosen = { id: p.id, name: p.name, code: v.code, label: v.label, left: v.left };
        break;
      }
    }
    expect(chosen, 'an imported vest with 2 in stock').toBeDefined();
    const { id, name, code, label, left } = chosen!;
    const withSize = `&attr=${encodeURIComponent(label)}`;
    expect((await search(a, name, withSize)).products.map((p) => p.id)).toContain(id);

    const placed = await fetch(`${a.baseUrl}${API}/checkout/place-order`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': randomUUID() },
      body: JSON.stringify({
        items: [{ id, quantity: left, variant_code: code }],
        contact: { name: 'Ольга Смирнова', email: 'olga@example.ru', phone: '+7 (999) 111-22-33' },
        delivery: { method: 'courier', city: 'Казань', address: 'Баумана, 1' },
      }),
    });
    expect(placed.status, await placed.clone().text()).toBe(201);
    // The selling process drops the size from its index as it answers; a short wait covers the answer
    // leaving before the swap (the swap needs one database read), never a rebuild.
    await expect.poll(async () => (await search(a, name, withSize)).products.map((p) => p.id).includes(id), { timeout: 2_000, interval: 20 }).toBe(false);
    const detail = ((await (await fetch(`${a.baseUrl}${API}/product/${id}`)).json()) as { data: { variants: { code: string; available: boolean }[] } }).data;
    expect(detail.variants.find((v) => v.code === code)?.available).toBe(false);
    if (b) await followed('the sale on the second process', async () => !(await search(b!, name, withSize)).products.map((p) => p.id).includes(id));
  });
});

describe('a change in flight while another process builds its index (issue 54)', () => {
  // The catalogue version is a sequence: it moves when the changing statement runs, before its transaction
  // commits. A process that polls in between must not build its index from the rows before the change and
  // take it for the new version — it would show the old price until the next change, for hours on a quiet
  // shop. Made to happen here: the change is held open while the second process polls and rebuilds.
  it.skipIf(!onPostgres)(
    'the second process serves the new price once the change commits, though it polled while the change was open',
    async () => {
      const { default: pg } = await import('pg');
      const client = new pg.Client({ connectionString: a.database.databaseUrl });
      await client.connect();
      try {
        const roubles = 9_876_000 + Math.floor(Math.random() * 500);
        const listed = async (server: TestServer) => {
          const res = await fetch(`${server.baseUrl}${API}/products?price_min=${roubles}&price_max=${roubles}&per_page=5`);
          return ((await res.json()) as { data: Listed }).data.products.map((p) => p.id);
        };
        const [{ id } = { id: 0 }] = (await client.query<{ id: number }>('SELECT id FROM products WHERE is_active ORDER BY id LIMIT 1 OFFSET 7')).rows;
        expect(await listed(b!)).toEqual([]);

        await client.query('BEGIN');
        await client.query('UPDATE products SET price = $1 WHERE id = $2', [roubles * 100, id]);
        // The version has moved; the rows have not committed. The second process is asked for its listing
        // through two of its 2-second polls, so it sees the version move and rebuilds while the change is open.
        const until = Date.now() + 5_000;
        while (Date.now() < until) {
          expect(await listed(b!)).toEqual([]);
          await new Promise((r) => setTimeout(r, 200));
        }
        await client.query('COMMIT');
        await followed('the new price on the second process', async () => (await listed(b!)).includes(id));
        await followed('the new price on the first process', async () => (await listed(a)).includes(id));
      } finally {
        await client.query('ROLLBACK').catch(() => undefined);
        await client.end();
      }
    },
    60_000,
  );
});
