// What `npm run import` is given, made into a file on disk: a file or a folder as they are; an address
// downloaded (streamed to a temporary file, within IMPORT_MAX_BYTES, never from a private address unless
// allowed); a .zip unpacked into a temporary folder — the feed and the photos beside it — refusing paths
// that leave the folder (zip slip), more than the size limit once unpacked, sizes the archive lies
// about, and compression no real catalogue has (zip bombs). docs/import.md "Inputs".
import { createWriteStream, mkdirSync, mkdtempSync, openSync, readSync, closeSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve, sep } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import yauzl from 'yauzl';
import { downloadToFile, PhotoError } from '../media/media.server.ts';
import { ImportInputError } from './import.server.ts';

export interface InputOptions {
  maxBytes: number;
  allowPrivate?: boolean;
  /** Where temporary files go (the system's temporary folder unless told). */
  tmpRoot?: string;
}

export interface PreparedInput {
  /** A file or a folder importYml reads. */
  path: string;
  /** Removes what was downloaded or unpacked. */
  cleanup(): void;
}

const MAX_ENTRIES = 100_000;
/** Real XML and photos compress 2–20×; a file compressed over this ratio and over 10 MB is a bomb. */
const MAX_RATIO = 200;

function isZip(path: string): boolean {
  const head = Buffer.alloc(4);
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    readSync(fd, head, 0, 4, 0);
  } catch {
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
  return head.readUInt32LE(0) === 0x04034b50;
}

/** Unpacks a zip archive into `dir`, within the limits. */
export async function unzip(path: string, dir: string, maxBytes: number): Promise<void> {
  let zip: yauzl.ZipFile;
  try {
    zip = await yauzl.openPromise(path, { lazyEntries: true, strictFileNames: true, validateEntrySizes: true });
  } catch (error) {
    throw new ImportInputError(`${path}: not a zip archive that can be read (${(error as Error).message})`);
  }
  const root = resolve(dir);
  let total = 0;
  let entries = 0;
  try {
    await new Promise<void>((done, fail) => {
      zip.on('error', (error: Error) => fail(new ImportInputError(`${path}: ${error.message}`)));
      zip.on('end', () => done());
      zip.on('entry', (entry: yauzl.Entry) => {
        void (async () => {
          entries++;
          if (entries > MAX_ENTRIES) throw new ImportInputError(`${path}: more than ${MAX_ENTRIES} files in the archive`);
          const target = resolve(root, entry.fileName);
          if (!target.startsWith(root + sep)) throw new ImportInputError(`${path}: "${entry.fileName}" leads outside the folder it is unpacked into`);
          if (entry.fileName.endsWith('/')) {
            mkdirSync(target, { recursive: true });
            return;
          }
          total += entry.uncompressedSize;
          if (total > maxBytes) throw new ImportInputError(`${path}: over the import's limit of ${maxBytes} bytes once unpacked`);
          if (entry.uncompressedSize > 10 * 1024 * 1024 && entry.uncompressedSize > MAX_RATIO * Math.max(1, entry.compressedSize))
            throw new ImportInputError(
              `${path}: "${entry.fileName}" is compressed ${Math.round(entry.uncompressedSize / Math.max(1, entry.compressedSize))}× — not a catalogue`,
            );
          mkdirSync(dirname(target), { recursive: true });
          const stream = await zip.openReadStreamPromise(entry);
          // Counted as it is written, whatever the headers said.
          let written = 0;
          const counter = new Transform({
            transform(chunk: Buffer, _encoding, callback) {
              written += chunk.length;
              if (written > entry.uncompressedSize) callback(new ImportInputError(`${path}: "${entry.fileName}" is larger than the archive says`));
              else callback(null, chunk);
            },
          });
          await pipeline(stream, counter, createWriteStream(target));
        })().then(
          () => zip.readEntry(),
          (error: unknown) => {
            zip.close();
            fail(error instanceof ImportInputError ? error : new ImportInputError(`${path}: ${(error as Error).message}`));
          },
        );
      });
      zip.readEntry();
    });
  } finally {
    zip.close();
  }
}

/** The input as a path importYml reads; an address downloaded, an archive unpacked. Throws ImportInputError. */
export async function prepareInput(input: string, options: InputOptions): Promise<PreparedInput> {
  const temporary: string[] = [];
  const cleanup = () => {
    // A download cut short may still be opening its file as the folder goes (its stream is destroyed, the
    // open is not): retried on ENOTEMPTY rather than failing in place of the reason the import stopped.
    for (const dir of temporary) rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
  };
  const scratch = () => {
    const dir = mkdtempSync(join(options.tmpRoot ?? tmpdir(), 'shop-import-'));
    temporary.push(dir);
    return dir;
  };
  try {
    let path = input;
    if (/^https?:\/\//i.test(input)) {
      const name = new URL(input).pathname.split('/').pop() || 'feed.yml';
      path = join(scratch(), name.replace(/[^\w.-]/g, '_'));
      try {
        await downloadToFile(input, path, { maxBytes: options.maxBytes, allowPrivate: options.allowPrivate ?? false, timeoutMs: 120_000, what: 'file' });
      } catch (error) {
        if (error instanceof PhotoError) throw new ImportInputError(`${input}: ${error.message}`);
        throw error;
      }
    } else if (/^[a-z][a-z0-9+.-]*:\/\//i.test(input)) throw new ImportInputError(`${input}: only http and https addresses are fetched`);
    if (isZip(path)) {
      const dir = scratch();
      await unzip(path, dir, options.maxBytes);
      path = dir;
    }
    return { path, cleanup };
  } catch (error) {
    try {
      cleanup();
    } catch {
      // The reason the input was refused is what the operator needs; a leftover folder in tmp is not.
    }
    throw error;
  }
}
