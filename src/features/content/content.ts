// Shapes of the content calls (spec §7) and the page types meta-data knows about.
import { z } from '~/lib/zod.ts';
import { formatDate } from '~/lib/format.ts';

export type { BlogPost, BlogPostSummary, FooterData, FooterMenu, HeaderTag, InfoPage, MenuLink } from './content.schema.ts';

export const META_TYPES = ['home', 'catalog', 'brands', 'blog', 'search', 'cart', 'checkout', 'dashboard', 'auth', 'not-found'] as const;
export type MetaType = (typeof META_TYPES)[number];

export const metaDataQuery = z.object({ type: z.enum(META_TYPES) });

export const pageIdParams = z.object({
  id: z
    .string()
    .regex(/^[1-9]\d{0,5}$/)
    .transform(Number),
});

export function infoPageUrl(id: number, slug: string): string {
  return `/i/${id}/${slug}`;
}

export const INFO_PAGE_IDS = {
  contacts: 4,
  personalData: 5,
  terms: 6,
  support: 7,
  delivery: 9,
  refund: 10,
  sizes: 12,
  about: 14,
  privacy: 19,
  sellers: 22,
  concierge: 25,
  reviewBonuses: 27,
} as const;

/** Named info routes and the info page each shows. */
export const NAMED_INFO_ROUTES = {
  cookies: 30,
  payment: 31,
  'privacy-policy': INFO_PAGE_IDS.privacy,
  'personal-data-policy': INFO_PAGE_IDS.personalData,
  'guarantees-and-refunds': INFO_PAGE_IDS.refund,
} as const;

export const BLOG_PAGE_SIZE = 4;

export function blogPostUrl(id: number, permalink: string): string {
  return `/b/${id}/${permalink}`;
}

export const blogListQuery = z.object({ page: z.coerce.number().int().min(1).max(10_000).default(1) });

export function formatPostDate(iso: string): string {
  return formatDate(iso, 'ru', 'long');
}

/** A checkout delivery method as the editors set it (src/content/site/delivery.json). */
export interface DeliveryOption {
  id: 'courier' | 'pickup' | 'post';
  name: string;
  description: string;
  /** Kopecks. */
  price: number;
  days_min: number;
  days_max: number;
  /** What address the method needs: a full one, a pickup point's, or a postal one with a postcode. */
  address: 'full' | 'point' | 'postal';
}
