import { defineConfig, presetWind4 } from 'unocss';

// Design tokens of a calm, premium fashion shop: warm neutrals, near-black ink, one accent (deep burgundy).
export default defineConfig({
  presets: [presetWind4({ preflights: { reset: true } })],
  theme: {
    colors: {
      ink: {
        DEFAULT: '#1d1d1f',
        soft: '#4a4a4f',
        // 4.6:1 on the warm paper, 5:1 on white (WCAG AA for small text; #86868b was 3.6:1).
        muted: '#6e6e73',
      },
      paper: { DEFAULT: '#ffffff', warm: '#f7f5f1', stone: '#ece8e1' },
      line: { DEFAULT: '#e4e0d9', strong: '#cfc9bf' },
      accent: { DEFAULT: '#7a1f2b', hover: '#611822', soft: '#f4e7e8' },
      success: '#2f6b45',
      danger: '#b42318',
      warning: '#a15c07',
    },
    font: {
      sans: "'Manrope Variable', 'Manrope Fallback', system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif",
      display: "'Cormorant Garamond', 'Cormorant Fallback', 'Times New Roman', serif",
    },
    radius: { card: '2px', pill: '999px' },
  },
  // wind4 writes each theme colour twice: color-mix in sRGB, then an oklab twin under
  // @supports (color: color-mix(in lab, red, red)). Mixing a colour with transparent keeps its hue in any
  // space, and the theme is sRGB hex, so the twins paint what the rules above them paint: 6 KB of
  // stylesheet, half of it in every page's first-paint CSS (docs/decisions/016), for nothing.
  //
  // And each colour utility mixes its colour with transparent by a `--un-*-opacity` that no class of the shop
  // sets (there is no `bg-opacity-50`; `bg-black/45` writes its own percentage): always 100%, so the colour
  // itself, 40 bytes shorter in each of the rules every page's first paint carries.
  postprocess: [
    (util) => {
      if (util.parent?.includes('color-mix(in lab')) return [];
      for (const entry of util.entries)
        if (typeof entry[1] === 'string')
          entry[1] = entry[1].replace(/color-mix\(in srgb, (var\(--colors-[\w-]+\)) var\(--un-[\w-]+-opacity\), transparent\)/g, '$1');
      return undefined;
    },
  ],
  // Imported photos' placeholder colours (catalog.ts placeholderClass): ph-RGB, each digit a level 0–4 of
  // its channel. Named by data, not by source, so every one is kept.
  rules: [
    [
      /^ph-([0-4])([0-4])([0-4])$/,
      ([, r, g, b]) => ({
        'background-color': `#${[r, g, b]
          .map((l) =>
            Math.round((Number(l) * 255) / 4)
              .toString(16)
              .padStart(2, '0'),
          )
          .join('')}`,
      }),
    ],
  ],
  safelist: Array.from({ length: 125 }, (_, i) => `ph-${Math.floor(i / 25)}${Math.floor(i / 5) % 5}${i % 5}`),
  shortcuts: {
    container: 'mx-auto w-full max-w-[1360px] px-4 md:px-8',
    btn: 'inline-flex items-center justify-center gap-2 h-11 px-6 text-sm font-600 tracking-wide uppercase transition-colors duration-150 cursor-pointer disabled:opacity-50 disabled:cursor-not-allowed',
    'btn-primary': 'btn bg-ink text-white hover:bg-accent',
    'btn-outline': 'btn border border-ink text-ink hover:bg-ink hover:text-white',
    'link-quiet': 'text-ink-soft hover:text-ink transition-colors',
    'heading-display': 'font-display font-500 tracking-tight text-ink',
    // Parts of a page below every first screen: not laid out or painted, nor their fonts fetched, until
    // they come near the viewport (docs/decisions/016); the estimate holds their place meanwhile.
    'below-fold': '[content-visibility:auto] [contain-intrinsic-size:auto_40rem]',
  },
});
