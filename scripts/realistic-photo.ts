// Product photos for benchmarks: a real photo's size (2000×2667) and a real JPEG's weight (300–800 KB) —
// smooth areas and fine grain, as fabric under studio light — not noise (which no camera makes and no
// codec compresses) nor flat colour (which every codec makes free).
import sharp from 'sharp';

/**
 * A photo of a real one's size whose JPEG weighs what a real one does: a studio background's smooth
 * gradient, a garment with folds and a woven texture, and the camera's fine grain (which, like a real
 * sensor's, mostly averages out when the pages' renditions are made).
 */
export async function realisticPhoto(seed: number): Promise<Buffer> {
  const w = 500;
  const h = 667;
  const raw = Buffer.alloc(w * h * 3);
  let x = (seed * 2654435761) >>> 0;
  const random = () => {
    x = (x * 1103515245 + 12345) >>> 0;
    return (x >>> 16) / 65536;
  };
  const hue = [
    [120, 40, 50],
    [40, 60, 110],
    [200, 180, 150],
    [30, 30, 35],
    [90, 110, 70],
  ][seed % 5] as [number, number, number];
  const phase = random() * 6;
  for (let py = 0; py < h; py++)
    for (let px = 0; px < w; px++) {
      const i = (py * w + px) * 3;
      const dx = (px - w / 2) / (w * 0.3);
      const dy = (py - h * 0.55) / (h * 0.4);
      const inside = dx * dx + dy * dy < 1;
      const weave = (random() - 0.5) * 40 + ((px + py) % 4 < 2 ? 3 : -3);
      const fold = Math.sin(px / 9 + phase + Math.sin(py / 23) * 2) * 28;
      for (let c = 0; c < 3; c++) {
        const value = inside ? (hue[c] as number) + fold + weave : 238 - py * 0.04 - Math.abs(px - w / 2) * 0.03;
        raw[i + c] = Math.max(0, Math.min(255, Math.round(value)));
      }
    }
  const grain = Buffer.alloc(2000 * 2667);
  for (let i = 0; i < grain.length; i++) grain[i] = 114 + Math.floor(random() * 28);
  const base = await sharp(raw, { raw: { width: w, height: h, channels: 3 } })
    .resize(2000, 2667, { kernel: 'cubic' })
    .blur(1.2)
    .raw()
    .toBuffer();
  return sharp(base, { raw: { width: 2000, height: 2667, channels: 3 } })
    .composite([{ input: grain, raw: { width: 2000, height: 2667, channels: 1 }, blend: 'overlay' }])
    .jpeg({ quality: 82 })
    .toBuffer();
}
