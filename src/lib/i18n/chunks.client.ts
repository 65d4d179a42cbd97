// Loads a message group (groups.ts) in the page's language. One import per group and language, written
// out, so Vite can emit each as its own chunk.
import { pageLocale } from './browser.ts';
import type { GroupMessages, MessageGroup } from './groups.ts';
import type { Locale } from './index.ts';

type Loader = () => Promise<{ default: Record<string, string> }>;

const LOADERS: Record<MessageGroup, Record<Locale, Loader>> = {
  modals: { ru: () => import('virtual:messages/ru/modals'), en: () => import('virtual:messages/en/modals') },
};

export async function loadMessages<G extends MessageGroup>(group: G): Promise<GroupMessages<G>> {
  return (await LOADERS[group][pageLocale()]()).default as GroupMessages<G>;
}
