// The site header (spec §2 "Header"): one island so its panels share state without extra React roots.
// Server-rendered, so it is complete HTML before hydration.
import { useClientStore } from '~/lib/client-store.ts';
import { useEffect, useLayoutEffect, useState, type ReactNode } from 'react';
import { Icon } from '~/components/ui/Icon.tsx';
import type { MegaCategory } from '~/features/catalog/catalog.ts';
import { loadMegaCategories } from '~/features/catalog/catalog.client.ts';
import type { MenuLink } from '~/features/content/content.ts';
import { $cartCount, followCart } from '~/features/cart/cart.store.ts';
import { $wishlistCount, followWishlist } from '~/features/wishlist/wishlist.store.ts';
import { $loggedIn, initSession } from '~/features/auth/auth.store.ts';
import { AccountMenu } from '~/features/account/AccountMenu.tsx';
import { captureReferral } from '~/features/partners/partners.store.ts';
import { SearchBox } from '~/features/search/SearchBox.tsx';
import { afterLayout } from '~/lib/after-layout.ts';
import { throttle } from '~/lib/throttle.ts';
import { badgeText } from './badge.ts';
import { CatalogPanel } from './CatalogPanel.tsx';
import { $panel, closePanels, followPanels, openAuth, openModal, PANEL_IDS, toggleAccountMenu } from '~/features/frame/frame.store.ts';
import { MODAL_IDS } from './modal-ids.ts';
import { AuthGate } from './AuthGate.tsx';
import { useIslandMark } from '~/lib/islands.ts';
import { frameProp } from './layout.labels.client.ts';
import type { HeaderLabels } from './layout.labels.types.ts';

export interface HeaderProps {
  /** Given on the server; in the browser from the language's frame labels (layout.labels.client.ts). */
  labels?: HeaderLabels;
  /** The catalogue's top categories: the panel shows them from the first tap, before the tree has come. */
  roots: MenuLink[];
  supportUrl: string;
  // Astro's slots (Header.astro): static HTML, placed but not hydrated.
  /** The desktop bar above: the info links, the buyout request, support. */
  info?: ReactNode;
  /** The desktop row of collections under the header. */
  collections?: ReactNode;
  /** The phone's menu panel, a popover with its own id. */
  menu?: ReactNode;
}

/** spec §9: the header's scroll-direction check is throttled to 100 ms. */
export const HEADER_SCROLL_THROTTLE_MS = 100;

function Badge({ count, label }: { count: number; label: string }) {
  const text = badgeText(count);
  if (!text) return null;
  return (
    <span
      aria-label={`${label}: ${count}`}
      className="absolute -right-2 -top-1.5 grid h-[18px] min-w-[18px] place-items-center rounded-full bg-accent px-1 text-[10px] font-700 leading-none text-white"
    >
      {text}
    </span>
  );
}

export default function Header({ labels: given, roots, supportUrl, info, collections, menu }: HeaderProps) {
  const labels = frameProp('Header', 'labels', given);
  useIslandMark('header');
  const panel = useClientStore($panel, null);
  // The account state comes from the stored session, never from the server's HTML: every visitor gets
  // the same page, so caches may keep it (DESIGN §4).
  const loggedIn = useClientStore($loggedIn, false);
  // The category tree arrives on intent (catalog.client.ts); undefined while loading, null when it failed.
  const [tree, setTree] = useState<MegaCategory[] | null | undefined>(undefined);
  const loadTree = () => {
    loadMegaCategories().then(setTree, () => setTree(null));
  };
  const cartCount = useClientStore($cartCount, 0);
  const wishlistCount = useClientStore($wishlistCount, 0);
  const [hidden, setHidden] = useState(false);

  useEffect(() => {
    initSession();
    followWishlist();
    followCart();
    captureReferral();
    // /auth-redirect sends a guest home with ?login=1: the login modal opens there.
    if (new URLSearchParams(location.search).has('login') && !$loggedIn.get()) openAuth();
    // Where the page was, read once the frame is laid out (src/lib/after-layout.ts).
    let lastY = 0;
    const cancelFirst = afterLayout(() => (lastY = window.scrollY));
    const onScroll = throttle(() => {
      const y = window.scrollY;
      // Hide when scrolling down past the header; show on any scroll up. Never while a panel is open.
      if ($panel.get() === null) setHidden(y > lastY && y > 120);
      lastY = y;
    }, HEADER_SCROLL_THROTTLE_MS);
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && closePanels();
    // A page restored from the back/forward cache must not come back with a panel open. Only then: the
    // first load's pageshow comes after a tap made before hydration has opened its panel.
    const onShow = (event: PageTransitionEvent) => event.persisted && closePanels();
    window.addEventListener('scroll', onScroll, { passive: true });
    window.addEventListener('keydown', onKey);
    window.addEventListener('pageshow', onShow);
    const unfollow = followPanels();
    return () => {
      cancelFirst();
      unfollow();
      onScroll.cancel();
      window.removeEventListener('scroll', onScroll);
      window.removeEventListener('keydown', onKey);
      window.removeEventListener('pageshow', onShow);
    };
  }, []);

  // A layout effect: the page stops scrolling in the frame that opens the panel, whichever island opened it.
  useLayoutEffect(() => {
    // The bottom navigation opens the panel too, so the tree is asked for whoever opened it.
    if (panel === 'catalog' && !tree) loadTree();
    if (panel !== null) setHidden(false);
    // The page behind a full-screen panel should not scroll.
    document.documentElement.classList.toggle('overflow-hidden', panel === 'catalog' || panel === 'menu');
  }, [panel]);

  const buyout = () => openModal('buyout');
  // Opens the buyout dialog without script too (before hydration), by its command.
  const buyoutCommand = { commandfor: MODAL_IDS.buyout, command: 'show-modal' } as const;

  return (
    <>
      <header
        data-hidden={hidden}
        // No transform while shown: a transformed header would become the containing block of the fixed full-screen panels.
        className={`site-header sticky top-0 z-40 border-b border-line bg-paper transition-transform duration-300 ${hidden ? '-translate-y-full' : ''}`}
      >
        {info}

        <div className="container relative flex h-16 items-center gap-3 lg:gap-6">
          {(['menu', 'search'] as const).map((name) => (
            // Popovers: the platform opens them, without script (docs/decisions/021).
            <button
              key={name}
              type="button"
              popoverTarget={PANEL_IDS[name]}
              aria-label={labels[name]}
              className="grid h-10 w-10 cursor-pointer place-items-center lg:hidden"
            >
              <Icon name={name === 'menu' && panel === 'menu' ? 'close' : name} />
            </button>
          ))}
          <a
            href="/"
            aria-label={`Brandshop — ${labels.home}`}
            className="mx-auto font-display text-xl font-500 uppercase tracking-[0.2em] sm:text-2xl lg:mx-0"
          >
            Brandshop
          </a>
          <button
            type="button"
            popoverTarget={PANEL_IDS.catalog}
            onPointerEnter={loadTree}
            onFocus={loadTree}
            className={`hidden h-11 cursor-pointer items-center gap-2 px-5 text-sm font-600 uppercase tracking-wide lg:inline-flex ${panel === 'catalog' ? 'bg-accent text-white' : 'bg-ink text-white hover:bg-accent'}`}
          >
            <Icon name={panel === 'catalog' ? 'close' : 'menu'} size={18} />
            {labels.catalog}
          </button>
          <div className="hidden flex-1 lg:block">
            <SearchBox labels={labels.search_} id="header-search" />
          </div>
          <button
            type="button"
            {...buyoutCommand}
            onClick={buyout}
            className="h-9 cursor-pointer border border-accent px-3 text-xs font-700 uppercase text-accent lg:hidden"
          >
            {labels.buyoutShort}
          </button>
          <a href={supportUrl} target="_blank" rel="noopener" aria-label={labels.support} className="grid h-10 w-10 place-items-center lg:hidden">
            <Icon name="chat" />
          </a>
          <nav aria-label={labels.account} className="hidden items-center gap-6 lg:flex">
            <div className="relative">
              {/* spec §2: logged in, the account tooltip opens the profile menu; logged out, the login modal. */}
              <AuthGate
                href="/dashboard"
                onCustomerClick={toggleAccountMenu}
                customer={{ 'aria-expanded': panel === 'account', 'aria-haspopup': 'menu', role: 'button' }}
                className="flex cursor-pointer flex-col items-center gap-0.5 text-xs link-quiet"
                customerClassName="text-accent"
              >
                {() => (
                  <>
                    <Icon name="user" />
                    {labels.account}
                  </>
                )}
              </AuthGate>
              {loggedIn && panel === 'account' && (
                <div className="absolute right-0 top-full z-50 mt-3 hidden w-72 border border-line bg-paper py-3 text-ink shadow-xl lg:block">
                  <AccountMenu labels={labels.accountMenu} />
                </div>
              )}
            </div>
            <AuthGate href="/dashboard/orders" className="flex cursor-pointer flex-col items-center gap-0.5 text-xs link-quiet">
              {() => (
                <>
                  <Icon name="orders" />
                  {labels.orders}
                </>
              )}
            </AuthGate>
            <AuthGate href="/dashboard/wishlist" className="relative flex cursor-pointer flex-col items-center gap-0.5 text-xs link-quiet">
              {(guest) => (
                <>
                  <span className="relative">
                    <Icon name="heart" />
                    {!guest && <Badge count={wishlistCount} label={labels.wishlist} />}
                  </span>
                  {labels.wishlist}
                </>
              )}
            </AuthGate>
            <a href="/cart" className="flex flex-col items-center gap-0.5 text-xs link-quiet">
              <span className="relative">
                <Icon name="cart" />
                <Badge count={cartCount} label={labels.cart} />
              </span>
              {labels.cart}
            </a>
          </nav>
        </div>

        {collections}
      </header>
      <CatalogPanel
        id={PANEL_IDS.catalog}
        tree={tree}
        roots={roots}
        title={labels.catalog}
        allLabel={labels.catalogAll}
        loadingLabel={labels.loading}
        failedLabel={labels.loadFailed}
        closeLabel={labels.close}
      />
      {menu}
      <div id={PANEL_IDS.search} popover="auto" className="panel inset-x-0 bottom-auto top-16 overflow-visible border-t border-line px-4 py-3 lg:hidden">
        <SearchBox labels={labels.search_} id="mobile-search" autoFocus />
      </div>
      {/* A sibling after the panels: CSS shows it under an open catalogue or menu (global.css). */}
      <div aria-hidden="true" data-testid="panel-overlay" className="panel-overlay" />
      {(panel === 'search' || panel === 'account') && (
        <div
          aria-hidden="true"
          data-testid="overlay"
          onClick={closePanels}
          className={`fixed inset-0 z-30 ${panel === 'search' ? 'bg-black/20' : 'bg-black/40'}`}
        />
      )}
    </>
  );
}
