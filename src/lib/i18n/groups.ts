// Message groups an island loads when it first needs them instead of taking them as props (decision 008):
// strings shown only after an interaction (a modal's forms) need not ride in every page's HTML. Each
// group in each language is a module of its own (`virtual:messages/{locale}/{group}`, made at build by
// src/lib/i18n/message-chunks.ts), which Vite emits as a hashed chunk: a page fetches its language only,
// once, and the browser keeps it.
import type { KeysWith, Locale } from './index.ts';

export const MESSAGE_GROUPS = {
  modals: ['auth.', 'buyout.', 'validation.', 'ui.loading', 'nav.account', 'nav.close'],
} as const satisfies Record<string, readonly string[]>;

export type MessageGroup = keyof typeof MESSAGE_GROUPS;
export type GroupMessages<G extends MessageGroup> = Record<KeysWith<(typeof MESSAGE_GROUPS)[G][number]>, string>;

export const MESSAGE_CHUNK_PREFIX = 'virtual:messages/';

/** `virtual:messages/ru/modals` → its language and group, or null for any other id. */
export function parseMessageChunkId(id: string): { locale: Locale; group: MessageGroup } | null {
  if (!id.startsWith(MESSAGE_CHUNK_PREFIX)) return null;
  const [locale, group, ...rest] = id.slice(MESSAGE_CHUNK_PREFIX.length).split('/');
  if (rest.length > 0 || (locale !== 'ru' && locale !== 'en') || !group || !Object.hasOwn(MESSAGE_GROUPS, group)) return null;
  return { locale, group: group as MessageGroup };
}
