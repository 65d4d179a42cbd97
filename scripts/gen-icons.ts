// `node scripts/gen-icons.ts`: the shop's icons from public/favicon.svg (a drawn path, no font needed) —
// favicon.ico (16, 32 and 48 px PNGs in an ICO container), the apple-touch icon and the web manifest's
// 192 and 512 px icons, one of them with the safe zone a "maskable" icon needs. The results are
// committed in public/; run again after changing the SVG.
import { readFileSync, writeFileSync } from 'node:fs';
import sharp from 'sharp';

const svg = readFileSync('public/favicon.svg');
const BACKGROUND = '#1d1d1f';

async function png(size: number, padding = 0): Promise<Buffer> {
  const inner = size - 2 * padding;
  const drawn = await sharp(svg, { density: Math.ceil((72 * inner) / 32) * 2 })
    .resize(inner, inner)
    .png()
    .toBuffer();
  if (padding === 0) return sharp(drawn).png({ compressionLevel: 9 }).toBuffer();
  return sharp({ create: { width: size, height: size, channels: 4, background: BACKGROUND } })
    .composite([{ input: drawn, left: padding, top: padding }])
    .png({ compressionLevel: 9 })
    .toBuffer();
}

/** An ICO file holding PNG images (read by every browser since Internet Explorer 9). */
function ico(images: { size: number; data: Buffer }[]): Buffer {
  const header = Buffer.alloc(6);
  header.writeUInt16LE(0, 0);
  header.writeUInt16LE(1, 2);
  header.writeUInt16LE(images.length, 4);
  let offset = 6 + 16 * images.length;
  const entries = images.map(({ size, data }) => {
    const entry = Buffer.alloc(16);
    entry.writeUInt8(size >= 256 ? 0 : size, 0);
    entry.writeUInt8(size >= 256 ? 0 : size, 1);
    entry.writeUInt16LE(1, 4);
    entry.writeUInt16LE(32, 6);
    entry.writeUInt32LE(data.length, 8);
    entry.writeUInt32LE(offset, 12);
    offset += data.length;
    return entry;
  });
  return Buffer.concat([header, ...entries, ...images.map((i) => i.data)]);
}

const sizes = [16, 32, 48];
writeFileSync('public/favicon.ico', ico(await Promise.all(sizes.map(async (size) => ({ size, data: await png(size) })))));
writeFileSync('public/apple-touch-icon.png', await png(180));
writeFileSync('public/icons/icon-192.png', await png(192));
writeFileSync('public/icons/icon-512.png', await png(512));
// Maskable: the launcher may crop to a circle, so the mark keeps to the middle 80 %.
writeFileSync('public/icons/icon-maskable-512.png', await png(512, 52));
console.log('icons written to public/');
