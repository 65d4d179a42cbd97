// The 1C / MoySklad exchange (docs/exchange-1c.md) on a real server, driven by a stand-in that speaks the
// protocol as 1C does (tests/support/one-c.ts): sign-in, the catalogue sent as a zip in parts with its
// photos, progress answered while a file is applied, real CommerceML files other programs wrote, orders
// out (query → success) and status changes in; and the hostile calls, each a clear failure that leaves the
// catalogue as it was.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readOutbox } from '../support/mail.ts';
import { signedInOperator } from '../support/ops.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { shopper } from '../support/shopper.ts';
import { OneC, zipOf, type Answer } from '../support/one-c.ts';

const FIXTURES = resolve('../shared/fixtures/import');
const fixture = (name: string) => readFileSync(join(FIXTURES, name));
const LOGIN = 'onec';
const PASSWORD = 'обмен-с-сайтом-2026';
const FILE_LIMIT = 64 * 1024;
const API = '/api/v1/ecommerce-core';

let server: TestServer;
const { call, register, paidOrder } = shopper(() => server);
const endpoint = () => `${server.baseUrl}/exchange/1c`;
const onec = () => new OneC(endpoint(), LOGIN, PASSWORD);

beforeAll(async () => {
  server = await startTestServer({
    label: 'exchange',
    seedProducts: 20,
    env: {
      EXCHANGE_LOGIN: LOGIN,
      EXCHANGE_PASSWORD: PASSWORD,
      EXCHANGE_FILE_LIMIT: String(FILE_LIMIT),
      // Every mode=import answers at once: progress until the run is over.
      EXCHANGE_STEP_SECONDS: '0',
    },
  });
}, 120_000);
afterAll(async () => server?.stop());

const last = (answers: Answer[]) => answers.at(-1) as Answer;

/** The listing's products whose name has this text, once the shop's index has followed the exchange (seconds). */
async function listed(text: string, count = 1) {
  let products: { id: number; name: string; price: number }[] = [];
  await expect
    .poll(
      async () => {
        const res = await call<{ products: typeof products }>(`${API}/products?search=${encodeURIComponent(text)}&per_page=50`);
        products = res.body.data!.products;
        return products.length;
      },
      { timeout: 15_000, interval: 250 },
    )
    .toBe(count);
  return products;
}

/** A photo with a real photo's entropy, so that the archive is as large as real ones and goes in parts. */
function noisePhoto(width: number, height: number, seed: number): Promise<Buffer> {
  const raw = Buffer.alloc(width * height * 3);
  for (let i = 0; i < raw.length; i++) raw[i] = (i * 7919 + ((i / 3) | 0) * 104_729 + seed) % 251;
  return sharp(raw, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 85 })
    .toBuffer();
}

async function product(id: number) {
  const res = await call<{ name: string; price: number; brand: { name: string }; variants: { label: string; available: boolean }[]; images: unknown[] }>(
    `${API}/product/${id}`,
  );
  return res.body.data!;
}

/** A document 1C sends back about an order, with these requisites. */
const orderDocument = (number: string, requisites: Record<string, string>) =>
  `<?xml version="1.0" encoding="UTF-8"?>
<КоммерческаяИнформация ВерсияСхемы="2.08" ДатаФормирования="2026-11-25T12:00:00">
  <Документ><Ид>${number}</Ид><Номер>${number}</Номер><Дата>2026-11-25</Дата><ХозОперация>Заказ товара</ХозОперация>
    <ЗначенияРеквизитов>${Object.entries(requisites)
      .map(([name, value]) => `<ЗначениеРеквизита><Наименование>${name}</Наименование><Значение>${value}</Значение></ЗначениеРеквизита>`)
      .join('')}</ЗначенияРеквизитов>
  </Документ>
</КоммерческаяИнформация>`;

describe('orders out to 1C and back', () => {
  it('sends new and changed orders until 1C confirms them, in windows-1251, with the customer, lines, delivery, payment and status', async () => {
    const auth = await register();
    const order = await paidOrder(auth);
    const client = onec();
    await client.begin('sale');
    const raw = await fetch(`${endpoint()}?type=sale&mode=query`, { headers: { cookie: (await signedCookie()) ?? '' } });
    expect(raw.headers.get('content-type')).toBe('application/xml; charset=windows-1251');
    const first = await client.takeOrders(false);
    expect(first).toMatch(/^<\?xml version="1.0" encoding="windows-1251"\?>/);
    const document = new RegExp(`<Документ><Ид>${order.code}</Ид><Номер>${order.code}</Номер>[\\s\\S]*?</Документ>`).exec(first)?.[0] ?? '';
    expect(document).toContain('<ХозОперация>Заказ товара</ХозОперация>');
    expect(document).toContain('<Значение>olga@example.ru</Значение>');
    expect(document).toContain('<Наименование>Ольга Смирнова</Наименование>');
    expect(document).toMatch(/<Наименование>Заказ оплачен<\/Наименование><Значение>true<\/Значение>/);
    expect(document).toMatch(/<Наименование>Метод оплаты<\/Наименование><Значение>Банковская карта<\/Значение>/);
    expect(document).toMatch(/<Наименование>Статус заказа<\/Наименование><Значение>processing<\/Значение>/);
    expect(document).toContain('Казань, Баумана, 1');
    expect(document.match(/<Товар>/g)?.length).toBeGreaterThanOrEqual(1);
    const total = Number(/<Сумма>([\d.]+)<\/Сумма><Контрагенты>/.exec(document)?.[1]);
    expect(Math.round(total * 100)).toBe(order.total);

    // Not confirmed: sent again; confirmed: not sent again until it changes.
    expect(await client.takeOrders(true)).toContain(`<Номер>${order.code}</Номер>`);
    expect(await client.takeOrders(true)).not.toContain(`<Номер>${order.code}</Номер>`);

    // 1C ships it with a tracking number: the order's own rules move it, and the customer is e-mailed.
    await client.begin('sale');
    const sent = await client.send(
      'sale',
      'documents.xml',
      Buffer.from(orderDocument(order.code, { 'Статус заказа': 'Отгружен', 'Трек-номер': 'RA000111222RU' })),
    );
    expect(last(sent.answers).lines[0]).toBe('success');
    const moved = await call<{ status: string; tracking_id: string | null }>(`${API}/customer/orders/${order.code}`, { headers: auth });
    expect(moved.body.data).toMatchObject({ status: 'shipped', tracking_id: 'RA000111222RU' });
    await expect.poll(() => readOutbox(server.database.env['DATA_DIR']!).some((m) => m.body.includes(`Заказ ${order.code}: Отправлен`))).toBe(true);
    // Changed since 1C took it: sent again.
    expect(await client.takeOrders(true)).toMatch(new RegExp(`<Номер>${order.code}</Номер>[\\s\\S]*?<Значение>shipped</Значение>`));

    // A move the rules forbid (back to processing) or an order the shop lacks: a line each, nothing changed.
    await client.begin('sale');
    const refused = await client.send('sale', 'back.xml', Buffer.from(orderDocument(order.code, { 'Статус заказа': 'Принят' })));
    expect(last(refused.answers).lines[0]).toBe('success');
    const unknown = await client.send('sale', 'unknown.xml', Buffer.from(orderDocument('BS-99999999', { Отменен: 'true' })));
    expect(last(unknown.answers).text).toMatch(/errors=1; first error: BS-99999999: no such order in the shop/);
    expect((await call<{ status: string }>(`${API}/customer/orders/${order.code}`, { headers: auth })).body.data!.status).toBe('shipped');

    // The documents 1C itself wrote (ArgentCrusade, 2.09): read whole, their orders unknown here.
    const real = await client.send('sale', 'documents-1c.xml', fixture('cml-ArgentCrusade-commerceml-orders.xml'));
    expect(last(real.answers).text).toMatch(/^success\ndocuments-1c.xml: orders=0 errors=2/);
  });
});

/** A fresh exchange session's cookie, as checkauth gives it. */
async function signedCookie(): Promise<string | undefined> {
  const res = await fetch(`${endpoint()}?type=sale&mode=checkauth`, {
    headers: { authorization: `Basic ${Buffer.from(`${LOGIN}:${PASSWORD}`).toString('base64')}` },
  });
  const lines = new TextDecoder('windows-1251').decode(await res.arrayBuffer()).split('\n');
  return lines[0] === 'success' ? `${lines[1]}=${lines[2]}` : undefined;
}

describe('the catalogue from 1C', () => {
  it('takes a zip in parts with import.xml, offers.xml and photos, answers progress while it works, and puts the goods on sale with sizes, stock and photos', async () => {
    const photos = await Promise.all([1, 2, 3].map((seed) => noisePhoto(480, 640, seed)));
    const pictures = [
      ...fixture('cml-carono-php-commerceml-import.xml')
        .toString('utf8')
        .matchAll(/<Картинка>([^<]+)<\/Картинка>/g),
    ].map((m) => m[1] as string);
    expect(pictures).toHaveLength(3);
    const client = onec();
    const run = await client.exchangeCatalogue({
      'import.xml': fixture('cml-carono-php-commerceml-import.xml'),
      'offers.xml': fixture('cml-carono-php-commerceml-offers.xml'),
      ...Object.fromEntries(pictures.map((p, i) => [p, photos[i]!])),
    });
    expect(client.zip).toBe(true);
    expect(client.fileLimit).toBe(FILE_LIMIT);
    expect(run.parts).toBeGreaterThan(1);
    for (const { file, answers } of run.imports) {
      expect(answers[0]!.lines[0], file).toBe('progress');
      expect(last(answers).lines[0], `${file}: ${last(answers).text}`).toBe('success');
    }
    expect(last(run.imports[1]!.answers).text).toMatch(/offers.xml: new=5 changed=0 unchanged=0 hidden=20 images=3 errors=0/);

    const boots = await listed('ботфорты');
    expect(boots.map((p) => p.name)).toEqual(['Женские ботфорты коричневые']);
    const detail = await product(boots[0]!.id);
    expect(detail.price).toBe(149_600);
    expect(detail.variants.map((v) => v.label)).toEqual(['40', '39']);
    expect(detail.variants.every((v) => v.available)).toBe(true);
    expect(detail.images).toHaveLength(3);
    // The full offers package replaced the generated catalogue: only 1C's goods are listed.
    await expect.poll(async () => (await call<{ total: number }>(`${API}/products?per_page=1`)).body.data!.total, { timeout: 15_000 }).toBe(2);

    // The same exchange again changes nothing.
    const again = await onec().exchangeCatalogue({
      'import.xml': fixture('cml-carono-php-commerceml-import.xml'),
      'offers.xml': fixture('cml-carono-php-commerceml-offers.xml'),
      ...Object.fromEntries(pictures.map((p, i) => [p, photos[i]!])),
    });
    expect(last(again.imports[1]!.answers).text).toMatch(/new=0 changed=0 unchanged=5 hidden=0 images=0 errors=0/);
  });

  it.each([
    [
      'dobromyslov (1C:UNF, 2.07)',
      ['cml-dobromyslov-commerceml-parser-import.xml', 'cml-dobromyslov-commerceml-parser-offers.xml'],
      /new=35 .* errors=8; first error: .*not in the catalogue file/,
    ],
    ['andrtechno (2.04, prices in USD)', ['cml-andrtechno-mod-exchange1c-import.xml', 'cml-andrtechno-mod-exchange1c-offers.xml'], /new=0 .* errors=121/],
    ['bigperson (2.08, colour characteristics)', ['cml-bigperson-exchange1c-import.xml', 'cml-bigperson-exchange1c-offers.xml'], /new=2 .* errors=0/],
    [
      'gillbeits (2.09 split: classifier, offers, prices, rests; the goods file is missing)',
      [
        'cml-gillbeits-commerceml-import-classifier.xml',
        'cml-gillbeits-commerceml-offers.xml',
        'cml-gillbeits-commerceml-prices.xml',
        'cml-gillbeits-commerceml-rests.xml',
      ],
      /new=0 .* errors=978/,
    ],
    ['dobromyslov nested groups (283 products, no offers)', ['cml-dobromyslov-commerceml-parser-import-nested-groups.xml'], /new=0 changed=0/],
  ])('applies real files of other programs: %s', async (_name, files, outcome) => {
    const names = files.map((_, i) => (i === 0 ? 'import.xml' : `offers${i}.xml`));
    const run = await onec().exchangeCatalogue(Object.fromEntries(files.map((f, i) => [names[i]!, fixture(f)])));
    for (const { file, answers } of run.imports) expect(last(answers).lines[0], `${file}: ${last(answers).text}`).toBe('success');
    expect(last(run.imports.at(-1)!.answers).text).toMatch(outcome);
  });

  it('weights and sizes from 1C ("Габарит_*" in metres, "Вес" in kilograms) become the product’s parcel, not attributes', async () => {
    await onec().exchangeCatalogue({
      'import.xml': fixture('cml-dobromyslov-commerceml-parser-import.xml'),
      'offers.xml': fixture('cml-dobromyslov-commerceml-parser-offers.xml'),
    });
    const [rug] = await listed('Prime Living 150x200x1 Котики');
    const res = await call<{ attributes?: { name: string }[] }>(`${API}/product/${rug!.id}`);
    expect(JSON.stringify(res.body.data)).not.toContain('Габарит');
    const { visitor } = await signedInOperator(server, 'catalogue.parcels@example.ru', 'admin');
    const page = await visitor.go(`/ops/products/${rug!.id}`);
    // 1,2 kg and 1,53 × 0,2 × 0,2 m in the file.
    expect(page.html).toMatch(/data-testid="ops-product-parcel">\s*Посылка: 1,2 кг, 153 × 20 × 20 см · вес и размеры из каталога/);
  });

  it('sizes and colours from 1C reach the product page', async () => {
    await onec().exchangeCatalogue({
      'import.xml': fixture('cml-bigperson-exchange1c-import.xml'),
      'offers.xml': fixture('cml-bigperson-exchange1c-offers.xml'),
    });
    const found = await listed('Test product 1');
    const detail = await product(found[0]!.id);
    expect(detail.variants.map((v) => v.label)).toEqual(['Бежевый', 'Желтый']);
    expect(detail.price).toBe(1_550_000);
  });
});

describe('bad input to the exchange', () => {
  it('refuses CommerceML 3.1, XML with entities and files cut short, and keeps the catalogue as it was', async () => {
    const before = (await call<{ total: number }>(`${API}/products?per_page=1`)).body.data!.total;
    const cases: [string, Buffer, RegExp][] = [
      [
        'products.xml',
        fixture('cml3-ArgentCrusade-commerceml-products.xml'),
        /CommerceML 3\.1 is not supported: set the exchange in 1C .* to schema version 2\.03–2\.10/,
      ],
      [
        'entities.xml',
        Buffer.from(
          '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;">]><КоммерческаяИнформация ВерсияСхемы="2.08">&b;</КоммерческаяИнформация>',
        ),
        /declares XML entities/,
      ],
      ['cut.xml', fixture('cml-carono-php-commerceml-import.xml').subarray(0, 30_000), /cut short|line \d+/],
      ['yml.xml', fixture('yml-serkin-ymlparser-valid_xml.xml'), /not a CommerceML file/],
      ['noversion.xml', Buffer.from('<КоммерческаяИнформация><Каталог/></КоммерческаяИнформация>'), /does not say its schema version/],
    ];
    const client = onec();
    await client.begin('catalog');
    for (const [name, content, reason] of cases) {
      await client.send('catalog', name, content);
      const answers = await client.import('catalog', name);
      expect(last(answers).lines[0], name).toBe('failure');
      expect(last(answers).lines[1], name).toMatch(reason);
    }
    expect((await call<{ total: number }>(`${API}/products?per_page=1`)).body.data!.total).toBe(before);
  });

  it('refuses a zip slip, paths outside its folder, parts over file_limit, unknown modes and types, and files never sent', async () => {
    const client = onec();
    await client.begin('catalog');
    // yazl will not write such a name: a same-length one is written and its bytes changed, as an attacker would.
    const archive = await zipOf({ 'aaaaa/escape.xml': '<x/>' });
    await client.send('catalog', 'evil.zip', Buffer.from(archive.toString('latin1').replaceAll('aaaaa/escape.xml', '../../escape.xml'), 'latin1'));
    const slip = await client.import('catalog', 'import.xml');
    expect(last(slip).lines[0]).toBe('failure');
    expect(last(slip).lines[1]).toMatch(/invalid relative path|leads outside the folder/);
    // A photo sent on its own makes the folder import_files, which is not a file to import.
    await client.send('catalog', 'import_files/photo.jpg', Buffer.from('not a photo'));
    const table: [string, () => Promise<Answer>, number, RegExp][] = [
      ['a path leaving the folder', () => client.call('catalog', 'file', { filename: '../../etc/passwd', body: Buffer.from('x') }), 400, /not a path inside/],
      ['an absolute Windows path', () => client.call('catalog', 'import', { filename: '..\\..\\boot.ini' }), 400, /not a path inside/],
      ['a part over file_limit', () => client.call('catalog', 'file', { filename: 'big.xml', body: Buffer.alloc(FILE_LIMIT + 1, 32) }), 413, /over file_limit/],
      [
        'a part sent without its length, over file_limit',
        async () => {
          const cookie = await signedCookie();
          const body = new ReadableStream<Uint8Array>({
            start(controller) {
              for (let i = 0; i < 5; i++) controller.enqueue(new Uint8Array(FILE_LIMIT / 4).fill(32));
              controller.close();
            },
          });
          const res = await fetch(`${endpoint()}?type=catalog&mode=file&filename=chunked.xml`, {
            method: 'POST',
            headers: { cookie: cookie ?? '' },
            body,
            duplex: 'half',
          } as RequestInit);
          const text = new TextDecoder('windows-1251').decode(await res.arrayBuffer());
          return { status: res.status, text, lines: text.split('\n') };
        },
        413,
        /over file_limit/,
      ],
      ['a file never sent', () => client.call('catalog', 'import', { filename: 'never.xml' }), 404, /no file "never.xml" was sent/],
      ['a folder, not a file', () => client.call('catalog', 'import', { filename: 'import_files' }), 404, /no file "import_files" was sent/],
      [
        'a method outside the protocol',
        async () => {
          const res = await fetch(`${endpoint()}?type=catalog&mode=init`, { method: 'PUT', headers: { cookie: (await signedCookie()) ?? '' } });
          const text = new TextDecoder('windows-1251').decode(await res.arrayBuffer());
          return { status: res.status, text, lines: text.split('\n') };
        },
        405,
        /the exchange takes GET and POST, not PUT/,
      ],
      ['an unknown mode', () => client.call('catalog', 'format-c'), 400, /unknown mode "format-c"/],
      ['an unknown type', () => client.call('stock', 'init'), 400, /unknown type "stock"/],
      ['query of the catalogue', () => client.call('catalog', 'query'), 400, /mode=query is of type=sale/],
    ];
    for (const [name, request, status, reason] of table) {
      const answer = await request();
      expect(answer.status, name).toBe(status);
      expect(answer.lines[0], name).toBe('failure');
      expect(answer.lines[1], name).toMatch(reason);
    }
  });

  it('answers 401 without a session or with wrong credentials, and throttles repeated failures (last: it blocks this address)', async () => {
    const bad = new OneC(endpoint(), LOGIN, 'wrong password');
    const forged: Answer = await (async () => {
      const res = await fetch(`${endpoint()}?type=catalog&mode=init`, { headers: { cookie: 'shop_exchange=9999999999.forged' } });
      return { status: res.status, text: await res.text(), lines: [] };
    })();
    expect(forged.status).toBe(401);
    expect((await onec().call('catalog', 'init')).status).toBe(401);
    const refused = await bad.call('catalog', 'checkauth', { basic: true });
    expect(refused.status).toBe(401);
    expect(refused.lines).toEqual(['failure', 'wrong login or password (EXCHANGE_LOGIN, EXCHANGE_PASSWORD)']);
    let status = 0;
    for (let i = 0; i < 12 && status !== 429; i++) status = (await bad.call('catalog', 'checkauth', { basic: true })).status;
    expect(status).toBe(429);
    // The right password waits too, from this address.
    expect((await onec().call('catalog', 'checkauth', { basic: true })).status).toBe(429);
  });
});
