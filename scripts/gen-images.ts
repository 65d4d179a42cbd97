// Draws the product image pool locally (no download): one studio-style silhouette per product kind,
// colour and view, rendered to WebP at every width in IMAGE_WIDTHS. Files that exist are kept, so a
// rebuild costs nothing. Usage: npm run images [-- --force] (--force draws them all again)
//
// The drawn pool is committed (public/img/p, 5.4 MB): drawing it took 42 CPU-seconds of every fresh
// clone's `npm test` (docs/performance.md, "The suite in 8 minutes"). DRAWN_BY names the code that drew
// it — this script and the pool's definitions, hashed — so a change to either draws every file again.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { availableParallelism } from 'node:os';
import sharp from 'sharp';
import { IMAGE_SIZE, IMAGE_WIDTHS, imagePool, imageName, type PoolImage } from '../src/lib/seed/images.ts';
import type { ImageKind } from '../src/lib/seed/vocabulary.ts';
import { commandLine } from './cli.ts';

const OUT_DIR = resolve('public/img/p');
const DRAWN_BY = resolve('scripts/gen-images.drawn-by'); // kept out of public/: not a file to serve
const drawer = createHash('sha256');
for (const file of ['scripts/gen-images.ts', 'src/lib/seed/images.ts', 'src/lib/seed/vocabulary.ts']) drawer.update(readFileSync(resolve(file)));
const drawerHash = drawer.digest('hex');
const forced = commandLine('npm run images -- [--force]', { options: { force: { type: 'boolean', default: false } } }).values.force;
const force = forced || !existsSync(DRAWN_BY) || readFileSync(DRAWN_BY, 'utf8').trim() !== drawerHash;

function shade(hex: string, amount: number): string {
  const n = Number.parseInt(hex.slice(1), 16);
  const channel = (shift: number) => {
    const c = (n >> shift) & 255;
    const v = amount < 0 ? c * (1 + amount) : c + (255 - c) * amount;
    return Math.max(0, Math.min(255, Math.round(v)))
      .toString(16)
      .padStart(2, '0');
  };
  return `#${channel(16)}${channel(8)}${channel(0)}`;
}

// Each shape is drawn in a 720×960 frame with the product roughly centred.
const SHAPES: Record<ImageKind, (f: string, s: string, l: string) => string> = {
  dress: (f, s, l) =>
    `<path d="M300 160 Q360 195 420 160 L445 330 Q432 350 410 362 L545 820 Q360 858 175 820 L310 362 Q288 350 275 330 Z" fill="${f}" stroke="${s}" stroke-width="4"/><path d="M300 160 L318 96 M420 160 L402 96" stroke="${s}" stroke-width="6"/><path d="M285 352 Q360 372 435 352" stroke="${l}" stroke-width="10" fill="none"/>`,
  skirt: (f, s, l) =>
    `<rect x="245" y="230" width="230" height="44" fill="${shade(f, -0.12)}" stroke="${s}" stroke-width="4"/><path d="M245 274 L475 274 L565 790 Q360 822 155 790 Z" fill="${f}" stroke="${s}" stroke-width="4"/><path d="M320 290 L290 800 M400 290 L430 800 M360 290 L360 810" stroke="${l}" stroke-width="3" opacity=".6"/>`,
  trousers: (f, s, l) =>
    `<path d="M235 170 L485 170 L505 830 L392 830 L360 380 L328 830 L215 830 Z" fill="${f}" stroke="${s}" stroke-width="4"/><rect x="235" y="170" width="250" height="36" fill="${shade(f, -0.1)}" stroke="${s}" stroke-width="4"/><path d="M300 220 L275 820 M420 220 L445 820" stroke="${l}" stroke-width="3" opacity=".5"/>`,
  top: (f, s, l) =>
    `<path d="M250 200 L312 168 Q360 205 408 168 L470 200 L565 305 L512 356 L470 315 L470 730 L250 730 L250 315 L208 356 L155 305 Z" fill="${f}" stroke="${s}" stroke-width="4"/><path d="M312 168 Q360 230 408 168" stroke="${s}" stroke-width="4" fill="${shade(f, -0.15)}"/><path d="M360 230 L360 720" stroke="${l}" stroke-width="3" opacity=".5"/>`,
  sweater: (f, s, l) =>
    `<path d="M250 205 L312 170 Q360 212 408 170 L470 205 L548 530 L495 548 L470 340 L470 748 L250 748 L250 340 L225 548 L172 530 Z" fill="${f}" stroke="${s}" stroke-width="4"/><rect x="250" y="716" width="220" height="34" fill="${shade(f, -0.12)}"/><path d="M280 260 L280 700 M320 260 L320 700 M360 260 L360 700 M400 260 L400 700 M440 260 L440 700" stroke="${l}" stroke-width="3" opacity=".35"/>`,
  coat: (f, s, l) =>
    `<path d="M250 160 L312 138 L360 232 L408 138 L470 160 L548 565 L496 580 L476 335 L492 845 L228 845 L244 335 L224 580 L172 565 Z" fill="${f}" stroke="${s}" stroke-width="4"/><path d="M360 232 L360 845" stroke="${s}" stroke-width="4"/><circle cx="385" cy="360" r="9" fill="${s}"/><circle cx="385" cy="470" r="9" fill="${s}"/><circle cx="385" cy="580" r="9" fill="${s}"/><path d="M312 138 L340 330 L360 232 M408 138 L380 330 L360 232" stroke="${l}" stroke-width="5" fill="none"/>`,
  sneaker: (f, s, l) =>
    `<path d="M135 605 Q145 520 232 500 L330 470 Q385 458 425 500 L525 560 Q605 580 605 632 L605 660 L135 660 Z" fill="${f}" stroke="${s}" stroke-width="4"/><rect x="128" y="650" width="484" height="44" rx="14" fill="#f7f5f1" stroke="${s}" stroke-width="4"/><path d="M300 505 L345 545 M330 492 L375 532 M360 484 L405 524" stroke="${l}" stroke-width="8" stroke-linecap="round"/><path d="M175 610 Q300 590 420 620" stroke="${l}" stroke-width="6" fill="none" opacity=".7"/>`,
  heel: (f, s, l) =>
    `<path d="M150 662 Q150 600 242 590 Q332 584 420 540 L520 500 Q558 494 556 532 L546 562 L532 765 L508 765 L505 606 Q420 642 330 670 L168 684 Z" fill="${f}" stroke="${s}" stroke-width="4"/><path d="M190 640 Q300 630 420 585" stroke="${l}" stroke-width="6" fill="none" opacity=".7"/>`,
  boot: (f, s, l) =>
    `<path d="M288 210 L432 210 L442 560 Q452 602 522 622 Q592 642 592 692 L592 722 L268 722 L268 560 Z" fill="${f}" stroke="${s}" stroke-width="4"/><rect x="262" y="712" width="336" height="34" rx="8" fill="${shade(f, -0.35)}"/><path d="M300 260 L300 600" stroke="${l}" stroke-width="6" opacity=".6"/>`,
  loafer: (f, s, l) =>
    `<path d="M148 662 Q160 580 262 570 L470 558 Q562 558 582 620 L588 682 L148 690 Z" fill="${f}" stroke="${s}" stroke-width="4"/><path d="M300 575 Q330 625 420 610" stroke="${l}" stroke-width="10" fill="none"/><rect x="144" y="682" width="448" height="24" rx="8" fill="${shade(f, -0.35)}"/>`,
  'shoulder-bag': (f, s, l) =>
    `<path d="M232 452 Q360 110 488 452" stroke="${shade(f, -0.2)}" stroke-width="14" fill="none"/><rect x="198" y="440" width="324" height="264" rx="26" fill="${f}" stroke="${s}" stroke-width="4"/><path d="M198 466 Q198 440 224 440 L496 440 Q522 440 522 466 L522 560 Q360 612 198 560 Z" fill="${shade(f, -0.1)}" stroke="${s}" stroke-width="4"/><rect x="340" y="560" width="40" height="28" rx="6" fill="#c9a24e"/><path d="M225 680 L495 680" stroke="${l}" stroke-width="3" opacity=".5"/>`,
  tote: (f, s, l) =>
    `<path d="M260 400 Q260 250 330 250 Q360 250 360 330 M360 330 Q360 250 390 250 Q460 250 460 400" stroke="${shade(f, -0.25)}" stroke-width="14" fill="none"/><path d="M178 400 L542 400 L572 765 L148 765 Z" fill="${f}" stroke="${s}" stroke-width="4"/><path d="M190 430 L530 430" stroke="${l}" stroke-width="4" opacity=".6"/>`,
  clutch: (f, s, l) =>
    `<rect x="158" y="470" width="404" height="200" rx="18" fill="${f}" stroke="${s}" stroke-width="4"/><path d="M158 488 L360 600 L562 488" stroke="${s}" stroke-width="4" fill="${shade(f, -0.1)}"/><circle cx="360" cy="598" r="14" fill="#c9a24e"/><path d="M175 650 L545 650" stroke="${l}" stroke-width="3" opacity=".5"/>`,
  backpack: (f, s, l) =>
    `<path d="M320 230 Q320 160 360 160 Q400 160 400 230" stroke="${shade(f, -0.25)}" stroke-width="14" fill="none"/><path d="M228 310 Q228 228 300 228 L420 228 Q492 228 492 310 L502 770 L218 770 Z" fill="${f}" stroke="${s}" stroke-width="4"/><rect x="268" y="520" width="184" height="170" rx="18" fill="${shade(f, -0.12)}" stroke="${s}" stroke-width="4"/><path d="M228 330 Q360 400 492 330" stroke="${l}" stroke-width="5" fill="none" opacity=".7"/>`,
  ring: (f, s) =>
    `<circle cx="360" cy="560" r="118" fill="none" stroke="${f}" stroke-width="30"/><circle cx="360" cy="560" r="118" fill="none" stroke="${s}" stroke-width="2"/><path d="M318 430 L360 372 L402 430 L360 468 Z" fill="#eef3f7" stroke="${s}" stroke-width="3"/><path d="M318 430 L402 430 M360 372 L340 430 L360 468 L380 430 Z" stroke="#b8c4cc" stroke-width="2" fill="none"/>`,
  earrings: (f, s) =>
    `<path d="M270 300 Q270 260 300 260 Q330 260 330 300 L330 380" stroke="${f}" stroke-width="10" fill="none"/><circle cx="330" cy="440" r="52" fill="${f}" stroke="${s}" stroke-width="3"/><circle cx="330" cy="440" r="22" fill="#f4f6f8"/><path d="M390 360 Q390 320 420 320 Q450 320 450 360 L450 440" stroke="${f}" stroke-width="10" fill="none"/><circle cx="450" cy="500" r="52" fill="${f}" stroke="${s}" stroke-width="3"/><circle cx="450" cy="500" r="22" fill="#f4f6f8"/>`,
  bracelet: (f, s) =>
    `<ellipse cx="360" cy="520" rx="190" ry="92" fill="none" stroke="${f}" stroke-width="30"/><ellipse cx="360" cy="520" rx="190" ry="92" fill="none" stroke="${s}" stroke-width="2"/><circle cx="360" cy="612" r="26" fill="${f}" stroke="${s}" stroke-width="3"/>`,
  necklace: (f, s) =>
    `<path d="M190 220 Q200 560 360 600 Q520 560 530 220" stroke="${f}" stroke-width="10" fill="none" stroke-dasharray="18 6"/><path d="M360 600 L360 640" stroke="${f}" stroke-width="6"/><path d="M360 640 L404 700 L360 790 L316 700 Z" fill="${f}" stroke="${s}" stroke-width="3"/><path d="M360 660 L388 702 L360 760 L332 702 Z" fill="#eef3f7"/>`,
  belt: (f, s, l) =>
    `<rect x="70" y="446" width="580" height="68" rx="10" fill="${f}" stroke="${s}" stroke-width="4"/><rect x="180" y="426" width="110" height="108" rx="14" fill="none" stroke="#c9a24e" stroke-width="14"/><path d="M330 462 L630 462 M330 498 L630 498" stroke="${l}" stroke-width="3" stroke-dasharray="10 8" opacity=".7"/><circle cx="420" cy="480" r="7" fill="${s}"/><circle cx="480" cy="480" r="7" fill="${s}"/><circle cx="540" cy="480" r="7" fill="${s}"/>`,
  sunglasses: (f) =>
    `<path d="M120 430 L170 420 M600 430 L550 420" stroke="${f}" stroke-width="12"/><rect x="165" y="410" width="170" height="130" rx="48" fill="${shade(f, -0.35)}" stroke="${f}" stroke-width="16"/><rect x="385" y="410" width="170" height="130" rx="48" fill="${shade(f, -0.35)}" stroke="${f}" stroke-width="16"/><path d="M335 445 Q360 420 385 445" stroke="${f}" stroke-width="12" fill="none"/><path d="M200 440 L240 470" stroke="#ffffff" stroke-width="8" opacity=".35"/>`,
  scarf: (f, s, l) =>
    `<rect x="210" y="330" width="300" height="300" transform="rotate(45 360 480)" fill="${f}" stroke="${s}" stroke-width="4"/><rect x="245" y="365" width="230" height="230" transform="rotate(45 360 480)" fill="none" stroke="${l}" stroke-width="10"/><circle cx="360" cy="480" r="48" fill="none" stroke="${l}" stroke-width="8"/><rect x="285" y="405" width="150" height="150" transform="rotate(45 360 480)" fill="none" stroke="${shade(f, -0.2)}" stroke-width="4"/>`,
  wallet: (f, s, l) =>
    `<rect x="190" y="380" width="340" height="240" rx="18" fill="${f}" stroke="${s}" stroke-width="4"/><rect x="210" y="400" width="300" height="200" rx="10" fill="none" stroke="${l}" stroke-width="3" stroke-dasharray="9 7"/><path d="M190 470 L530 470 M190 540 L530 540" stroke="${shade(f, -0.15)}" stroke-width="5"/><rect x="330" y="440" width="60" height="18" rx="4" fill="#c9a24e"/>`,
  watch: (f, s) =>
    `<rect x="318" y="170" width="84" height="620" rx="20" fill="${shade(f, -0.1)}" stroke="${s}" stroke-width="3"/><circle cx="360" cy="480" r="128" fill="${f}" stroke="${s}" stroke-width="4"/><circle cx="360" cy="480" r="104" fill="#fbfaf7"/><path d="M360 480 L360 400 M360 480 L418 510" stroke="#1d1d1f" stroke-width="8" stroke-linecap="round"/><circle cx="360" cy="480" r="8" fill="#1d1d1f"/><rect x="486" y="462" width="22" height="36" rx="6" fill="${f}" stroke="${s}" stroke-width="3"/>`,
  hat: (f, s, l) =>
    `<ellipse cx="360" cy="600" rx="270" ry="64" fill="${shade(f, -0.08)}" stroke="${s}" stroke-width="4"/><path d="M225 590 Q228 360 360 350 Q492 360 495 590 Q360 626 225 590 Z" fill="${f}" stroke="${s}" stroke-width="4"/><path d="M232 540 Q360 575 488 540" stroke="${l}" stroke-width="26" fill="none"/>`,
};

function svgFor(image: PoolImage): string {
  const { width, height } = IMAGE_SIZE;
  const fill = image.color.hex;
  const stroke = shade(fill, -0.35);
  const light = shade(fill, 0.35);
  const background = image.view === 1 ? '#f3f0ea' : '#e9e4dc';
  // The second view is a closer crop, as a detail shot in a product gallery.
  const transform = image.view === 1 ? '' : 'transform="translate(360 480) scale(1.45) translate(-360 -470)"';
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">
<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#fff" stop-opacity=".18"/><stop offset="1" stop-color="#000" stop-opacity=".12"/></linearGradient>
<radialGradient id="bg" cx=".5" cy=".4" r=".8"><stop offset="0" stop-color="#ffffff" stop-opacity=".55"/><stop offset="1" stop-color="#ffffff" stop-opacity="0"/></radialGradient></defs>
<rect width="${width}" height="${height}" fill="${background}"/><rect width="${width}" height="${height}" fill="url(#bg)"/>
<ellipse cx="360" cy="${image.view === 1 ? 880 : 900}" rx="230" ry="22" fill="#000" opacity=".07"/>
<g ${transform}>${SHAPES[image.kind](fill, stroke, light)}</g>
</svg>`;
}

async function render(image: PoolImage): Promise<number> {
  const name = imageName(image.kind, image.color.slug, image.view);
  const targets = IMAGE_WIDTHS.map((w) => ({ w, path: join(OUT_DIR, `${name}-w${w}.webp`) })).filter((t) => force || !existsSync(t.path));
  if (targets.length === 0) return 0;
  const base = sharp(Buffer.from(svgFor(image)));
  await Promise.all(targets.map((t) => base.clone().resize({ width: t.w }).webp({ quality: 78, effort: 4 }).toFile(t.path)));
  return targets.length;
}

async function main(): Promise<void> {
  mkdirSync(OUT_DIR, { recursive: true });
  const pool = imagePool();
  const started = Date.now();
  let written = 0;
  let next = 0;
  const workers = Array.from({ length: Math.max(2, availableParallelism()) }, async () => {
    while (next < pool.length) {
      const image = pool[next++] as PoolImage;
      const count = await render(image);
      written += count;
    }
  });
  await Promise.all(workers);
  if (force) writeFileSync(DRAWN_BY, `${drawerHash}\n`);
  console.log(
    `[images] ${pool.length} pool images × ${IMAGE_WIDTHS.length} widths: ${written} written in ${((Date.now() - started) / 1000).toFixed(1)} s (${OUT_DIR})`,
  );
}

await main();
