// /auth-redirect's work: read the stored session, then go on — to ?to= when it is a path of this shop,
// else the dashboard for a customer; a guest goes home and is asked to log in.
import { useEffect } from 'react';
import { $session, initSession } from './auth.store.ts';

/** Only paths of this shop: '//evil.example' and 'https://…' are not followed. */
export function safeTarget(to: string | null): string | null {
  return to && /^\/(?![/\\])/.test(to) ? to : null;
}

export default function AuthRedirect() {
  useEffect(() => {
    initSession();
    const to = safeTarget(new URLSearchParams(location.search).get('to'));
    location.replace($session.get() ? (to ?? '/dashboard') : '/?login=1');
  }, []);
  return null;
}
