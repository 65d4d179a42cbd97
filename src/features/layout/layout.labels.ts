// The strings of the page frame's islands — the header, the bottom navigation, the footer's newsletter
// form, the modals — in one language. The server renders the islands with them as props; the browser takes them from
// a module of its own per language (layout.labels.client.ts, made at build by labels-chunk.ts), cached once
// for every page, because the front takes them out of the islands' props in each page (about 0.7 KB of
// brotli a page: src/lib/http/island-props.ts, docs/decisions/016).
// Relative imports only, here and in what it imports: the build's config loads it through Node
// (labels-chunk.ts), which knows no `~/`.
import { accountMenuLabels } from '../account/account.labels.ts';
import { NEWSLETTER_TEXT } from '../newsletter/newsletter.ts';
import { messagesFor, t, type Locale } from '../../lib/i18n/index.ts';
import type { HeaderLabels, NewsletterMessages } from './layout.labels.types.ts';

export function headerLabels(locale: Locale): HeaderLabels {
  const l = (key: Parameters<typeof t>[1]) => t(locale, key);
  return {
    catalog: l('nav.catalog'),
    catalogAll: l('catalog.all'),
    loading: l('ui.loading'),
    loadFailed: l('catalog.loadFailed'),
    buyout: l('header.buyout'),
    buyoutShort: l('header.buyoutShort'),
    buyoutHint: l('header.buyoutHint'),
    support: l('header.support'),
    account: l('nav.account'),
    orders: l('nav.orders'),
    wishlist: l('nav.wishlist'),
    cart: l('nav.cart'),
    menu: l('nav.menu'),
    close: l('nav.close'),
    search: l('nav.search'),
    home: l('nav.home'),
    info: l('nav.info'),
    collections: l('nav.collections'),
    search_: {
      placeholder: l('header.searchPlaceholder'),
      submit: l('search.submit'),
      noMatch: l('search.noMatch'),
      noMatchHint: l('search.noMatchHint'),
      allResults: l('search.allResults'),
      brand: l('search.brand'),
      wishlist: l('search.wishlist'),
    },
    accountMenu: accountMenuLabels(locale),
  };
}

export function bottomNavLabels(locale: Locale) {
  const l = (key: Parameters<typeof t>[1]) => t(locale, key);
  return {
    home: l('nav.home'),
    catalog: l('nav.catalog'),
    wishlist: l('nav.wishlist'),
    cart: l('nav.cart'),
    account: l('nav.profile'),
    nav: l('nav.mobile'),
    overlay: l('account.mobileTitle'),
    close: l('nav.close'),
  };
}

export function newsletterMessages(locale: Locale): NewsletterMessages {
  return messagesFor(locale, 'newsletter.', ...Object.values(NEWSLETTER_TEXT), 'nav.close') as NewsletterMessages;
}

/** The login and buyout dialogs' headings and what they say until their form is ready (Modals' `frame`). */
export function modalsFrame(locale: Locale) {
  const l = (key: Parameters<typeof t>[1]) => t(locale, key);
  return { buyout: l('buyout.title'), auth: l('nav.account'), close: l('nav.close'), loading: l('ui.loading') };
}

/** Everything the frame's islands show, by island and prop (src/lib/http/island-props.ts strips the same). */
export function frameLabels(locale: Locale) {
  return {
    Header: { labels: headerLabels(locale) },
    BottomNav: { labels: bottomNavLabels(locale), accountMenu: accountMenuLabels(locale) },
    NewsletterForm: { messages: newsletterMessages(locale) },
    Modals: { frame: modalsFrame(locale) },
  };
}

export type FrameLabels = ReturnType<typeof frameLabels>;
