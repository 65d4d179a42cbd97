// Product photos for benchmarks: a real photo's size (2000×2667) and a real JPEG's weight (300–800 KB) —
// smooth areas and fine grain, as fabric under studio light — not noise (which no camera makes and no
// codec compresses) nor flat colour (which every codec makes free).
import sharp from 'sharp';

/** A photo of a real one's size whose JPEG weighs what a real one does: smooth areas and fine grain. */
export async function realisticPhoto(seed: number): Promise<Buffer> {
  const w = 250;
  const h = 333;
  const raw = Buffer.alloc(w * h * 3);
  let x = seed * 2654435761;
  for (let i = 0; i < raw.length; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    raw[i] = 90 + ((x >>> 16) % 90) + (i % (w * 3) < w * 1.5 ? 40 : 0);
  }
  const grain = Buffer.alloc(2000 * 2667);
  for (let i = 0; i < grain.length; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    grain[i] = 118 + ((x >>> 16) % 20);
  }
  const base = await sharp(raw, { raw: { width: w, height: h, channels: 3 } })
    .resize(2000, 2667, { kernel: 'cubic' })
    .blur(3)
    .raw()
    .toBuffer();
  const grainy = await sharp(base, { raw: { width: 2000, height: 2667, channels: 3 } })
    .composite([{ input: grain, raw: { width: 2000, height: 2667, channels: 1 }, blend: 'overlay' }])
    .jpeg({ quality: 82 })
    .toBuffer();
  return grainy;
}
