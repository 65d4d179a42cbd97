// `npm run media:migrate [-- --to s3|local]`: copies the product photos from DATA_DIR/media into the bucket
// (--to s3, the default) or back (--to local), with the bucket of S3_BUCKET, S3_ENDPOINT, S3_REGION,
// S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY (docs/operations.md "Photos in S3-compatible storage"). Only
// what the target lacks is copied: a run cut short is taken up by the next, and a second run copies
// nothing. The shop may keep serving meanwhile: names are the photos' hashes and never change.
// Exit code 0 with a summary; 2 when refused (the reason on stderr).
import { join } from 'node:path';
import { env, loadDotEnv } from '../src/lib/env.ts';
import { commandLine, oneOf } from './cli.ts';

const cli = commandLine('npm run media:migrate -- [--to s3|local]', { options: { to: { type: 'string', default: 's3' } } });
const to = oneOf(cli, '--to', cli.values.to, ['s3', 'local'] as const);
const { bucketSettings, bucketStorage, copyMedia, folderStorage } = await import('../src/features/media/media.storage.server.ts');
loadDotEnv();
const config = env();
const bucket = bucketSettings(config);
if (!bucket) {
  console.error('The bucket is not named: set S3_BUCKET, S3_ENDPOINT, S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY (and S3_REGION) in the environment or .env');
  process.exit(2);
}
const folder = folderStorage(join(config.DATA_DIR, 'media'));
const remote = bucketStorage(bucket);
const [from, target] = to === 's3' ? [folder, remote] : [remote, folder];
console.log(`Copying photos from ${from.where} to ${target.where}…`);
const started = performance.now();
let shown = 0;
try {
  const report = await copyMedia(from, target, (r) => {
    if (r.copied - shown >= 100) {
      shown = r.copied;
      console.log(`  ${r.copied} copied (${(r.bytes / 1024 / 1024).toFixed(1)} MB)`);
    }
  });
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(`Done in ${seconds} s: ${report.copied} copied (${(report.bytes / 1024 / 1024).toFixed(1)} MB), ${report.present} already there.`);
  console.log(JSON.stringify(report));
} catch (error) {
  console.error(`The copy stopped: ${error instanceof Error ? error.message : String(error)}. Run the command again to take it up.`);
  process.exit(1);
}
