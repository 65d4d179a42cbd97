// The account menu (spec §2): the labelled dashboard routes and 'Выйти'. The header shows it as a
// dropdown, the mobile bottom navigation as the full-screen 'Личный кабинет' overlay, the dashboard as its
// side menu. Logging out clears the stored session and goes home.
import { useClientStore } from '~/lib/client-store.ts';
import { Icon } from '~/components/ui/Icon.tsx';
import { $session, logout } from '~/features/auth/auth.store.ts';
import { displayName } from '~/features/auth/auth.ts';
import { formatPrice } from '~/lib/format.ts';
import { DASHBOARD_ROUTES, type DashboardRoute } from './account.ts';

export interface AccountMenuLabels {
  /** One label per route name. */
  routes: Record<DashboardRoute['name'], string>;
  logout: string;
  balance: string;
  bonus: string;
  nav: string;
}

export async function logoutAndGoHome(): Promise<void> {
  await logout();
  location.assign('/');
}

export function AccountMenu({ labels, current, summary = true }: { labels: AccountMenuLabels; current?: string | undefined; summary?: boolean }) {
  const session = useClientStore($session, null);
  return (
    <nav aria-label={labels.nav}>
      {summary && session && (
        <div className="border-b border-line px-4 pb-3 pt-1">
          <p className="truncate font-600">{displayName(session.user)}</p>
          <p className="mt-1 text-xs text-ink-soft">
            {labels.balance}: {formatPrice(session.dashboard.balanceAmount)} · {labels.bonus}: {formatPrice(session.dashboard.bonusAmount)}
          </p>
        </div>
      )}
      <ul className="py-1">
        {DASHBOARD_ROUTES.map((r) => (
          <li key={r.name}>
            <a
              href={r.path}
              aria-current={current === r.path ? 'page' : undefined}
              className={`flex items-center gap-3 px-4 py-2.5 text-sm hover:bg-paper-warm ${current === r.path ? 'font-700 text-accent' : ''}`}
            >
              <Icon name={r.icon} size={18} />
              {labels.routes[r.name]}
            </a>
          </li>
        ))}
        <li className="mt-1 border-t border-line pt-1">
          <button
            type="button"
            onClick={() => void logoutAndGoHome()}
            className="flex w-full cursor-pointer items-center gap-3 px-4 py-2.5 text-left text-sm hover:bg-paper-warm"
          >
            <Icon name="logout" size={18} />
            {labels.logout}
          </button>
        </li>
      </ul>
    </nav>
  );
}
