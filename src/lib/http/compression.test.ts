import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { compress, compressAsync, isCompressible, preferredEncoding } from './compression.ts';

describe('compression', () => {
  it.each([
    ['gzip, deflate, br', 'br'],
    ['br;q=0, gzip', 'gzip'],
    ['gzip;q=0.5, br;q=0.1', 'br'],
    ['identity', undefined],
    ['*', 'br'],
    ['*;q=0, gzip', 'gzip'],
    ['', undefined],
    [null, undefined],
  ])('accept-encoding %j → %j', (header, encoding) => {
    expect(preferredEncoding(header)).toBe(encoding);
  });

  it('round-trips both encodings, on the server and at build, and only compresses text worth it', async () => {
    const body = new TextEncoder().encode('<p>Платье Gucci</p>'.repeat(200));
    expect(new TextDecoder().decode(brotliDecompressSync(await compressAsync(body, 'br', 'fast')))).toBe('<p>Платье Gucci</p>'.repeat(200));
    expect(gunzipSync(await compressAsync(body, 'gzip', 'best')).byteLength).toBe(body.byteLength);
    expect(brotliDecompressSync(compress(body, 'br', 'build')).byteLength).toBe(body.byteLength);
    expect(isCompressible('text/html; charset=utf-8', 5000)).toBe(true);
    expect(isCompressible('application/json; charset=utf-8', 5000)).toBe(true);
    expect(isCompressible('image/webp', 5000)).toBe(false);
    expect(isCompressible('text/html', 100)).toBe(false);
  });
});
