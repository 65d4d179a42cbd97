// The account menu's labels, resolved on the server: the islands get strings, never the dictionaries.
// Relative imports: the build's config loads it through Node (src/features/layout/layout.labels.ts).
import { t, type Locale } from '../../lib/i18n/index.ts';
import { DASHBOARD_ROUTES, type DashboardRoute } from './account.ts';

/** The account menu's labels in a language (AccountMenu.tsx), for the islands' props. */
export function accountMenuLabels(locale: Locale) {
  return {
    routes: Object.fromEntries(DASHBOARD_ROUTES.map((r) => [r.name, t(locale, r.label)])) as Record<DashboardRoute['name'], string>,
    logout: t(locale, 'auth.logout'),
    balance: t(locale, 'account.balance'),
    bonus: t(locale, 'account.bonus'),
    nav: t(locale, 'account.menu.nav'),
  };
}
