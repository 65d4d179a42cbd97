// After `astro build`: every text asset of dist/client gets .br and .gz siblings at the best settings,
// so the front (src/lib/http/static-files.ts) serves them compressed without compressing per request.
// Part of `npm run build`.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { compress, MIN_BYTES } from '../src/lib/http/compression.ts';

const ROOT = 'dist/client';
const TEXT = new Set(['.js', '.css', '.svg', '.html', '.json', '.txt', '.xml', '.webmanifest']);

function* files(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* files(path);
    else if (TEXT.has(extname(entry.name))) yield path;
  }
}

let count = 0;
let raw = 0;
let br = 0;
const started = Date.now();
for (const path of files(ROOT)) {
  const body = readFileSync(path);
  if (body.byteLength < MIN_BYTES) continue;
  const brotli = compress(body, 'br', 'build');
  const gzip = compress(body, 'gzip', 'build');
  if (brotli.byteLength < body.byteLength) writeFileSync(`${path}.br`, brotli);
  if (gzip.byteLength < body.byteLength) writeFileSync(`${path}.gz`, gzip);
  count++;
  raw += statSync(path).size;
  br += brotli.byteLength;
}
console.log(
  `[compress] ${count} assets: ${(raw / 1024).toFixed(0)} KB → ${(br / 1024).toFixed(0)} KB brotli in ${((Date.now() - started) / 1000).toFixed(1)} s`,
);
