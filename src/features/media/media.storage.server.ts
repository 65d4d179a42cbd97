// Where product photos are kept (docs/operations.md "Photos in S3-compatible storage"): DATA_DIR/media on
// this machine (the default), or a bucket of any S3-compatible storage (MEDIA_STORAGE=s3: Yandex Object
// Storage, Selectel, VK Cloud, MinIO) that every machine of the shop shares. Names are the content's hash,
// so an object is written once and never changes: a browser and any cache keep it for a year. Relative
// imports only: the import CLI and `npm run media:migrate` load this file.
import { mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { env, type Env } from '../../lib/env.ts';

export const IMMUTABLE = 'public, max-age=31536000, immutable';

export interface MediaStorage {
  readonly kind: 'local' | 's3';
  /** Where it is, for messages: a folder or s3://bucket. */
  readonly where: string;
  /** An object's bytes, or undefined when there is none of that name. */
  read(name: string): Promise<Uint8Array | undefined>;
  /** Writes an object whole: a reader never sees half of one. */
  write(name: string, bytes: Uint8Array, contentType: string): Promise<void>;
  /** Every object's name and size. */
  list(): AsyncIterable<{ name: string; size: number }>;
}

const TYPES: Record<string, string> = {
  webp: 'image/webp',
  avif: 'image/avif',
  json: 'application/json',
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  tiff: 'image/tiff',
  heif: 'image/heif',
};
export const contentTypeOf = (name: string) => TYPES[name.slice(name.lastIndexOf('.') + 1)] ?? 'application/octet-stream';

/** A folder on this machine. */
export function folderStorage(dir: string): MediaStorage {
  return {
    kind: 'local',
    where: dir,
    async read(name) {
      try {
        return readFileSync(join(dir, name));
      } catch {
        return undefined;
      }
    },
    async write(name, bytes) {
      mkdirSync(dir, { recursive: true });
      const path = join(dir, name);
      writeFileSync(`${path}.tmp`, bytes);
      renameSync(`${path}.tmp`, path);
    },
    async *list() {
      let names: string[];
      try {
        names = readdirSync(dir);
      } catch {
        return;
      }
      for (const name of names.sort()) {
        if (name.endsWith('.tmp')) continue;
        const stat = statSync(join(dir, name), { throwIfNoEntry: false });
        if (stat?.isFile()) yield { name, size: stat.size };
      }
    },
  };
}

export interface BucketOptions {
  bucket: string;
  endpoint: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Path-style addresses (endpoint/bucket/key): MinIO and most self-hosted servers; the hosted ones take both. */
  pathStyle: boolean;
}

/** A bucket of S3-compatible storage, through the AWS SDK (signed requests, retries with back-off). */
export function bucketStorage(options: BucketOptions): MediaStorage {
  // The SDK is loaded with the first call: 12 MB of modules a shop on its folder never needs.
  const client = import('@aws-sdk/client-s3').then((sdk) => ({
    sdk,
    s3: new sdk.S3Client({
      endpoint: options.endpoint,
      region: options.region,
      forcePathStyle: options.pathStyle,
      credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey },
      maxAttempts: 4,
    }),
  }));
  return {
    kind: 's3',
    where: `s3://${options.bucket}`,
    async read(name) {
      const { sdk, s3 } = await client;
      try {
        const answer = await s3.send(new sdk.GetObjectCommand({ Bucket: options.bucket, Key: name }));
        return answer.Body ? await answer.Body.transformToByteArray() : undefined;
      } catch (error) {
        if (error instanceof sdk.NoSuchKey || (error as { name?: string }).name === 'NotFound') return undefined;
        throw error;
      }
    },
    async write(name, bytes, contentType) {
      const { sdk, s3 } = await client;
      await s3.send(new sdk.PutObjectCommand({ Bucket: options.bucket, Key: name, Body: bytes, ContentType: contentType, CacheControl: IMMUTABLE }));
    },
    async *list() {
      const { sdk, s3 } = await client;
      let token: string | undefined;
      do {
        const page = await s3.send(new sdk.ListObjectsV2Command({ Bucket: options.bucket, ContinuationToken: token }));
        for (const object of page.Contents ?? []) if (object.Key) yield { name: object.Key, size: object.Size ?? 0 };
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
    },
  };
}

/** The bucket the environment names (MEDIA_STORAGE=s3), or undefined. */
export function bucketOf(e: Env): BucketOptions | undefined {
  return e.MEDIA_STORAGE === 's3' ? bucketSettings(e) : undefined;
}

/** The bucket's settings as far as the environment gives them (media:migrate copies before the switch), or undefined. */
export function bucketSettings(e: Env): BucketOptions | undefined {
  if (!e.S3_BUCKET || !e.S3_ENDPOINT || !e.S3_ACCESS_KEY_ID || !e.S3_SECRET_ACCESS_KEY) return undefined;
  return {
    bucket: e.S3_BUCKET ?? '',
    endpoint: e.S3_ENDPOINT ?? '',
    region: e.S3_REGION,
    accessKeyId: e.S3_ACCESS_KEY_ID ?? '',
    secretAccessKey: e.S3_SECRET_ACCESS_KEY ?? '',
    pathStyle: e.S3_PATH_STYLE,
  };
}

let configured: MediaStorage | undefined;
/** Where this shop keeps its photos. */
export function mediaStorage(): MediaStorage {
  if (configured) return configured;
  const e = env();
  const bucket = bucketOf(e);
  configured = bucket ? bucketStorage(bucket) : folderStorage(join(e.DATA_DIR, 'media'));
  return configured;
}

/** Where a run writes photos: the bucket when MEDIA_STORAGE=s3, else the folder it was given (DATA_DIR/media, a test's). */
export function photoStorage(dir: string): MediaStorage {
  const bucket = bucketOf(env());
  return bucket ? mediaStorage() : folderStorage(dir);
}

/**
 * The address pages give a stored photo: `/media/…` as stored, served by the front from the folder; or
 * under MEDIA_URL (the bucket's or a CDN's address) when set.
 */
export function publicMediaUrl(template: string): string {
  const base = mediaBase();
  if (!base || !template.startsWith('/media/')) return template;
  return `${base}/${template.slice('/media/'.length)}`;
}

/** MEDIA_URL, or the bucket's own path-style address; undefined when the front serves /media/ itself. */
export function mediaBase(): string | undefined {
  const e = env();
  const bucket = bucketOf(e);
  const base = e.MEDIA_URL ?? (bucket ? `${bucket.endpoint.replace(/\/+$/, '')}/${bucket.bucket}` : undefined);
  return base?.replace(/\/+$/, '');
}

/** The origin pages must allow images from (their CSP), when photos are not the shop's own. */
export function mediaOrigin(): string | undefined {
  const base = mediaBase();
  return base ? new URL(base).origin : undefined;
}

export interface CopyReport {
  copied: number;
  bytes: number;
  /** Already at the target with the same size: left alone. */
  present: number;
}

/**
 * Copies every object of one storage to the other that is not there already with the same size, eight at
 * a time; descriptions (`.json`) after every rendition, since a description says its photo is whole. A run
 * cut short is taken up by the next, and a run with nothing new copies nothing.
 */
export async function copyMedia(from: MediaStorage, to: MediaStorage, onProgress: (report: CopyReport) => void = () => {}): Promise<CopyReport> {
  const there = new Map<string, number>();
  for await (const object of to.list()) there.set(object.name, object.size);
  const missing: { name: string; size: number }[] = [];
  const report: CopyReport = { copied: 0, bytes: 0, present: 0 };
  for await (const object of from.list()) {
    if (there.get(object.name) === object.size) report.present++;
    else missing.push(object);
  }
  const copy = async (batch: { name: string; size: number }[]) => {
    let next = 0;
    const worker = async () => {
      for (let item = batch[next++]; item; item = batch[next++]) {
        const bytes = await from.read(item.name);
        if (!bytes) continue;
        await to.write(item.name, bytes, contentTypeOf(item.name));
        report.copied++;
        report.bytes += bytes.byteLength;
        onProgress(report);
      }
    };
    await Promise.all(Array.from({ length: 8 }, worker));
  };
  await copy(missing.filter((o) => !o.name.endsWith('.json')));
  await copy(missing.filter((o) => o.name.endsWith('.json')));
  return report;
}
