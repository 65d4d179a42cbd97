// The Vite plugin behind src/lib/i18n/groups.ts: `virtual:messages/{locale}/{group}` is a module whose
// default export is the group's strings in that language, picked by messagesFor like island props are.
// astro.config.mjs loads it; `astro dev` must be restarted to see an edited ru.ts/en.ts in these chunks.
import type { Plugin } from 'vite';
import { MESSAGE_GROUPS, parseMessageChunkId } from './groups.ts';
import { messagesFor } from './index.ts';

const RESOLVED = '\0';

export function messageChunks(): Plugin {
  return {
    name: 'shop:message-chunks',
    resolveId(id) {
      return parseMessageChunkId(id) ? RESOLVED + id : undefined;
    },
    load(id) {
      if (!id.startsWith(RESOLVED)) return undefined;
      const parsed = parseMessageChunkId(id.slice(RESOLVED.length));
      if (!parsed) return undefined;
      return `export default ${JSON.stringify(messagesFor(parsed.locale, ...MESSAGE_GROUPS[parsed.group]))};`;
    },
  };
}
