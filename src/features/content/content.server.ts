// Editors' content (src/content) for pages and the API. Collections are compiled into the build,
// so none of this touches the database.
import { getCollection, getEntry } from 'astro:content';
import { trail, type Crumb, type MetaData } from '~/lib/http/envelope.ts';
import { t, type Locale } from '~/lib/i18n/index.ts';
import {
  BLOG_PAGE_SIZE,
  type DeliveryOption,
  blogPostUrl,
  infoPageUrl,
  pageIdParams,
  type BlogPost,
  type BlogPostSummary,
  type FooterData,
  type FooterMenu,
  type HeaderTag,
  type InfoPage,
  type MenuLink,
  type MetaType,
} from './content.ts';

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

/** Editors' pages for the sitemap, each with when it last changed: info pages, the blog and its posts. */
export async function editorsPagesForSitemap(): Promise<{ url: string; lastmod: Date }[]> {
  const built = new Date(import.meta.env.BUILD_DATE ?? Date.now());
  const info = (await getCollection('info'))
    .sort((a, b) => a.data.pageId - b.data.pageId)
    .map((e) => ({ url: infoPageUrl(e.data.pageId, e.data.slug), lastmod: e.data.updated ?? built }));
  const posts = (await sortedPosts()).map((p) => ({ url: blogPostUrl(p.data.postId, p.data.permalink), lastmod: p.data.date }));
  return [...info, ...(posts.length > 0 ? [{ url: '/blog', lastmod: posts[0]?.lastmod ?? built }] : []), ...posts];
}

export function infoPageMeta(page: Pick<InfoPage, 'title' | 'description'>): MetaData {
  return { title: `${page.title} — ${SITE_NAME}`, description: page.description };
}

export function infoPageCrumbs(locale: Locale, page: Pick<InfoPage, 'title'>): Crumb[] {
  return trail(locale, { name: page.title });
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

type BlogEntry = Awaited<ReturnType<typeof getCollection<'blog'>>>[number];

function toSummary(entry: BlogEntry): BlogPostSummary {
  const { postId, permalink, title, description, date, tags, cover } = entry.data;
  const template = `/img/p/${cover.image}-w{w}.webp`;
  return {
    id: postId,
    permalink,
    url: blogPostUrl(postId, permalink),
    title,
    description,
    date: date.toISOString(),
    tags,
    cover: {
      src: template.replace('{w}', '720'),
      srcset: `${template.replace('{w}', '360')} 360w, ${template.replace('{w}', '720')} 720w`,
      width: 720,
      height: 960,
      tone: cover.tone,
    },
  };
}

async function sortedPosts(): Promise<BlogEntry[]> {
  return (await getCollection('blog')).sort((a, b) => b.data.date.getTime() - a.data.date.getTime() || b.data.postId - a.data.postId);
}

/** Newest first; `page` past the end gives an empty list with the real page count. */
export async function listBlogPosts(page: number, perPage = BLOG_PAGE_SIZE) {
  const posts = await sortedPosts();
  const pages = Math.max(1, Math.ceil(posts.length / perPage));
  return { posts: posts.slice((page - 1) * perPage, page * perPage).map(toSummary), page, pages, total: posts.length };
}

/** The blog list's page n: /blog, /blog/2, … (static files, so the number is in the path). */
export function blogListUrl(page: number): string {
  return page <= 1 ? '/blog' : `/blog/${page}`;
}

export async function getBlogPost(id: number): Promise<BlogPost | null> {
  const entry = (await getCollection('blog')).find((e) => e.data.postId === id);
  return entry ? { ...toSummary(entry), content: entry.rendered?.html ?? '' } : null;
}

export function blogPostMeta(post: Pick<BlogPost, 'title' | 'description'>): MetaData {
  return { title: `${post.title} — ${SITE_NAME}`, description: post.description };
}

export function blogCrumbs(locale: Locale): Crumb[] {
  return trail(locale, { name: t(locale, 'nav.blog') });
}

export function blogPostCrumbs(locale: Locale, post: Pick<BlogPost, 'title'>): Crumb[] {
  return trail(locale, { name: t(locale, 'nav.blog'), url: '/blog' }, { name: post.title });
}

/**
 * Where an address near an editors' page should go. Those pages are files at their canonical address
 * (/i/{id}/{slug}, /b/{id}/{permalink}, /blog/{n}); anything else under their prefixes reaches the
 * catch-all route, which asks here: a missing or wrong slug moves permanently to the page, an unknown
 * id or page number goes to /404 (spec §2), and undefined means the path is not an editors' page.
 */
export async function editorsPageRedirect(path: string): Promise<{ location: string; status: 301 | 302 } | undefined> {
  const [, kind, rawId] = /^\/(blog|i|b)(?:\/([^/]*)(?:\/.*)?)?$/.exec(path) ?? [];
  if (!kind) return undefined;
  const parsed = pageIdParams.safeParse({ id: rawId });
  const id = parsed.success ? parsed.data.id : undefined;
  if (kind === 'blog') {
    const { pages } = await listBlogPosts(1);
    return id !== undefined && id <= pages ? { location: blogListUrl(id), status: 301 } : { location: '/blog', status: 302 };
  }
  const page = id === undefined ? null : await (kind === 'i' ? getInfoPage(id) : getBlogPost(id));
  return page ? { location: page.url, status: 301 } : { location: '/404', status: 302 };
}

/** Checkout's delivery methods as the editors set them (src/content/site/delivery.json). */
export async function getDeliveryOptions(): Promise<DeliveryOption[]> {
  return (await getCollection('delivery')).map((e) => e.data);
}
