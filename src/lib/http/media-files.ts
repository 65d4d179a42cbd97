// Imported product photos (src/features/media), served by the front from DATA_DIR/media: named by the hash
// of their content, so a browser and any cache may keep them for good. A page asks for the WebP rendition;
// a browser that takes AVIF gets the AVIF one at the same address (smaller), hence `Vary: Accept`.
// Relative imports only: loaded by Node from src/.
import { statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { sendFile } from './static-files.ts';

// The names media.server.ts writes: 24 hex digits of the content's hash, the width, the format.
const NAME = /^\/media\/([0-9a-f]{24}-w\d{2,4})\.(webp|avif)$/;

function fileStat(path: string) {
  try {
    const stat = statSync(path);
    return stat.isFile() ? stat : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Answers a GET or HEAD under /media/; false when the request is not for a photo. `elsewhere`: the photos
 * are in a bucket (MEDIA_STORAGE=s3) at this address: a /media/ address (an order's line, an old page)
 * is sent there, for good.
 */
export function serveMedia(dir: string, req: IncomingMessage, res: ServerResponse, elsewhere?: string): boolean {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  const path = (req.url ?? '/').split('?')[0] ?? '/';
  if (!path.startsWith('/media/')) return false;
  const match = NAME.exec(path);
  const notFound = () => {
    res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' });
    res.end(req.method === 'HEAD' ? undefined : 'Not found');
    return true;
  };
  if (!match) return notFound();
  const [, stem, asked] = match as unknown as [string, string, 'webp' | 'avif'];
  if (elsewhere) {
    res.writeHead(301, { location: `${elsewhere}/${stem}.${asked}`, 'cache-control': 'public, max-age=31536000, immutable' });
    res.end();
    return true;
  }
  const avif = asked === 'webp' && /\bimage\/avif\b/.test(req.headers.accept ?? '') ? fileStat(join(dir, `${stem}.avif`)) : undefined;
  const format = avif ? 'avif' : asked;
  const stat = avif ?? fileStat(join(dir, `${stem}.${asked}`));
  if (!stat) return notFound();
  const headers = { 'content-type': `image/${format}`, 'cache-control': 'public, max-age=31536000, immutable', vary: 'accept', etag: `"${stem}-${format}"` };
  sendFile(req, res, headers, { path: join(dir, `${stem}.${format}`), size: stat.size });
  return true;
}
