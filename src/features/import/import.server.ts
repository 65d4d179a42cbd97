// One catalogue import, whatever calls it (the CLI now; the running shop's operator call and the console
// later): the input checked whole before anything is written, then read again and applied batch by
// batch, then — for a whole feed — what it no longer lists hidden. docs/import.md.
import { closeSync, createReadStream, openSync, readdirSync, readSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Database } from '../../lib/db/client.ts';
import { checkXml, sniffEncoding, XmlReadError } from './xml.server.ts';
import { isYmlOffer, readYml, YmlFormatError } from './yml.server.ts';
import { CatalogueImport } from './import.pipeline.server.ts';
import type { ImportProblem, ImportSummary, SourceOffer } from './import.ts';

export interface ImportOptions {
  /** Say what would change; write nothing. */
  dryRun?: boolean;
  /** The feed is a part of the catalogue: offers it does not list stay as they are. */
  partial?: boolean;
  /** Only prices and stock of offers the catalogue has; nothing added, hidden or fetched. */
  pricesStock?: boolean;
  /** Stock of a size the feed calls available without a count. */
  defaultStock?: number;
  /** Offers per transaction. */
  batchSize?: number;
  /** The largest file read, in bytes. */
  maxBytes?: number;
  onProgress?: (done: number, total: number) => void;
  /** Where photos go (DATA_DIR/media) and whether private addresses may be fetched; none: pictures are not imported. */
  photos?: { dir: string; allowPrivate?: boolean; concurrency?: number };
}

/** An import's choices as the command line and the operator call name them. */
export interface ImportFlags {
  dry_run: boolean;
  partial: boolean;
  prices_stock: boolean;
  default_stock: number;
  skip_photos: boolean;
  batch_size: number;
}

/** The options of importYml for these choices, with the shop's settings (photos under DATA_DIR/media). */
export function importOptions(
  flags: ImportFlags,
  settings: { maxBytes: number; dataDir: string; allowPrivate: boolean },
  onProgress: ImportOptions['onProgress'],
): ImportOptions {
  return {
    dryRun: flags.dry_run,
    partial: flags.partial,
    pricesStock: flags.prices_stock,
    defaultStock: flags.default_stock,
    batchSize: flags.batch_size,
    maxBytes: settings.maxBytes,
    ...(flags.skip_photos || flags.prices_stock ? {} : { photos: { dir: join(settings.dataDir, 'media'), allowPrivate: settings.allowPrivate } }),
    ...(onProgress ? { onProgress } : {}),
  };
}

export interface ImportResult {
  summary: ImportSummary;
  problems: ImportProblem[];
  /** Offers the file holds. */
  offers: number;
}

/** The input cannot be read at all (missing, too large, not XML, not YML, not well-formed): exit code 2. */
export class ImportInputError extends Error {
  override name = 'ImportInputError';
}

export const DEFAULT_MAX_BYTES = 1024 ** 3;
/** CommerceML's root element (1C, MoySklad), named in Russian by the format itself. */
const COMMERCEML_ROOT = /^КоммерческаяИнформация$/;

/**
 * Whether a file is CommerceML (1C, MoySklad) rather than YML, from its first element: the console sends
 * the one to the exchange's reader and the other to the import. Reads the first 64 KB only.
 */
export function isCommerceMlFile(path: string): boolean {
  const head = Buffer.alloc(64 * 1024);
  const fd = openSync(path, 'r');
  let read: number;
  try {
    read = readSync(fd, head, 0, head.length, 0);
  } finally {
    closeSync(fd);
  }
  let text: string;
  try {
    const { encoding, bom } = sniffEncoding(head.subarray(0, read));
    text = new TextDecoder(encoding).decode(head.subarray(bom, read));
  } catch {
    return false;
  }
  // The first element after the declaration, comments and a doctype.
  const name = /<([^\s>/?!]+)/.exec(text.replace(/<\?[\s\S]*?\?>|<!--[\s\S]*?-->|<!DOCTYPE[^>]*>/g, ''))?.[1] ?? '';
  return COMMERCEML_ROOT.test(name.replace(/^[^:]*:/, ''));
}

/** The feed file of an input path: the file itself, or the first YML/XML file in a folder (or in its subfolders, as archives hold them). */
export function feedFile(path: string): string {
  let stat;
  try {
    stat = statSync(path);
  } catch {
    throw new ImportInputError(`${path}: no such file or folder`);
  }
  if (!stat.isDirectory()) return path;
  const find = (dir: string, depth: number): string | undefined => {
    const entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name));
    const here = entries.find((e) => e.isFile() && /\.(yml|xml)$/i.test(e.name));
    if (here) return join(dir, here.name);
    if (depth === 0) return undefined;
    for (const e of entries) {
      if (!e.isDirectory() || e.name.startsWith('.') || e.name === '__MACOSX') continue;
      const found = find(join(dir, e.name), depth - 1);
      if (found) return found;
    }
    return undefined;
  };
  const found = find(path, 2);
  if (!found) throw new ImportInputError(`${path}: the folder holds no .yml or .xml file`);
  return found;
}

/** A read error of the file, with the line it happened on when the parser knows it. */
const unreadable = (file: string, error: XmlReadError | YmlFormatError) =>
  new ImportInputError(`${file}${error instanceof XmlReadError && error.line ? `, line ${error.line}` : ''}: ${error.message}`);

/** Imports a YML feed from a file on disk. Throws ImportInputError when the file cannot be read at all. */
export async function importYml(database: Database, path: string, options: ImportOptions = {}): Promise<ImportResult> {
  const file = feedFile(path);
  const size = statSync(file).size;
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const open = () => createReadStream(file, { highWaterMark: 256 * 1024 });
  if (size > maxBytes) throw new ImportInputError(`${file} is ${size} bytes, over the import's limit of ${maxBytes} (IMPORT_MAX_BYTES)`);

  // First pass: the whole file must be readable before anything of it is applied. `--prices-stock` reads
  // once and writes at the end instead (its changes are small enough to hold), with an estimated total.
  let offers = 0;
  if (options.pricesStock) offers = Math.max(1, Math.round(size / 1600));
  else {
    let root: string | undefined;
    try {
      await checkXml(open(), (elementPath) => {
        if (elementPath.length === 1) root = elementPath[0];
        else if (isYmlOffer(elementPath)) offers++;
      });
    } catch (error) {
      if (error instanceof XmlReadError) throw unreadable(file, error);
      throw error;
    }
    if (root !== undefined && COMMERCEML_ROOT.test(root))
      throw new ImportInputError(
        `${file}: a CommerceML file (1C, MoySklad); npm run import reads YML feeds; CommerceML comes in through the 1C exchange at EXCHANGE_PATH (docs/exchange-1c.md) or as an upload at /ops/imports`,
      );
    if (root !== 'yml_catalog') throw new ImportInputError(`${file}: not a YML feed (its root element is <${root ?? '?'}>, not <yml_catalog>)`);
  }

  const problems: ImportProblem[] = [];
  const writer = new CatalogueImport(
    database,
    {
      dryRun: options.dryRun ?? false,
      defaultStock: options.defaultStock ?? 5,
      ...(options.photos ? { photos: { ...options.photos, baseDir: dirname(file) } } : {}),
    },
    problems,
  );
  await writer.load();
  const batchSize = options.batchSize ?? (options.pricesStock ? 5000 : 500);
  let pending: SourceOffer[] = [];
  let done = 0;
  options.onProgress?.(0, offers);
  const flush = async () => {
    if (pending.length === 0) return;
    const batch = pending;
    pending = [];
    if (options.pricesStock) await writer.applyPricesStock(batch);
    else await writer.applyOffers(batch);
    done += batch.length;
    options.onProgress?.(done, offers);
  };
  try {
    for await (const event of readYml(open(), problems, { pricesOnly: options.pricesStock ?? false })) {
      if (event.kind === 'categories') {
        if (!options.pricesStock) await writer.applyCategories(event.categories);
      } else {
        pending.push(...event.offers);
        if (pending.length >= batchSize) await flush();
      }
    }
    await flush();
    if (options.pricesStock) await writer.commitPricesStock();
  } catch (error) {
    // The file changed between the passes: what was applied stays (each batch whole); nothing is hidden.
    if (error instanceof XmlReadError || error instanceof YmlFormatError) throw unreadable(file, error);
    throw error;
  }
  if (options.pricesStock) offers = done;
  options.onProgress?.(offers, offers);
  if (!options.partial && !options.pricesStock) await writer.hideMissing();
  await writer.tidy();
  const summary = { ...writer.summary, errors: problems.filter((p) => p.severity === 'error').length };
  return { summary, problems, offers };
}
