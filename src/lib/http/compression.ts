// Compressed answers (issue 10): brotli or gzip, whichever the client accepts and prefers, for every
// text answer. Assets are compressed once at build (scripts/compress-assets.ts, best quality); pages in
// the page cache once when stored; everything else per answer at a fast level.
// Relative imports only: scripts/server.mjs loads this file from src/.
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

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
// (15.6 KB), 11 111 ms (14.3 KB). A stored page is compressed again every time the page cache renews it,
// so it gets 6, not 9; only assets, compressed once at build, are worth 11.
const BROTLI_QUALITY = { fast: 4, best: 6, build: 11 } as const;

/**
 * `fast` for answers made per request, `best` for pages stored and served many times, `build` for
 * assets compressed once by `npm run build`.
 */
export function compress(body: Uint8Array, encoding: Encoding, effort: keyof typeof BROTLI_QUALITY): Uint8Array {
  if (encoding === 'br') {
    return brotliCompressSync(body, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY[effort],
        [constants.BROTLI_PARAM_SIZE_HINT]: body.byteLength,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      },
    });
  }
  return gzipSync(body, { level: effort === 'fast' ? 6 : 9 });
}

export function isCompressible(contentType: string | null | undefined, bytes: number): boolean {
  return bytes >= MIN_BYTES && COMPRESSIBLE.test(contentType ?? '');
}
