// Editors' content (src/content) for pages and the API. Collections are compiled into the build,
// so none of this touches the database.
import { getCollection, getEntry } from 'astro:content';
import type { Crumb, MetaData } from '~/lib/http/envelope.ts';
import { infoPageUrl, type FooterData, type FooterMenu, type HeaderTag, type InfoPage, type MenuLink, type MetaType } from './content.ts';

const SITE_NAME = 'Brandshop';

export async function getInfoPage(id: number): Promise<InfoPage | null> {
  // Looked up in the collection rather than with getEntry, which logs a warning for every unknown id.
  const entry = (await getCollection('info')).find((e) => e.data.pageId === id);
  if (!entry) return null;
  return {
    id: entry.data.pageId,
    slug: entry.data.slug,
    url: infoPageUrl(entry.data.pageId, entry.data.slug),
    title: entry.data.title,
    description: entry.data.description,
    content: entry.rendered?.html ?? '',
  };
}

export async function listInfoPages(): Promise<Omit<InfoPage, 'content'>[]> {
  const entries = await getCollection('info');
  return entries
    .map((e) => ({ id: e.data.pageId, slug: e.data.slug, url: infoPageUrl(e.data.pageId, e.data.slug), title: e.data.title, description: e.data.description }))
    .sort((a, b) => a.id - b.id);
}

export function infoPageMeta(page: Pick<InfoPage, 'title' | 'description'>): MetaData {
  return { title: `${page.title} — ${SITE_NAME}`, description: page.description };
}

export function infoPageCrumbs(page: Pick<InfoPage, 'title'>): Crumb[] {
  return [{ name: 'Главная', url: '/' }, { name: page.title }];
}

export async function getTopLeftMenu(): Promise<MenuLink[]> {
  const entry = await getEntry('menus', 'header_top_left_menus');
  return entry?.data.menus ?? [];
}

export async function getFooter(): Promise<FooterData> {
  const entries = await getCollection('footer');
  const byId = new Map(entries.map((e) => [e.id, e.data]));
  const menu = (id: string): FooterMenu => ({ title: byId.get(id)?.title ?? '', menus: byId.get(id)?.menus ?? [] });
  return {
    footer_left_menu: menu('footer_left_menu'),
    footer_center_menu: menu('footer_center_menu'),
    footer_right_menu: menu('footer_right_menu'),
    copyright_widget: { text: byId.get('copyright_widget')?.text ?? '' },
  };
}

export async function getHeaderTags(): Promise<HeaderTag[]> {
  const entries = await getCollection('headerTags');
  return entries.sort((a, b) => a.data.sort - b.data.sort).map((e) => ({ title: e.data.title, url: e.data.url }));
}

export async function getSlides() {
  const entries = await getCollection('slides');
  return entries.map((e) => e.data).sort((a, b) => a.sort - b.sort);
}

export async function getMetaData(type: MetaType): Promise<MetaData> {
  const entry = await getEntry('meta', type);
  // Every MetaType has an entry (checked by a test); the fallback only guards a half-edited file.
  return entry ? { title: entry.data.title, description: entry.data.description } : { title: SITE_NAME, description: SITE_NAME };
}
