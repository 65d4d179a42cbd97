// The Vite plugin behind layout.labels.client.ts: `virtual:frame-labels/{locale}` is a module whose default
// export is frameLabels(locale), made at build. astro.config.mjs loads it.
import type { Plugin } from 'vite';
import { frameLabels } from './layout.labels.ts';

const PREFIX = 'virtual:frame-labels/';
const RESOLVED = '\0';

export function frameLabelsChunks(): Plugin {
  return {
    name: 'shop:frame-labels',
    resolveId(id) {
      return id === `${PREFIX}ru` || id === `${PREFIX}en` ? RESOLVED + id : undefined;
    },
    load(id) {
      if (id !== `${RESOLVED}${PREFIX}ru` && id !== `${RESOLVED}${PREFIX}en`) return undefined;
      return `export default ${JSON.stringify(frameLabels(id.endsWith('en') ? 'en' : 'ru'))};`;
    },
  };
}
