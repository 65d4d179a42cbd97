// The photo pipeline of the import (docs/import.md "Photos"): photos fetched from a feed's addresses (a
// local HTTP server stands in for a shop's CDN) or read beside the feed, checked, converted to WebP and
// AVIF at the pages' widths, stored once per content, refused from private addresses unless allowed, and
// served by the shop with immutable caching and AVIF to browsers that take it.
import { createServer, type Server } from 'node:http';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { importYml } from '~/features/import/import.server.ts';
import { isPrivateAddress } from '~/features/media/media.server.ts';
import type { Database } from '~/lib/db/client.ts';
import { emptyCatalogue } from '../support/fresh-database.ts';
import { migratedDatabase } from '../support/seeded-database.ts';
import { startTestServer } from '../support/server.ts';

const work = mkdtempSync(join(tmpdir(), 'import-photos-'));
let opened: Awaited<ReturnType<typeof migratedDatabase>>;
let database: Database;
let cdn: Server;
let cdnUrl: string;
let photo: Buffer;
let small: Buffer;
/** The /down/… photos that answer; the others hang up without a word, like a host that is down. */
const reachable = new Set<string>();
/** How often each /down/… photo was asked for: a failed fetch is tried twice more. */
const asked = new Map<string, number>();

/** A photo with a real photo's entropy (noise compresses as badly as fabric and skin do). */
async function noisePhoto(width: number, height: number, format: 'jpeg' | 'png'): Promise<Buffer> {
  const raw = Buffer.alloc(width * height * 3);
  for (let i = 0; i < raw.length; i++) raw[i] = (i * 7919 + ((i / 3) | 0) * 104_729) % 251;
  const image = sharp(raw, { raw: { width, height, channels: 3 } });
  return format === 'jpeg' ? image.jpeg({ quality: 85 }).toBuffer() : image.png().toBuffer();
}

beforeAll(async () => {
  photo = await noisePhoto(1200, 1600, 'jpeg');
  small = await noisePhoto(400, 300, 'png');
  cdn = createServer((req, res) => {
    if (req.url === '/a.jpg') return res.writeHead(200, { 'content-type': 'image/jpeg' }).end(photo);
    if (req.url === '/b.png') return res.writeHead(200, { 'content-type': 'image/png' }).end(small);
    if (req.url === '/moved.jpg') return res.writeHead(302, { location: '/a.jpg' }).end();
    if (req.url === '/text.jpg') return res.writeHead(200, { 'content-type': 'image/jpeg' }).end('<html>not a photo</html>');
    if (req.url === '/huge.jpg') return res.writeHead(200, { 'content-length': String(25 * 1024 * 1024) }).end();
    if (req.url?.startsWith('/down/')) {
      asked.set(req.url, (asked.get(req.url) ?? 0) + 1);
      if (reachable.has(req.url)) return res.writeHead(200, { 'content-type': 'image/png' }).end(small);
      return req.socket.destroy();
    }
    return res.writeHead(404).end();
  });
  await new Promise<void>((r) => cdn.listen(0, '127.0.0.1', r));
  cdnUrl = `http://127.0.0.1:${(cdn.address() as AddressInfo).port}`;
  opened = await migratedDatabase('photos');
  database = opened.database;
});
afterAll(async () => {
  await opened.dispose();
  await new Promise((r) => cdn.close(r));
  rmSync(work, { recursive: true, force: true });
});
beforeEach(() => emptyCatalogue(database));

const offer = (id: string, pictures: string[]) =>
  `<offer id="${id}" available="true"><price>1000</price><currencyId>RUB</currencyId><categoryId>1</categoryId>` +
  pictures.map((p) => `<picture>${p}</picture>`).join('') +
  `<vendor>Prada</vendor><name>Сумка ${id}</name></offer>\n`;
const feed = (offers: string) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<yml_catalog><shop><categories><category id="1">Сумки</category></categories><offers>\n${offers}</offers></shop></yml_catalog>\n`;

function feedFolder(name: string, offers: string): { dir: string; path: string } {
  const dir = join(work, name);
  mkdirSync(join(dir, 'photos'), { recursive: true });
  const path = join(dir, 'feed.yml');
  writeFileSync(path, feed(offers));
  return { dir, path };
}

describe('photos of an import', () => {
  it('fetches, converts and stores each photo once; a bad one is one error line; a re-import fetches nothing', async () => {
    const { dir, path } = feedFolder('one', '');
    writeFileSync(join(dir, 'photos', 'c.png'), small);
    writeFileSync(
      path,
      feed(
        offer('p1', [`${cdnUrl}/a.jpg`, `${cdnUrl}/b.png`]) +
          offer('p2', [`${cdnUrl}/moved.jpg`]) +
          offer('p3', [`${cdnUrl}/text.jpg`, `${cdnUrl}/huge.jpg`, `${cdnUrl}/missing.jpg`]) +
          offer('p4', ['photos/c.png', '../../etc/passwd']),
      ),
    );
    const media = join(work, 'media-one');
    const first = await importYml(database, dir, { photos: { dir: media, allowPrivate: true } });
    expect(first.problems.filter((p) => p.severity === 'error').map((p) => [p.id, p.reason.replace(cdnUrl, '')])).toEqual([
      ['p3', expect.stringMatching(/^photo \/text\.jpg: not an image/)],
      ['p3', expect.stringMatching(/^photo \/huge\.jpg: the photo is 26214400 bytes, over 20971520/)],
      ['p3', 'photo /missing.jpg: the server answered 404'],
      ['p4', "photo ../../etc/passwd: the path leads outside the feed's folder"],
    ]);
    // Four photos fetched or read (a.jpg, b.png, a.jpg again behind the redirect, c.png beside the feed),
    // two stored: the redirect's is a.jpg's content, c.png is b.png's.
    expect(first.summary.images).toBe(4);
    const files = readdirSync(media).sort();
    expect(files.filter((f) => f.endsWith('.json'))).toHaveLength(2);
    expect(files.filter((f) => f.endsWith('.avif'))).toHaveLength(3);
    // Each stored photo's original beside its renditions: a.jpg's and b.png's.
    expect(files.filter((f) => f.includes('-original.')).map((f) => f.slice(f.lastIndexOf('.')))).toEqual(expect.arrayContaining(['.jpeg', '.png']));
    expect(files.filter((f) => f.includes('-original.'))).toHaveLength(2);
    const images = await database.query(
      `SELECT p.name, i.position, i.url_template, i.widths, i.width, i.height, i.color FROM product_images i JOIN products p ON p.id = i.product_id ORDER BY p.name, i.position`,
    );
    const rowsOf = images.rows as { name: string; url_template: string; widths: number[]; width: number; height: number; color: string }[];
    expect(rowsOf.map((r) => [r.name, r.widths, r.width, r.height])).toEqual([
      ['Сумка p1', [360, 720], 720, 960],
      ['Сумка p1', [360], 360, 270],
      ['Сумка p2', [360, 720], 720, 960],
      ['Сумка p4', [360], 360, 270],
    ]);
    expect(rowsOf[0]?.url_template).toMatch(/^\/media\/[0-9a-f]{24}-w\{w\}\.webp$/);
    expect(rowsOf[0]?.url_template).toBe(rowsOf[2]?.url_template);
    expect(rowsOf[0]?.color).toMatch(/^#[0-9a-f]{6}$/);

    // Products whose photos all came are not fetched again; p3's and p4's failed photos are tried again,
    // fail as before and cost their lines again, and leave both products unchanged.
    const again = await importYml(database, dir, { photos: { dir: media, allowPrivate: true } });
    expect(again.summary).toMatchObject({ new: 0, changed: 0, unchanged: 4, images: 0, errors: 4 });
  });

  it('imports a feed whose photos do not answer twice: the second run finds it unchanged, still reports the photos, and fetches one once it answers', async () => {
    // 30 offers: 10 products of 3 sizes, each with a photo whose host hangs up; the first three also have one that comes.
    const sizes = ['S', 'M', 'L'];
    const offers = Array.from({ length: 10 }, (_, n) =>
      sizes
        .map(
          (size) =>
            `<offer id="d${n}${size}" group_id="d${n}" available="true"><price>1000</price><currencyId>RUB</currencyId><categoryId>1</categoryId>` +
            (n < 3 ? `<picture>${cdnUrl}/a.jpg</picture>` : '') +
            `<picture>${cdnUrl}/down/d${n}.png</picture><vendor>Prada</vendor><name>Сумка d${n}</name><param name="Размер">${size}</param></offer>\n`,
        )
        .join(''),
    ).join('');
    const { path } = feedFolder('down', offers);
    // The retries' waits (0.5 s, then 1.5 s) shortened: the count of fetches, not the clock, is what is checked.
    const options = { photos: { dir: join(work, 'media-down'), allowPrivate: true, retryDelayMs: 10 } };
    const version = async () => (await database.query('SELECT last_value::text || is_called::text AS v FROM catalog_version')).rows[0]?.['v'];
    const images = async () =>
      (
        await database.query(
          `SELECT p.external_id, i.position, i.source_url FROM product_images i JOIN products p ON p.id = i.product_id ORDER BY p.external_id, i.position`,
        )
      ).rows.map((r) => `${String(r['external_id'])}#${String(r['position'])} ${String(r['source_url']).replace(cdnUrl, '')}`);
    const photoErrors = (problems: { severity: string; id: string; reason: string }[]) =>
      problems
        .filter((p) => p.severity === 'error')
        .map((p) => `${p.id} ${p.reason.replace(cdnUrl, '')}`)
        .sort();

    const first = await importYml(database, path, options);
    expect(first.summary).toMatchObject({ new: 30, changed: 0, unchanged: 0, images: 1, errors: 10 });
    expect(photoErrors(first.problems)).toEqual(Array.from({ length: 10 }, (_, n) => `d${n}S photo /down/d${n}.png: could not be fetched (socket hang up)`));
    expect(Object.fromEntries(asked), 'each photo that hangs up tried three times, once per product').toEqual(
      Object.fromEntries(Array.from({ length: 10 }, (_, n) => [`/down/d${n}.png`, 3])),
    );
    const stored = await images();
    expect(stored).toEqual(['yml:g:d0#0 /a.jpg', 'yml:g:d1#0 /a.jpg', 'yml:g:d2#0 /a.jpg']);
    const before = await version();

    // The same file again: the photos fail as they did, so nothing is written and the catalogue does not move.
    const second = await importYml(database, path, options);
    expect(second.summary).toMatchObject({ new: 0, changed: 0, unchanged: 30, hidden: 0, images: 0, errors: 10 });
    expect(photoErrors(second.problems)).toEqual(photoErrors(first.problems));
    expect(await version()).toBe(before);
    expect(await images()).toEqual(stored);

    // A photo that answers now is fetched, and its product (three sizes) is changed.
    reachable.add('/down/d1.png');
    const third = await importYml(database, path, options);
    expect(third.summary).toMatchObject({ new: 0, changed: 3, unchanged: 27, images: 1, errors: 9 });
    expect(await version()).not.toBe(before);
    expect(await images()).toEqual(['yml:g:d0#0 /a.jpg', 'yml:g:d1#0 /a.jpg', 'yml:g:d1#1 /down/d1.png', 'yml:g:d2#0 /a.jpg']);
    const after = await version();
    const fourth = await importYml(database, path, options);
    expect(fourth.summary).toMatchObject({ changed: 0, unchanged: 30, images: 0, errors: 9 });
    expect(await version()).toBe(after);
  }, 60_000);

  it('refuses private addresses unless IMPORT_ALLOW_PRIVATE', async () => {
    const { path } = feedFolder('private', offer('q1', [`${cdnUrl}/a.jpg`, 'http://169.254.169.254/latest/meta-data', 'ftp://example.ru/a.jpg']));
    const result = await importYml(database, path, { photos: { dir: join(work, 'media-private') } });
    expect(result.problems.map((p) => p.reason)).toEqual([
      'photo http://127.0.0.1' + cdnUrl.slice('http://127.0.0.1'.length) + '/a.jpg: 127.0.0.1 is a private address (IMPORT_ALLOW_PRIVATE=1 allows it)',
      'photo http://169.254.169.254/latest/meta-data: 169.254.169.254 is a private address (IMPORT_ALLOW_PRIVATE=1 allows it)',
      'photo ftp://example.ru/a.jpg: ftp: addresses are not fetched',
    ]);
    expect(result.summary.images).toBe(0);
  });

  it.each([
    ['127.0.0.1', true],
    ['10.1.2.3', true],
    ['172.20.0.1', true],
    ['192.168.1.1', true],
    ['169.254.169.254', true],
    ['100.64.0.1', true],
    ['::1', true],
    ['fe80::1', true],
    ['fd00::1', true],
    ['::ffff:127.0.0.1', true],
    ['77.88.55.242', false],
    ['2a02:6b8::2:242', false],
  ])('%s is private: %s', (address, expected) => {
    expect(isPrivateAddress(address)).toBe(expected);
  });
});

describe('the shop serves imported photos', () => {
  it('with immutable caching, AVIF to browsers that take it, and on the product page', async () => {
    const { path } = feedFolder('served', offer('s1', [`${cdnUrl}/a.jpg`]));
    const server = await startTestServer({
      seedProducts: 20,
      label: 'photos-served',
      // Imported into the server's own database and DATA_DIR before it starts.
      prepare: async (db, own) => {
        await importYml(db, path, { partial: true, photos: { dir: join(own.dataDir, 'media'), allowPrivate: true } });
        const [row] = (
          await db.query("SELECT p.id, p.slug, i.url_template FROM products p JOIN product_images i ON i.product_id = p.id WHERE p.external_id = 'yml:o:s1'")
        ).rows as { id: number; slug: string; url_template: string }[];
        return row;
      },
    });
    try {
      const product = server.prepared;
      expect(product).toBeDefined();
      const url = `${server.baseUrl}${product?.url_template.replace('{w}', '720')}`;
      const avif = await fetch(url, { headers: { accept: 'image/avif,image/webp,*/*' } });
      expect(avif.status).toBe(200);
      expect(avif.headers.get('content-type')).toBe('image/avif');
      expect(avif.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(avif.headers.get('vary')).toBe('accept');
      const avifBytes = (await avif.arrayBuffer()).byteLength;
      const webp = await fetch(url, { headers: { accept: 'image/webp,*/*' } });
      expect(webp.headers.get('content-type')).toBe('image/webp');
      const webpBytes = (await webp.arrayBuffer()).byteLength;
      expect((await sharp(Buffer.from(await (await fetch(url)).arrayBuffer())).metadata()).width).toBe(720);
      expect(avifBytes).toBeGreaterThan(1000);
      expect(webpBytes).toBeGreaterThan(1000);
      expect((await fetch(`${server.baseUrl}/media/..%2f..%2fetc%2fpasswd`)).status).toBe(404);
      expect((await fetch(`${server.baseUrl}/media/${'0'.repeat(24)}-w720.webp`)).status).toBe(404);
      const page = await (await fetch(`${server.baseUrl}/p/${product?.id}/${product?.slug}`)).text();
      expect(page).toContain(product?.url_template.replace('{w}', '720'));
    } finally {
      await server.stop();
    }
  });
});
