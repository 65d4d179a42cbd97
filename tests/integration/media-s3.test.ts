// Product photos in S3-compatible storage (issue 41; docs/operations.md "Photos in S3-compatible storage"),
// against a real S3 protocol server on loopback (s3rver): the console's upload and an import write the
// renditions and the description to the bucket with year-long cache headers, pages give the bucket's
// addresses (and allow them in their CSP), the shop's old /media/ addresses are sent there, and `npm run
// media:migrate` copies a folder into the bucket and back — what is missing only, so a run cut short is
// taken up and a second run copies nothing. On PGlite, and on PostgreSQL in CI.
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storePhoto } from '~/features/media/media.server.ts';
import { startS3Server, type S3Server } from '../support/s3-server.ts';
import { signedInOperator, Visitor } from '../support/ops.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

const work = mkdtempSync(join(tmpdir(), 'media-s3-'));
let s3: S3Server;
let shop: TestServer;
let admin: Visitor;
let photos: Server;
let photosUrl = '';

/** A photo of its own (a gradient of this hue), as a JPEG. */
const photo = (hue: number) =>
  sharp({ create: { width: 900, height: 1200, channels: 3, background: { r: hue, g: 255 - hue, b: 128 } } })
    .jpeg({ quality: 90 })
    .toBuffer();

const run = (script: string, args: string[], env: Record<string, string>) =>
  new Promise<{ status: number | null; stdout: string; stderr: string }>((done) => {
    const child = spawn(process.execPath, [script, ...args], { env: { ...process.env, NODE_ENV: 'test', ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('close', (status) => done({ status, stdout, stderr }));
  });

beforeAll(async () => {
  s3 = await startS3Server();
  const jpeg = await photo(40);
  photos = createServer((req, res) => {
    res.writeHead(req.url === '/red.jpg' ? 200 : 404, { 'content-type': 'image/jpeg' });
    res.end(req.url === '/red.jpg' ? jpeg : undefined);
  });
  await new Promise<void>((r) => photos.listen(0, '127.0.0.1', r));
  photosUrl = `http://127.0.0.1:${(photos.address() as AddressInfo).port}`;
  shop = await startTestServer({ label: 'media-s3', seedProducts: 10, env: { ...s3.env, IMPORT_ALLOW_PRIVATE: '1' } });
  admin = (await signedInOperator(shop, 'admin@shop.ru', 'admin')).visitor;
}, 120_000);
afterAll(async () => {
  await shop?.stop();
  await s3?.stop();
  photos?.close();
  rmSync(work, { recursive: true, force: true });
});

describe('photos in the bucket', () => {
  it('the console’s upload: renditions in the bucket for a year, the page giving the bucket’s addresses', async () => {
    const id = 4;
    const page = await admin.go(`/ops/products/${id}`);
    const form = new FormData();
    form.set('_csrf', Visitor.formToken(page.html));
    form.set('action', 'photo_add');
    form.set('photo', new Blob([new Uint8Array(await photo(200))], { type: 'image/jpeg' }), 'blue.jpg');
    const added = await fetch(`${shop.baseUrl}/ops/products/${id}`, {
      method: 'POST',
      body: form,
      redirect: 'manual',
      headers: { cookie: [...admin.cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
    });
    expect(added.status).toBe(303);
    const product = async () =>
      ((await (await fetch(`${shop.baseUrl}/api/v1/ecommerce-core/product/${id}`)).json()) as { data: { images: { src: string }[] } }).data;
    let images: { src: string }[] = [];
    for (let i = 0; i < 60 && !images.some((im) => im.src.startsWith(s3.endpoint)); i++) {
      images = (await product()).images;
      await new Promise((r) => setTimeout(r, 250));
    }
    const src = images.find((im) => im.src.startsWith(s3.endpoint))?.src ?? '';
    expect(src).toMatch(new RegExp(`^${s3.endpoint}/${s3.bucket}/[0-9a-f]{24}-w\\d+\\.webp$`));
    const object = await fetch(src);
    expect(object.status).toBe(200);
    expect(object.headers.get('content-type')).toBe('image/webp');
    expect(object.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const name = src.slice(src.lastIndexOf('/') + 1);
    const stem = name.replace(/-w\d+\.webp$/, '');
    expect((await fetch(s3.url(name.replace('.webp', '.avif')))).headers.get('content-type')).toBe('image/avif');
    expect((await fetch(s3.url(`${stem}.json`))).status).toBe(200);
    const original = await fetch(s3.url(`${stem}-original.jpeg`));
    expect(original.headers.get('content-type')).toBe('image/jpeg');
    expect(new Uint8Array(await original.arrayBuffer()).byteLength).toBeGreaterThan(1000);
    // The product page: the bucket's address in its markup, and its origin among the page's image sources.
    const html = await fetch(`${shop.baseUrl}/p/${id}`);
    expect(await html.text()).toContain(`${s3.endpoint}/${s3.bucket}/${stem}`);
    expect(html.headers.get('content-security-policy')).toMatch(new RegExp(`img-src [^;]*'self'[^;]*${s3.endpoint.replace(/[.:/]/g, '\\$&')}`));
    // Nothing in the shop's own folder; its /media/ address of the photo sends the browser to the bucket.
    expect(readdirSync(shop.database.dataDir).includes('media') ? readdirSync(join(shop.database.dataDir, 'media')) : []).toEqual([]);
    const old = await fetch(`${shop.baseUrl}/media/${name}`, { redirect: 'manual' });
    expect(old.status).toBe(301);
    expect(old.headers.get('location')).toBe(src);
  });

  it('an import’s photos go to the bucket too', async () => {
    const feed = join(work, 'feed.yml');
    writeFileSync(
      feed,
      `<?xml version="1.0" encoding="UTF-8"?>\n<yml_catalog date="2026-11-28"><shop><name>T</name><currencies><currency id="RUR" rate="1"/></currencies>` +
        `<categories><category id="1">Платья</category></categories><offers>\n` +
        `<offer id="s3-1" available="true"><price>12990</price><currencyId>RUR</currencyId><categoryId>1</categoryId><vendor>S3 Test</vendor>` +
        `<name>Платье из бакета</name><picture>${photosUrl}/red.jpg</picture><param name="Размер">42</param><count>2</count></offer>\n` +
        `</offers></shop></yml_catalog>\n`,
    );
    const imported = await run('scripts/import.ts', [feed, '--json', '--report', join(work, 'report.csv')], {
      ...shop.database.env,
      ...s3.env,
      IMPORT_ALLOW_PRIVATE: '1',
    });
    expect(imported.status, imported.stderr).toBe(0);
    expect(JSON.parse(imported.stdout.trim().split('\n').at(-1) as string)).toMatchObject({ new: 1, images: 1, errors: 0 });
    const expected = (await storePhoto(await photo(40), join(work, 'reference'))).urlTemplate.replace('/media/', '').replace('{w}', '720');
    expect((await fetch(s3.url(expected))).status).toBe(200);
  });
});

describe('npm run backup with the photos in a bucket', () => {
  it('says the photos are not in the file and how to keep them', async () => {
    const file = join(work, 'shop.tar.gz');
    const backup = await run('scripts/backup.ts', [file], { ...shop.database.env, ...s3.env });
    expect(backup.status, backup.stderr).toBe(0);
    expect(backup.stdout).toContain(`Product photos are in the bucket s3://${s3.bucket}, not in this file`);
    expect(backup.stdout).toContain('npm run media:migrate -- --to local');
    expect(backup.stdout.trim().split('\n').at(-1)).toBe(file);
  });
});

describe('npm run media:migrate', () => {
  it('copies a folder into the bucket and back: only what is missing, so a second run copies nothing', async () => {
    const dataDir = join(work, 'data');
    const folder = join(dataDir, 'media');
    mkdirSync(folder, { recursive: true });
    const stored = await Promise.all([100, 150, 250].map(async (hue) => storePhoto(await photo(hue), folder)));
    const names = readdirSync(folder).sort();
    expect(names.length).toBe(stored.length * 6); // the original, two widths × (webp, avif), the description
    const env = { DATA_DIR: dataDir, ...s3.env, MEDIA_STORAGE: 'local' };

    const first = await run('scripts/media-migrate.ts', [], env);
    expect(first.status, first.stderr).toBe(0);
    const firstReport = JSON.parse(first.stdout.trim().split('\n').at(-1) as string) as { copied: number; present: number };
    expect(firstReport.copied).toBe(names.length);
    for (const name of names) expect((await fetch(s3.url(name))).status, name).toBe(200);

    const again = await run('scripts/media-migrate.ts', ['--to', 's3'], env);
    expect(JSON.parse(again.stdout.trim().split('\n').at(-1) as string)).toEqual({ copied: 0, bytes: 0, present: names.length });
    expect(again.stdout).toContain('0 copied');

    // Back into an empty folder: every object of the bucket (the shop's uploads above too), then nothing.
    const back = join(work, 'back');
    const restored = await run('scripts/media-migrate.ts', ['--to', 'local'], { ...env, DATA_DIR: back });
    expect(restored.status, restored.stderr).toBe(0);
    const backNames = readdirSync(join(back, 'media')).sort();
    expect(backNames).toEqual(expect.arrayContaining(names));
    const twice = await run('scripts/media-migrate.ts', ['--to', 'local'], { ...env, DATA_DIR: back });
    expect(JSON.parse(twice.stdout.trim().split('\n').at(-1) as string)).toMatchObject({ copied: 0 });

    // Cut short: a rendition lost from the folder is all the next run copies back.
    rmSync(join(back, 'media', names[0] as string));
    const resumed = await run('scripts/media-migrate.ts', ['--to', 'local'], { ...env, DATA_DIR: back });
    expect(JSON.parse(resumed.stdout.trim().split('\n').at(-1) as string)).toMatchObject({ copied: 1 });
  });

  it('refuses without a bucket, saying which settings are missing', async () => {
    const refused = await run('scripts/media-migrate.ts', [], {
      DATA_DIR: join(work, 'none'),
      S3_BUCKET: '',
      S3_ENDPOINT: '',
      S3_ACCESS_KEY_ID: '',
      S3_SECRET_ACCESS_KEY: '',
    });
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain('S3_BUCKET, S3_ENDPOINT, S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY');
  });
});
