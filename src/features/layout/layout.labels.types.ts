// The shapes of the frame's islands' strings (layout.labels.ts makes them, the islands take them): apart from
// both, so that an island and the labels do not import each other. Types only; relative imports, as
// layout.labels.ts's (the build's config loads it through Node).
import type { AccountMenuLabels } from '../account/AccountMenu.tsx';
import type { NEWSLETTER_TEXT } from '../newsletter/newsletter.ts';
import type { SearchLabels } from '../search/SearchBox.tsx';
import type { KeysWith } from '../../lib/i18n/index.ts';

export interface HeaderLabels {
  catalog: string;
  catalogAll: string;
  loading: string;
  loadFailed: string;
  buyout: string;
  buyoutShort: string;
  buyoutHint: string;
  support: string;
  account: string;
  orders: string;
  wishlist: string;
  cart: string;
  menu: string;
  close: string;
  search: string;
  home: string;
  info: string;
  collections: string;
  search_: SearchLabels;
  accountMenu: AccountMenuLabels;
}

/** The footer's newsletter form's strings: messagesFor(locale, 'newsletter.', …NEWSLETTER_TEXT, 'nav.close'), the form's own checks only. */
export type NewsletterMessages = Record<KeysWith<'newsletter.' | (typeof NEWSLETTER_TEXT)[keyof typeof NEWSLETTER_TEXT] | 'nav.close'>, string>;
