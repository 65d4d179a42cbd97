// The account area's routes and labels (spec §2: the side menu lists the routes that have labels, and
// 'Выйти'). Safe on both sides, no zod: the header island reads it.
import type { MessageKey } from '~/lib/i18n/index.ts';

export interface DashboardRoute {
  name: 'dashboard' | 'dashboard-orders' | 'dashboard-balance' | 'dashboard-wishlist' | 'dashboard-partners' | 'dashboard-profile' | 'dashboard-address';
  path: string;
  label: MessageKey;
  icon: 'user' | 'orders' | 'wallet' | 'heart' | 'users' | 'profile' | 'pin';
}

/** spec §2 paths and labels; partners and address have no path in the spec, so they follow the others' shape. */
export const DASHBOARD_ROUTES: readonly DashboardRoute[] = [
  { name: 'dashboard', path: '/dashboard', label: 'account.menu.dashboard', icon: 'user' },
  { name: 'dashboard-orders', path: '/dashboard/orders', label: 'account.menu.orders', icon: 'orders' },
  { name: 'dashboard-balance', path: '/dashboard/balance', label: 'account.menu.balance', icon: 'wallet' },
  { name: 'dashboard-wishlist', path: '/dashboard/wishlist', label: 'account.menu.wishlist', icon: 'heart' },
  { name: 'dashboard-partners', path: '/dashboard/partners', label: 'account.menu.partners', icon: 'users' },
  { name: 'dashboard-profile', path: '/dashboard/profile', label: 'account.menu.profile', icon: 'profile' },
  { name: 'dashboard-address', path: '/dashboard/address', label: 'account.menu.address', icon: 'pin' },
];

/** The route a path belongs to (the menu marks it current). */
export function currentRoute(path: string): DashboardRoute | undefined {
  const clean = path.replace(/\/+$/, '') || '/';
  return DASHBOARD_ROUTES.find((r) => r.path === clean);
}

/** The personal data policy's page (152-ФЗ): what registering, checkout, the buyout request and the newsletter consent to. */
export const PERSONAL_DATA_POLICY_URL = '/i/5/personal-data';
