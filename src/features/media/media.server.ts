// The photo pipeline (issue 23, docs/import.md "Photos"): a product photo from a feed's URL, a file beside
// the feed, or 1C's upload is checked (its content sniffed, at most 20 MB and 50 megapixels), converted once
// with sharp to WebP and AVIF at the widths the pages use, named by the hash of its content (the same photo
// in two products is stored once), given a placeholder colour, and kept in the shop's media storage
// (media.storage.server.ts): DATA_DIR/media, which the front serves with immutable caching
// (src/lib/http/media-files.ts), or an S3-compatible bucket. Relative imports only: the import CLI loads it.
import { createHash } from 'node:crypto';
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { createWriteStream } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { pipeline } from 'node:stream/promises';
import http from 'node:http';
import https from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { contentTypeOf, folderStorage, type MediaStorage } from './media.storage.server.ts';
// The widths product cards and pages ask for, as the generated catalogue's photos have them.
import { IMAGE_WIDTHS } from '../../lib/seed/images.ts';

export const MAX_PHOTO_BYTES = 20 * 1024 * 1024;
export const MAX_PHOTO_PIXELS = 50_000_000;
const FORMATS = new Set(['jpeg', 'png', 'webp', 'avif', 'gif', 'tiff', 'heif']);

export interface StoredPhoto {
  /** `/media/<hash>-w{w}.webp`: the pages' srcset; the front answers AVIF where the browser takes it. */
  urlTemplate: string;
  widths: number[];
  /** Size of the largest rendition. */
  width: number;
  height: number;
  /** The photo's average colour, `#rrggbb`: what to paint before it arrives. */
  color: string;
}

/** A photo that cannot be used: one error line of the import, never the run. */
export class PhotoError extends Error {
  override name = 'PhotoError';
}

// sharp (libvips) is loaded with the first photo to convert: 31 MB of a process that may never convert one
// (an import with --skip-photos, or whose photos are all stored already).
let loaded: Promise<(typeof import('sharp'))['default']> | undefined;
const loadSharp = () => (loaded ??= import('sharp').then((module) => module.default));

export interface PhotoRules {
  /** Keep the bytes as they came beside the renditions (a catalogue's photo); a shopper's photo is not kept. */
  keepOriginal?: boolean;
  maxBytes?: number;
  maxPixels?: number;
}

/**
 * Converts and stores a photo's bytes once (in a folder, or the given storage); the same bytes again cost
 * one read. The renditions are written first and the description last: a description means all are there.
 * The renditions carry no metadata (sharp writes none unless asked: no EXIF, no place it was taken).
 */
export async function storePhoto(bytes: Uint8Array, where: string | MediaStorage, rules: PhotoRules = {}): Promise<StoredPhoto> {
  const maxBytes = rules.maxBytes ?? MAX_PHOTO_BYTES;
  const maxPixels = rules.maxPixels ?? MAX_PHOTO_PIXELS;
  if (bytes.byteLength > maxBytes) throw new PhotoError(`the photo is ${bytes.byteLength} bytes, over ${maxBytes}`);
  const storage = typeof where === 'string' ? folderStorage(where) : where;
  const hash = createHash('sha256').update(bytes).digest('hex').slice(0, 24);
  const metaName = `${hash}.json`;
  const known = await storage.read(metaName);
  if (known) {
    try {
      return JSON.parse(new TextDecoder().decode(known)) as StoredPhoto;
    } catch {
      // A description that does not parse is made again.
    }
  }
  const sharp = await loadSharp();
  let meta;
  try {
    meta = await sharp(bytes, { limitInputPixels: maxPixels }).metadata();
  } catch (error) {
    throw new PhotoError(`not an image sharp can read (${(error as Error).message.split('\n')[0]})`);
  }
  if (!meta.format || !FORMATS.has(meta.format)) throw new PhotoError(`not a photo (${meta.format ?? 'unknown format'})`);
  const rotated = (meta.orientation ?? 1) >= 5;
  const sourceWidth = (rotated ? meta.height : meta.width) ?? 0;
  const sourceHeight = (rotated ? meta.width : meta.height) ?? 0;
  if (sourceWidth < 1 || sourceHeight < 1) throw new PhotoError('the photo has no size');
  if (sourceWidth * sourceHeight > maxPixels) throw new PhotoError(`the photo is ${sourceWidth}×${sourceHeight}, over ${maxPixels / 1e6} megapixels`);

  // The original as it came, beside its renditions: new widths or formats can be made from it later.
  if (rules.keepOriginal ?? true) await storage.write(`${hash}-original.${meta.format}`, bytes, `image/${meta.format}`);
  const widths: number[] = IMAGE_WIDTHS.filter((w) => w <= sourceWidth);
  if (widths.length === 0) widths.push(sourceWidth);
  const base = sharp(bytes, { limitInputPixels: maxPixels }).rotate();
  let height = 0;
  for (const width of widths) {
    const resized = base.clone().resize({ width, withoutEnlargement: true });
    const webp = await resized.clone().webp({ quality: 78 }).toBuffer({ resolveWithObject: true });
    const avif = await resized.clone().avif({ quality: 50, effort: 2 }).toBuffer();
    await storage.write(`${hash}-w${width}.webp`, webp.data, contentTypeOf('x.webp'));
    await storage.write(`${hash}-w${width}.avif`, avif, contentTypeOf('x.avif'));
    height = webp.info.height;
  }
  const { dominant } = await base.clone().resize(16, 16, { fit: 'inside' }).stats();
  const hex = (n: number) => Math.round(n).toString(16).padStart(2, '0');
  const stored: StoredPhoto = {
    urlTemplate: `/media/${hash}-w{w}.webp`,
    widths,
    width: widths.at(-1) as number,
    height,
    color: `#${hex(dominant.r)}${hex(dominant.g)}${hex(dominant.b)}`,
  };
  await storage.write(metaName, new TextEncoder().encode(JSON.stringify(stored)), contentTypeOf(metaName));
  return stored;
}

// Loopback, private, link-local, shared, multicast and reserved ranges: an import from a URL never
// reaches the shop's own network through a feed's address (SSRF), unless IMPORT_ALLOW_PRIVATE=1.
const PRIVATE = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  PRIVATE.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['64:ff9b::', 96],
] as const)
  PRIVATE.addSubnet(net, prefix, 'ipv6');

/** Whether an address is on a range an import must not reach. */
export function isPrivateAddress(address: string): boolean {
  // An IPv4 address written as IPv6 (::ffff:127.0.0.1) is the IPv4 address.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped) return isPrivateAddress(mapped);
  const family = isIP(address);
  if (family === 0) return true;
  return PRIVATE.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/** DNS resolution that refuses private answers: checked on the address actually connected to (no rebinding). */
const guardedLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, '', 0);
    const list = addresses as LookupAddress[];
    const refused = list.find((a) => isPrivateAddress(a.address));
    if (refused) return callback(Object.assign(new Error(`${hostname} resolves to ${refused.address}, a private address`), { code: 'EPRIVATE' }), '', 0);
    if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list);
    const first = list[0] as LookupAddress;
    callback(null, first.address, first.family);
  });
};

export interface FetchOptions {
  allowPrivate?: boolean;
  timeoutMs?: number;
  maxBytes?: number;
  redirects?: number;
  accept?: string;
  /** What is fetched, for messages: 'photo', 'file'. */
  what?: string;
}

/** Opens a URL (http and https only) with the guard and redirects; resolves once a 200 answer's headers are in. */
function openUrl(url: string, options: FetchOptions): Promise<IncomingMessage> {
  const redirects = options.redirects ?? 3;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return Promise.reject(new PhotoError(`"${url}" is not an address`));
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return Promise.reject(new PhotoError(`${parsed.protocol} addresses are not fetched`));
  const literal = parsed.hostname.replace(/^\[|\]$/g, '');
  if (!options.allowPrivate && isIP(literal) && isPrivateAddress(literal))
    return Promise.reject(new PhotoError(`${parsed.hostname} is a private address (IMPORT_ALLOW_PRIVATE=1 allows it)`));
  const client = parsed.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const request = client.get(
      parsed,
      {
        timeout: options.timeoutMs ?? 20_000,
        headers: { 'user-agent': 'BrandshopImport/1.0', accept: options.accept ?? 'image/*,*/*;q=0.5' },
        ...(options.allowPrivate ? {} : { lookup: guardedLookup }),
      },
      (response) => {
        const status = response.statusCode ?? 0;
        if (status >= 300 && status < 400 && response.headers.location) {
          response.resume();
          if (redirects <= 0) return reject(new PhotoError('too many redirects'));
          return resolve(openUrl(new URL(response.headers.location, parsed).href, { ...options, redirects: redirects - 1 }));
        }
        if (status !== 200) {
          response.resume();
          return reject(Object.assign(new PhotoError(`the server answered ${status}`), { retry: status >= 500 || status === 429 }));
        }
        const declared = Number(response.headers['content-length'] ?? 0);
        const maxBytes = options.maxBytes ?? MAX_PHOTO_BYTES;
        if (declared > maxBytes) {
          response.destroy();
          return reject(new PhotoError(`the ${options.what ?? 'photo'} is ${declared} bytes, over ${maxBytes}`));
        }
        // The time limit covers the whole transfer, not only the wait for the headers.
        request.setTimeout(options.timeoutMs ?? 20_000);
        resolve(response);
      },
    );
    request.on('timeout', () => request.destroy(Object.assign(new PhotoError('no answer in time'), { retry: true })));
    request.on('error', (error: Error & { code?: string; retry?: boolean }) =>
      reject(
        error instanceof PhotoError
          ? error
          : Object.assign(new PhotoError(error.code === 'EPRIVATE' ? error.message : `could not be fetched (${error.message})`), {
              retry: error.code !== 'EPRIVATE',
            }),
      ),
    );
  });
}

/** Reads an answer's body, refusing it past maxBytes. */
async function* limited(response: IncomingMessage, maxBytes: number, what: string): AsyncGenerator<Buffer> {
  let size = 0;
  for await (const chunk of response as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) {
      response.destroy();
      throw new PhotoError(`the ${what} is over ${maxBytes} bytes`);
    }
    yield chunk;
  }
}

/** Downloads a URL's body into memory (a photo), within the size and time limits; refuses private addresses. */
export async function download(url: string, options: FetchOptions = {}): Promise<Buffer> {
  const response = await openUrl(url, options);
  const chunks: Buffer[] = [];
  try {
    for await (const chunk of limited(response, options.maxBytes ?? MAX_PHOTO_BYTES, options.what ?? 'photo')) chunks.push(chunk);
  } catch (error) {
    throw error instanceof PhotoError ? error : Object.assign(new PhotoError((error as Error).message), { retry: true });
  }
  return Buffer.concat(chunks);
}

/** Downloads a URL's body to a file (a feed: never held in memory), within the limits; refuses private addresses. */
export async function downloadToFile(url: string, path: string, options: FetchOptions = {}): Promise<void> {
  const response = await openUrl(url, { accept: '*/*', what: 'file', ...options });
  await pipeline(limited(response, options.maxBytes ?? MAX_PHOTO_BYTES, options.what ?? 'file'), createWriteStream(path));
}

/**
 * download() with retries (twice, after 0.5 s and 1.5 s; `retryDelayMs` moves the first, the second is three
 * times it) for network failures and 5xx answers.
 */
export async function downloadWithRetries(url: string, options: FetchOptions & { retryDelayMs?: number } = {}): Promise<Buffer> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await download(url, options);
    } catch (error) {
      if (attempt >= 2 || !(error as { retry?: boolean }).retry) throw error;
      await new Promise((r) => setTimeout(r, (options.retryDelayMs ?? 500) * 3 ** attempt));
    }
  }
}

/** Runs tasks at most `limit` at once, in order of arrival. */
export function limiter(limit: number): <T>(task: () => Promise<T>) => Promise<T> {
  let active = 0;
  const waiting: (() => void)[] = [];
  return async (task) => {
    if (active >= limit) await new Promise<void>((r) => waiting.push(r));
    active++;
    try {
      return await task();
    } finally {
      active--;
      waiting.shift()?.();
    }
  };
}
