// @ts-check
import { defineConfig } from 'astro/config';
import node from '@astrojs/node';
import react from '@astrojs/react';
import UnoCSS from '@unocss/astro';
import { env, loadDotEnv } from './src/lib/env.ts';
import { ADAPTER_BODY_LIMIT } from './src/lib/http/limits.ts';
import { PAGE_DIRECTIVES, cspHash } from './src/lib/http/csp.ts';
import { REST_CSS_BOOT } from './src/lib/http/first-paint-css.ts';
import { HEAD_BOOT } from './src/layouts/head-boot.ts';
import { messageChunks } from './src/lib/i18n/message-chunks.ts';
import { islandChunks } from './src/lib/island-chunks.ts';
import { frameLabelsChunks } from './src/features/layout/labels-chunk.ts';

// `npm run build` alone reads ./.env too, like `npm start` does before it builds.
loadDotEnv();
const config = env();
// drizzle-orm too: loaded from node_modules, each of its ~200 modules made Node 24 parse the package's
// 178 KB package.json again (its `exports`, to learn the module's format): 0.6 s of every start's CPU
// (docs/performance.md, "The suite in 8 minutes, again").
const SERVER_BUNDLED = ['react', 'react-dom', 'scheduler', '@nanostores/react', 'nanostores', 'react-hook-form', '@hookform/resolvers', 'drizzle-orm'];

export default defineConfig({
  site: config.SITE_URL,
  output: 'server',
  // A backstop for chunked bodies: the adapter cuts any body off past the largest a route takes (the
  // console's feed upload); each route reads within its own, smaller limit (src/lib/http/limits.ts).
  // staticHeaders: the CSP of each prerendered page is written to dist/_headers.json for the front to send
  // as a header (a <meta> policy cannot say frame-ancestors).
  adapter: node({ mode: 'standalone', bodySizeLimit: ADAPTER_BODY_LIMIT, staticHeaders: true }),
  integrations: [
    UnoCSS({ injectReset: false }),
    // React 19 islands (docs/decisions/021).
    react(),
    // client:eager — the first screen's islands: loaded with the page, taps before hydration held and replayed.
    {
      name: 'shop:eager-islands',
      hooks: {
        'astro:config:setup': ({ addClientDirective }) => addClientDirective({ name: 'eager', entrypoint: './src/lib/eager-directive.ts' }),
      },
    },
  ],
  server: { host: config.HOST, port: config.PORT },
  // Every stylesheet a file: the front inlines, per page, the rules its first paint uses and defers the
  // rest (src/lib/http/first-paint-css.ts); a sheet Astro inlined whole would reach every page whole.
  build: { inlineStylesheets: 'never' },
  trailingSlash: 'ignore',
  // Shiki colours code with style attributes, which the CSP refuses; a shop's editors write no code blocks.
  markdown: { syntaxHighlight: false },
  // The API authorises state changes only with a Bearer header, never a cookie alone (DESIGN §4), so there is
  // no CSRF surface for Astro's origin check to guard; left on, it answered API calls with plain-text 403s.
  security: {
    checkOrigin: false,
    // script-src and style-src from the scripts and styles each page uses; the inline scripts written by
    // hand are allowed by their hashes. src/lib/http/csp.ts says the rest.
    csp: {
      directives: [...PAGE_DIRECTIVES],
      // DefaultLayout's one head script (src/layouts/head-boot.ts); the line that switches the deferred stylesheet on
      // (first-paint-css.ts), alone on pages of other layouts.
      scriptDirective: { hashes: [cspHash(HEAD_BOOT), cspHash(REST_CSS_BOOT)] },
    },
  },
  vite: {
    // Islands' strings needed only after an interaction, one chunk per language (src/lib/i18n/groups.ts);
    // the first screen's islands in two shared files (src/lib/island-chunks.ts).
    plugins: [messageChunks(), islandChunks(), frameLabelsChunks()],
    // Components' scripts as files, however small, never inline: inline, each rode in every page's HTML
    // (and its policy), past the first round trip of a phone's connection (docs/decisions/016); as files they
    // are cached once for all pages, and run after parsing either way (module scripts).
    build: { assetsInlineLimit: (file) => (file.endsWith('.js') ? false : undefined) },
    define: { 'process.env.NODE_ENV': JSON.stringify('production'), 'import.meta.env.BUILD_DATE': JSON.stringify(new Date().toISOString()) },
    ssr: {
      // PGlite loads its WASM and data files relative to its own module URL, so it must stay in node_modules.
      external: ['@electric-sql/pglite', 'pg', 'sharp'],
      // Bundled so the server build carries React's production code whatever NODE_ENV the shop runs
      // with: loaded from node_modules under NODE_ENV=development/test, React's development build made
      // every page render about three times slower (measured with --cpu-prof, docs/performance.md).
      noExternal: SERVER_BUNDLED,
    },
    // The prerendered pages' build reads its own list, not ssr's.
    environments: { prerender: { resolve: { noExternal: SERVER_BUNDLED } } },
  },
});
