// `npm run bench -- --photo-pages [--photos 24] [--runs 3]` (or `node scripts/photo-pages.ts`): the
// catalogue's pages with real-sized photos (issue 23). The generated catalogue's drawn images are small
// and few; a shop's real photos are 2000×2667 JPEGs of 300–800 KB. This seeds the usual 2,000 products,
// puts --photos such photos (scripts/realistic-photo.ts) through the import's pipeline (WebP and AVIF at
// the pages' widths, a placeholder colour each), gives every product's images their renditions, and runs
// `npm run lighthouse` on the category and product pages (mobile, first visit, medians of --runs). The
// budgets: performance ≥ 95, LCP ≤ 2 s, a product page's first visit ≤ 350 KB. Figures in
// docs/performance.md "Pages with real photos".
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { limiter, storePhoto } from '../src/features/media/media.server.ts';
import { startTestServer } from '../tests/support/server.ts';
import { commandLine, wholeNumber } from './cli.ts';
import { realisticPhoto } from './realistic-photo.ts';

const cli = commandLine('npm run bench -- --photo-pages [--photos N] [--runs N]', {
  options: { photos: { type: 'string', default: '24' }, runs: { type: 'string', default: '3' } },
});
const values = cli.values;
const count = wholeNumber(cli, '--photos', values.photos, { min: 1 });
wholeNumber(cli, '--runs', values.runs, { min: 1 });

const server = await startTestServer({
  label: 'photo-pages',
  seedProducts: 2000,
  env: { LOG_LEVEL: 'warn' },
  async prepare(db, fresh) {
    const photos = await Promise.all(Array.from({ length: count }, (_, i) => realisticPhoto(i + 1)));
    const kb = photos.map((p) => Math.round(p.length / 1024)).sort((a, b) => a - b);
    const limit = limiter(8);
    const started = performance.now();
    const stored = await Promise.all(photos.map((p) => limit(() => storePhoto(p, join(fresh.dataDir, 'media')))));
    const seconds = (performance.now() - started) / 1000;
    // Every image of every product becomes one of the real photos' renditions (a shop whose photos all
    // came in through the import).
    await db.query(
      `UPDATE product_images i SET url_template = s.url_template, widths = s.widths::int[], width = s.width, height = s.height, color = s.color
         FROM unnest($1::int[], $2::text[], $3::text[], $4::int[], $5::int[], $6::text[]) AS s(k, url_template, widths, width, height, color)
        WHERE (i.product_id + i.position) % $7 = s.k`,
      [
        stored.map((_, k) => k),
        stored.map((s) => s.urlTemplate),
        stored.map((s) => `{${s.widths.join(',')}}`),
        stored.map((s) => s.width),
        stored.map((s) => s.height),
        stored.map((s) => s.color),
        count,
      ],
    );
    console.log(
      `${count} photos of 2000×2667, ${kb[0]}–${kb.at(-1)} KB (median ${kb[Math.floor(kb.length / 2)]}), converted in ${seconds.toFixed(1)} s: ${(count / seconds).toFixed(1)} photos/s`,
    );
  },
});

let code = 0;
try {
  for (const page of ['category', 'product']) {
    const run = spawnSync(
      process.execPath,
      ['scripts/lighthouse.ts', server.baseUrl, '--page', page, '--profile', 'first', '--runs', values.runs, '--photos'],
      {
        stdio: 'inherit',
      },
    );
    code ||= run.status ?? 1;
  }
} finally {
  await server.stop();
}
process.exit(code);
