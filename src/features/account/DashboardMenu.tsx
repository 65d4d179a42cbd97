// The dashboard's side menu (spec §2) and its client-side guard: a page whose stored session is gone
// (logged out in another tab, or never here) goes home, like the server does when the cookie is missing.
import { useEffect } from 'react';
import { $session, initSession } from '~/features/auth/auth.store.ts';
import { AccountMenu, type AccountMenuLabels } from './AccountMenu.tsx';

export default function DashboardMenu({ labels, current }: { labels: AccountMenuLabels; current: string }) {
  useEffect(() => {
    initSession();
    if (!$session.get()) location.replace('/');
  }, []);
  return <AccountMenu labels={labels} current={current} summary={false} />;
}
