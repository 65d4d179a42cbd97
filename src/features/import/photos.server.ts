// The import's photo step (docs/import.md, "Photos"): between the mapper and the writer, each product's
// pictures fetched (or read from beside the feed) and converted through the media pipeline, once per address
// in a run and never again for an address already imported. A photo that fails is one error line, every run
// it fails; its product keeps the others, and the product's hash covers only those (mapper.server.ts).
import { readFile } from 'node:fs/promises';
import { resolve, sep } from 'node:path';
import type { Database } from '../../lib/db/client.ts';
import { downloadWithRetries, limiter, PhotoError, storePhoto, type StoredPhoto } from '../media/media.server.ts';
import { photoStorage } from '../media/media.storage.server.ts';
import type { ImportProblem, ImportSummary } from './import.ts';
import { productHash, type ProductPlan } from './mapper.server.ts';

export interface PhotoOptions {
  /** DATA_DIR/media. */
  dir: string;
  /** The folder a relative `picture` path is read from (the feed's own folder), never outside it. */
  baseDir?: string;
  allowPrivate?: boolean;
  /** Photos fetched and converted at once. */
  concurrency?: number;
  /** The wait before a failed fetch is tried again (0.5 s, then three times it); the tests shorten it. */
  retryDelayMs?: number;
}

/** A product's photos as stored, each with the address it came from. */
export type ImportedPhoto = StoredPhoto & { source: string };

export class PhotoStep {
  private readonly limit: ReturnType<typeof limiter>;

  private readonly database: Database;
  private readonly options: PhotoOptions;
  private readonly problems: ImportProblem[];
  private readonly summary: ImportSummary;

  constructor(database: Database, options: PhotoOptions, problems: ImportProblem[], summary: ImportSummary) {
    this.database = database;
    this.options = options;
    this.problems = problems;
    this.summary = summary;
    this.limit = limiter(options.concurrency ?? 8);
  }

  /** One photo's bytes: from its address, or from a file beside the feed. */
  private async bytes(source: string): Promise<Uint8Array> {
    const photos = this.options;
    if (/^https?:\/\//i.test(source))
      return downloadWithRetries(source, {
        allowPrivate: photos.allowPrivate ?? false,
        ...(photos.retryDelayMs === undefined ? {} : { retryDelayMs: photos.retryDelayMs }),
      });
    const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(source)?.[1];
    if (scheme && scheme.toLowerCase() !== 'file') throw new PhotoError(`${scheme}: addresses are not fetched`);
    if (!photos.baseDir) throw new PhotoError('a relative path, and the feed is not read from a folder');
    const base = resolve(photos.baseDir);
    const path = resolve(base, source.replace(/^file:\/\//i, '').replace(/^\/+/, ''));
    if (!path.startsWith(base + sep)) throw new PhotoError("the path leads outside the feed's folder");
    try {
      return await readFile(path);
    } catch {
      throw new PhotoError('no such file beside the feed');
    }
  }

  /** Photos already imported from these addresses, by address. */
  private async known(sources: readonly string[]): Promise<Map<string, StoredPhoto>> {
    const known = new Map<string, StoredPhoto>();
    if (sources.length === 0) return known;
    const rows = (
      await this.database.query(
        'SELECT DISTINCT ON (source_url) source_url, url_template, widths, width, height, color FROM product_images WHERE source_url = ANY($1::text[])',
        [sources],
      )
    ).rows as { source_url: string; url_template: string; widths: number[]; width: number; height: number; color: string | null }[];
    for (const r of rows) known.set(r.source_url, { urlTemplate: r.url_template, widths: r.widths, width: r.width, height: r.height, color: r.color ?? '' });
    return known;
  }

  /**
   * The products' photos by product key, each fetched and converted once (a photo already imported from the same
   * address is reused), at most `concurrency` at once. A plan whose pictures did not all come gets the hash of
   * those that did.
   */
  async resolve(plans: readonly ProductPlan[]): Promise<Map<string, ImportedPhoto[]>> {
    const out = new Map<string, ImportedPhoto[]>();
    const known = await this.known([...new Set(plans.flatMap((p) => p.pictures))]);
    const pending = new Map<string, Promise<StoredPhoto>>();
    const photoOf = (source: string) => {
      let promise = pending.get(source);
      if (!promise) {
        promise = this.limit(async () => {
          const stored = await storePhoto(await this.bytes(source), photoStorage(this.options.dir));
          this.summary.images++;
          return stored;
        });
        pending.set(source, promise);
      }
      return promise;
    };
    await Promise.all(
      plans.map(async (plan) => {
        const list: ImportedPhoto[] = [];
        for (const source of plan.pictures) {
          try {
            list.push({ ...(known.get(source) ?? (await photoOf(source))), source });
          } catch (error) {
            this.problems.push({ severity: 'error', id: plan.offer.id, line: plan.offer.line, reason: `photo ${source}: ${(error as Error).message}` });
          }
        }
        out.set(plan.key, list);
        if (list.length < plan.pictures.length)
          plan.hash = productHash(
            plan.row,
            plan.attributes,
            list.map((photo) => photo.source),
          );
      }),
    );
    return out;
  }
}
