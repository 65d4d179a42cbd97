// What `npm run import` accepts besides a file (docs/import.md "Inputs"): a folder, a .zip with the feed and
// its photos, an address; and the hostile ones: zip slip, zip bombs, archives that lie about sizes, private
// addresses, files over the limit.
import { createServer, type Server } from 'node:http';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ImportInputError, importYml } from '~/features/import/import.server.ts';
import { prepareInput } from '~/features/import/input.server.ts';
import type { Database } from '~/lib/db/client.ts';
import { migratedDatabase } from '../support/seeded-database.ts';
import { zipOf } from '../support/one-c.ts';

const work = mkdtempSync(join(tmpdir(), 'import-inputs-'));
let opened: Awaited<ReturnType<typeof migratedDatabase>>;
let database: Database;
let site: Server;
let siteUrl: string;
let feedText: string;

const feed = (offers: string) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<yml_catalog><shop><categories><category id="1">Сумки</category></categories><offers>\n${offers}</offers></shop></yml_catalog>\n`;
const offer = (id: string, picture = '') =>
  `<offer id="${id}"><price>1000</price><categoryId>1</categoryId>${picture ? `<picture>${picture}</picture>` : ''}<vendor>Prada</vendor><name>Сумка ${id}</name></offer>\n`;

const saved = (name: string, content: Buffer | string) => {
  const path = join(work, name);
  writeFileSync(path, content);
  return path;
};

beforeAll(async () => {
  feedText = feed(offer('u1') + offer('u2'));
  site = createServer((req, res) => {
    if (req.url === '/feed.yml') return res.writeHead(200, { 'content-type': 'application/xml' }).end(feedText);
    return res.writeHead(404).end();
  });
  await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  opened = await migratedDatabase('inputs');
  database = opened.database;
});
afterAll(async () => {
  await opened.dispose();
  await new Promise((r) => site.close(r));
  rmSync(work, { recursive: true, force: true });
});

describe('inputs', () => {
  it('a .zip with the feed in a folder and its photos beside it', async () => {
    const photo = await sharp({ create: { width: 800, height: 1000, channels: 3, background: '#8a5a44' } })
      .jpeg()
      .toBuffer();
    const archive = saved('shop.zip', await zipOf({ 'export/feed.xml': feed(offer('z1', 'photos/z1.jpg')), 'export/photos/z1.jpg': photo }));
    const input = await prepareInput(archive, { maxBytes: 10 * 1024 * 1024 });
    try {
      const result = await importYml(database, input.path, { photos: { dir: join(work, 'media') } });
      expect(result.summary).toMatchObject({ new: 1, images: 1, errors: 0 });
    } finally {
      input.cleanup();
    }
    expect(existsSync(input.path)).toBe(false);
    expect(
      (await database.query("SELECT width, height FROM product_images i JOIN products p ON p.id = i.product_id WHERE p.external_id = 'yml:o:z1'")).rows,
    ).toEqual([{ width: 720, height: 900 }]);
  });

  it('an address, downloaded to a temporary file; refused on a private address unless allowed', async () => {
    const refused = await prepareInput(`${siteUrl}/feed.yml`, { maxBytes: 1024 * 1024 }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ImportInputError);
    expect((refused as Error).message).toContain('127.0.0.1 is a private address');
    const input = await prepareInput(`${siteUrl}/feed.yml`, { maxBytes: 1024 * 1024, allowPrivate: true });
    try {
      expect(readFileSync(input.path, 'utf8')).toBe(feedText);
      expect((await importYml(database, input.path, { partial: true })).summary).toMatchObject({ new: 2 });
    } finally {
      input.cleanup();
    }
    const small = await prepareInput(`${siteUrl}/feed.yml`, { maxBytes: 100, allowPrivate: true }).catch((e: unknown) => e);
    expect((small as Error).message).toMatch(/over 100/);
    const missing = await prepareInput(`${siteUrl}/none.yml`, { maxBytes: 1024, allowPrivate: true }).catch((e: unknown) => e);
    expect((missing as Error).message).toContain('the server answered 404');
    expect(((await prepareInput('ftp://example.ru/feed.yml', { maxBytes: 1024 }).catch((e: unknown) => e)) as Error).message).toContain('only http and https');
  });
});

describe('hostile archives are refused whole', () => {
  it('zip slip: a name that leads outside the folder', async () => {
    // yazl will not write such a name; a same-length one is written and its bytes changed, as an attacker would.
    const archive = await zipOf({ 'aa/evil.yml': feed(offer('x1')) });
    const patched = Buffer.from(archive.toString('latin1').replaceAll('aa/evil.yml', '../evil.yml'), 'latin1');
    const error = await prepareInput(saved('slip.zip', patched), { maxBytes: 1024 * 1024 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ImportInputError);
    expect((error as Error).message).toMatch(/invalid relative path|leads outside/);
    expect(existsSync(join(work, 'evil.yml'))).toBe(false);
  });

  it('a zip bomb: over the limit once unpacked, or compressed as no catalogue is', async () => {
    const zeros = Buffer.alloc(40 * 1024 * 1024);
    const bomb = saved('bomb.zip', await zipOf({ 'feed.yml': zeros }));
    expect(readFileSync(bomb).length).toBeLessThan(100 * 1024);
    const over = await prepareInput(bomb, { maxBytes: 10 * 1024 * 1024 }).catch((e: unknown) => e);
    expect((over as Error).message).toMatch(/over the import's limit of 10485760 bytes once unpacked/);
    const ratio = await prepareInput(bomb, { maxBytes: 1024 * 1024 * 1024 }).catch((e: unknown) => e);
    expect((ratio as Error).message).toMatch(/compressed \d+× — not a catalogue/);
  });

  it('an archive that lies about a size', async () => {
    const archive = await zipOf({ 'feed.yml': feed(offer('y1')) }, false);
    // The central directory's uncompressed size of the stored file made smaller than it is.
    const patched = Buffer.from(archive);
    const central = patched.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    patched.writeUInt32LE(10, central + 24);
    const error = await prepareInput(saved('liar.zip', patched), { maxBytes: 1024 * 1024 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ImportInputError);
  });

  it('a file that is not a zip at all, named .zip, is read as the file it is', async () => {
    const path = saved('plain.zip', feed(offer('w1')));
    const input = await prepareInput(path, { maxBytes: 1024 * 1024 });
    expect(input.path).toBe(path);
    input.cleanup();
  });
});
