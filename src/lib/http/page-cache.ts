// A short-lived cache of rendered public pages in each process (docs/decisions/007). Catalogue and
// product pages are the same for every visitor (their cache-control says `public`), yet rendering one
// costs tens of milliseconds of CPU; keeping the HTML for a few seconds lets a popular page be served
// at close to static speed while staying as fresh as the CDN policy already allows. Personalised
// answers (anything not `public`, any page in another language) are never stored.

/** Where the middleware publishes its cache for scripts/server.mjs. */
export const PAGE_CACHE_GLOBAL = Symbol.for('brandshop.pageCache');

export interface CachedPage {
  at: number;
  status: number;
  headers: [string, string][];
  body: Uint8Array;
}

export class PageCache {
  private readonly entries = new Map<string, CachedPage>();
  private bytes = 0;

  private readonly ttlMs: number;
  private readonly maxBytes: number;

  constructor(ttlMs: number, maxBytes: number) {
    this.ttlMs = ttlMs;
    this.maxBytes = maxBytes;
  }

  get enabled(): boolean {
    return this.ttlMs > 0;
  }

  get(key: string, now = Date.now()): CachedPage | undefined {
    const hit = this.entries.get(key);
    if (!hit) return undefined;
    if (now - hit.at > this.ttlMs) {
      this.delete(key);
      return undefined;
    }
    return hit;
  }

  set(key: string, page: CachedPage): void {
    if (page.body.byteLength > this.maxBytes / 8) return;
    this.delete(key);
    this.entries.set(key, page);
    this.bytes += page.body.byteLength;
    // Oldest first: a Map iterates in insertion order.
    for (const [oldKey] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.delete(oldKey);
    }
  }

  get size(): number {
    return this.entries.size;
  }

  private delete(key: string): void {
    const old = this.entries.get(key);
    if (!old) return;
    this.bytes -= old.body.byteLength;
    this.entries.delete(key);
  }
}

/** Whether a rendered response may be shared with every visitor. */
export function isShareable(response: Response): boolean {
  const cc = response.headers.get('cache-control') ?? '';
  return response.status === 200 && /\bpublic\b/.test(cc) && !response.headers.has('set-cookie') && (response.headers.get('content-type') ?? '').startsWith('text/html');
}
