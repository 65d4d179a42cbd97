// Shapes of the content calls (spec §7) and the page types meta-data knows about.
import { z } from 'zod';

export interface MenuLink {
  name: string;
  url: string;
}

export interface FooterMenu {
  title: string;
  menus: MenuLink[];
}

export interface FooterData {
  footer_left_menu: FooterMenu;
  footer_center_menu: FooterMenu;
  footer_right_menu: FooterMenu;
  copyright_widget: { text: string };
}

export interface HeaderTag {
  title: string;
  url: string;
}

export interface InfoPage {
  id: number;
  slug: string;
  url: string;
  title: string;
  description: string;
  content: string;
}

export const META_TYPES = ['home', 'catalog', 'brands', 'blog', 'search', 'cart', 'checkout', 'dashboard', 'auth', 'not-found'] as const;
export type MetaType = (typeof META_TYPES)[number];

export const metaDataQuery = z.object({ type: z.enum(META_TYPES) });

export const pageIdParams = z.object({ id: z.string().regex(/^[1-9]\d{0,5}$/).transform(Number) });

export function infoPageUrl(id: number, slug: string): string {
  return `/i/${id}/${slug}`;
}

export const INFO_PAGE_IDS = { contacts: 4, personalData: 5, terms: 6, support: 7, delivery: 9, refund: 10, sizes: 12, about: 14, privacy: 19, sellers: 22, concierge: 25, reviewBonuses: 27 } as const;
