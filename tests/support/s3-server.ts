// A real S3 protocol server on loopback for the tests (s3rver: the S3 REST protocol, buckets as folders),
// and the environment that points a shop or a command at one of its buckets.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';

export interface S3Server {
  endpoint: string;
  bucket: string;
  /** MEDIA_STORAGE=s3 and the bucket's settings. */
  env: Record<string, string>;
  /** The bucket's public address of an object. */
  url(name: string): string;
  stop(): Promise<void>;
}

export async function startS3Server(bucket = 'shop-media'): Promise<S3Server> {
  const directory = mkdtempSync(join(tmpdir(), 's3rver-'));
  const server = new S3rver({ port: 0, address: '127.0.0.1', directory, silent: true, configureBuckets: [{ name: bucket }] });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    bucket,
    env: {
      MEDIA_STORAGE: 's3',
      S3_BUCKET: bucket,
      S3_ENDPOINT: endpoint,
      S3_REGION: 'ru-central1',
      // s3rver's own key pair.
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
    },
    url: (name) => `${endpoint}/${bucket}/${name}`,
    stop: async () => {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
