// spec §2 "Mobile bottom navigation": five items, hidden on large screens; one active item at a time —
// the open overlay, else the current route.
import { useClientStore } from '~/lib/client-store.ts';
import { Icon, type IconName } from '~/components/ui/Icon.tsx';
import { $cartCount } from '~/features/cart/cart.store.ts';
import { $wishlistCount } from '~/features/wishlist/wishlist.store.ts';
import { $loggedIn } from '~/features/auth/auth.store.ts';
import { AccountMenu, type AccountMenuLabels } from '~/features/account/AccountMenu.tsx';
import { badgeText } from './badge.ts';
import { $modal, $panel, closePanels, PANEL_IDS, toggleAccountMenu } from '~/features/frame/frame.store.ts';
import { AuthGate } from './AuthGate.tsx';
import { useIslandMark } from '~/lib/islands.ts';
import { frameProp } from './layout.labels.client.ts';

export type BottomNavItem = 'home' | 'catalog' | 'wishlist' | 'cart' | 'account';

export interface BottomNavProps {
  path: string;
  /** One label per item, `nav` for the navigation itself, `overlay` for the account overlay's title. Given on
   * the server; in the browser from the language's frame labels (layout.labels.client.ts), as is accountMenu. */
  labels?: Record<BottomNavItem | 'nav' | 'overlay' | 'close', string>;
  accountMenu?: AccountMenuLabels;
}

/** The item a route belongs to, when no overlay is open. */
export function routeItem(path: string): BottomNavItem | null {
  if (path === '/') return 'home';
  if (/^\/(c|m|brands|catalog|product\/search)(\/|$)/.test(path)) return 'catalog';
  if (path.startsWith('/dashboard/wishlist')) return 'wishlist';
  if (path.startsWith('/cart') || path.startsWith('/checkout')) return 'cart';
  if (path.startsWith('/dashboard')) return 'account';
  return null;
}

const SECTION_ROOT: Record<BottomNavItem, string> = { home: '/', catalog: '/catalog', wishlist: '/dashboard/wishlist', cart: '/cart', account: '' };

/**
 * The address as far as the bottom navigation shows it: its item's section, and the account pages' own
 * (the account menu marks the current one). The frame is rendered once per this and reused (issue 59), so
 * every product page shares one.
 */
export function navPath(path: string): string {
  const item = routeItem(path);
  if (item === null) return '';
  return item === 'account' ? path : SECTION_ROOT[item];
}

export default function BottomNav({ path, labels: givenLabels, accountMenu: givenMenu }: BottomNavProps) {
  const labels = frameProp('BottomNav', 'labels', givenLabels);
  const accountMenu = frameProp('BottomNav', 'accountMenu', givenMenu);
  useIslandMark('bottom-nav');
  const panel = useClientStore($panel, null);
  const loggedIn = useClientStore($loggedIn, false);
  const modal = useClientStore($modal, null);
  const cart = useClientStore($cartCount, 0);
  const wishlist = useClientStore($wishlistCount, 0);
  const overlayItem: BottomNavItem | null = panel === 'catalog' ? 'catalog' : panel === 'account' || modal === 'auth' ? 'account' : null;
  const active = overlayItem ?? (panel === null && modal === null ? routeItem(path) : null);

  const item = (key: BottomNavItem, icon: IconName, count = 0) => (
    <span className="relative flex flex-col items-center gap-0.5">
      <span className="relative">
        <Icon name={icon} size={22} />
        {badgeText(count) && (
          <span
            aria-label={`${labels[key]}: ${count}`}
            className="absolute -right-2.5 -top-1.5 grid h-4 min-w-4 place-items-center rounded-full bg-accent px-1 text-[9px] font-700 text-white"
          >
            {badgeText(count)}
          </span>
        )}
      </span>
      <span className="text-[10px]">{labels[key]}</span>
    </span>
  );
  const cls = (key: BottomNavItem) => `flex flex-1 cursor-pointer justify-center py-2 ${active === key ? 'text-accent' : 'text-ink-soft'}`;
  const current = (key: BottomNavItem) => (active === key ? ('page' as const) : undefined);

  return (
    <>
      {loggedIn && panel === 'account' && (
        // spec §2: the logged-in account item opens the full-screen 'Личный кабинет' overlay.
        <div role="dialog" aria-label={labels.overlay} className="fixed inset-x-0 bottom-14 top-0 z-[46] overflow-y-auto bg-paper lg:hidden">
          <div className="flex items-center justify-between border-b border-line px-4 py-4">
            <h2 className="font-display text-2xl font-500">{labels.overlay}</h2>
            <button type="button" onClick={closePanels} aria-label={labels.close} className="grid h-10 w-10 cursor-pointer place-items-center">
              <Icon name="close" />
            </button>
          </div>
          <div className="py-3">
            <AccountMenu labels={accountMenu} current={path} />
          </div>
        </div>
      )}
      <nav aria-label={labels.nav} className="fixed inset-x-0 bottom-0 z-[45] flex border-t border-line bg-paper pb-[env(safe-area-inset-bottom)] lg:hidden">
        <a href="/" aria-current={current('home')} className={cls('home')}>
          {item('home', 'home')}
        </a>
        {/* The catalogue is a popover its button opens without script (docs/decisions/021). */}
        <button type="button" popoverTarget={PANEL_IDS.catalog} aria-current={current('catalog')} className={cls('catalog')}>
          {item('catalog', 'grid')}
        </button>
        <AuthGate href="/dashboard/wishlist" customer={{ 'aria-current': current('wishlist') }} className={cls('wishlist')}>
          {(guest) => item('wishlist', 'heart', guest ? 0 : wishlist)}
        </AuthGate>
        <a href="/cart" aria-current={current('cart')} className={cls('cart')}>
          {item('cart', 'cart', cart)}
        </a>
        {/* spec §2: logged in, the 'Личный кабинет' overlay; logged out, the login modal. */}
        <AuthGate
          href="/dashboard"
          customer={{ role: 'button', 'aria-current': current('account') }}
          onCustomerClick={toggleAccountMenu}
          className={cls('account')}
        >
          {() => item('account', 'user')}
        </AuthGate>
      </nav>
    </>
  );
}
