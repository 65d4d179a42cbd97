// Compressed answers (issue 10): brotli or gzip, whichever the client accepts and prefers, for every
// text answer. Assets are compressed once at build (scripts/compress-assets.ts, best quality); pages in
// the page cache once when stored; everything else per answer at a fast level.
// Relative imports only: scripts/server.mjs loads this file from src/.
import { Readable, pipeline, type Duplex } from 'node:stream';
import { promisify } from 'node:util';
import {
  brotliCompress,
  brotliCompressSync,
  constants,
  createBrotliCompress,
  createGunzip,
  createGzip,
  gzip,
  gzipSync,
  type BrotliOptions,
  type ZlibOptions,
} from 'node:zlib';

export type Encoding = 'br' | 'gzip';

/** Text worth compressing (images and fonts are compressed formats already). */
export const COMPRESSIBLE = /^(?:text\/|application\/(?:json|javascript|xml|manifest\+json|ld\+json)|image\/svg\+xml)/;
/** Below this a compressed body saves less than its headers cost. */
export const MIN_BYTES = 1024;

/** The encoding to answer with: brotli when accepted, else gzip, honouring q=0 refusals. */
export function preferredEncoding(header: string | null | undefined): Encoding | undefined {
  if (!header) return undefined;
  const accepted = new Map<string, number>();
  for (const part of header.toLowerCase().split(',')) {
    const [name = '', ...params] = part.trim().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    accepted.set(name.trim(), q ? Number(q.slice(2)) : 1);
  }
  const ok = (name: Encoding) => (accepted.get(name) ?? accepted.get('*') ?? 0) > 0;
  return ok('br') ? 'br' : ok('gzip') ? 'gzip' : undefined;
}

// Measured on a 95 KB product page: quality 4 takes 1.4 ms (17.7 KB), 6 1.7 ms (16.3 KB), 9 17.6 ms
// (15.6 KB), 11 111 ms (14.3 KB); on a 90 KB category page 10 takes 30 ms for 14.3 KB against 6's 15.7.
// A stored page is compressed at 6 before it is answered, then once more at 11 when the server is quiet
// (`refine`, page-cache.ts): 11 takes about three times 10's CPU (~40 → ~100 ms a page on this host, on
// libuv's thread pool, one page at a time) for 120–260 bytes less on the catalogue pages — what a category
// or search page needed, with its headers, to fit the first round trip of a phone's connection
// (docs/decisions/016). It runs once per change of a page, and never during a burst of renders.
const BROTLI_QUALITY = { fast: 4, best: 6, refine: 11, build: 11 } as const;

/** `bytes`: the body's size when it is known in advance (a stream's is not). */
function brotliOptions(effort: keyof typeof BROTLI_QUALITY, bytes?: number): BrotliOptions {
  return {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY[effort],
      // 0 is brotli's "unknown".
      [constants.BROTLI_PARAM_SIZE_HINT]: bytes ?? 0,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
    },
  };
}

function gzipOptions(effort: keyof typeof BROTLI_QUALITY): ZlibOptions {
  return { level: effort === 'fast' ? 6 : 9 };
}

/** `build` for assets compressed once by `npm run build` (a script: blocking is fine there). */
export function compress(body: Uint8Array, encoding: Encoding, effort: keyof typeof BROTLI_QUALITY): Uint8Array {
  return encoding === 'br' ? brotliCompressSync(body, brotliOptions(effort, body.byteLength)) : gzipSync(body, gzipOptions(effort));
}

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/**
 * The server's form: `fast` for answers made per request, `best` for pages stored and served many
 * times. Compressed on libuv's thread pool, not the event loop: a product page is 1–3 ms of brotli, which
 * on the loop is that much less rendering and answering (docs/performance.md, "Renders without the page
 * cache").
 */
export async function compressAsync(body: Uint8Array, encoding: Encoding, effort: 'fast' | 'best' | 'refine'): Promise<Uint8Array> {
  return encoding === 'br' ? brotliAsync(body, brotliOptions(effort, body.byteLength)) : gzipAsync(body, gzipOptions(effort));
}

export function isCompressible(contentType: string | null | undefined, bytes: number): boolean {
  return bytes >= MIN_BYTES && COMPRESSIBLE.test(contentType ?? '');
}

/**
 * A body too large to hold (a sitemap file, the product feed) compressed as it is produced, in the
 * encoding the client takes. `gzipped` says the source is gzip already (the feed's file): passed on as
 * it is to a client that takes gzip, unpacked for one that does not. A failing source ends the answer
 * with an error instead of a truncated file that looks whole.
 */
export function streamedBody(
  source: AsyncIterable<string | Uint8Array> | Readable,
  encoding: Encoding | undefined,
  gzipped = false,
): { body: ReadableStream<Uint8Array>; encoding: Encoding | undefined } {
  const input = source instanceof Readable ? source : Readable.from(bytes(source), { objectMode: false });
  if (gzipped && encoding === 'gzip') return { body: Readable.toWeb(input) as ReadableStream<Uint8Array>, encoding };
  const stages: Duplex[] = gzipped ? [createGunzip()] : [];
  if (encoding === 'br') stages.push(createBrotliCompress(brotliOptions('fast')));
  else if (encoding === 'gzip') stages.push(createGzip(gzipOptions('fast')));
  const last = stages.at(-1);
  if (!last) return { body: Readable.toWeb(input) as ReadableStream<Uint8Array>, encoding: undefined };
  pipeline([input, ...stages], () => {});
  return { body: Readable.toWeb(last) as ReadableStream<Uint8Array>, encoding };
}

async function* bytes(source: AsyncIterable<string | Uint8Array>): AsyncGenerator<Uint8Array> {
  const encoder = new TextEncoder();
  for await (const chunk of source) yield typeof chunk === 'string' ? encoder.encode(chunk) : chunk;
}
