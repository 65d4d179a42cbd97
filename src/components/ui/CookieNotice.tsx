// spec §2: a cookie notice until accepted ('Принять'); acceptance is remembered in this browser.
import { useEffect, useState } from 'react';

export const COOKIE_CONSENT_KEY = 'cookie-accepted';

export default function CookieNotice({ text, accept, moreLabel }: { text: string; accept: string; moreLabel: string }) {
  const [show, setShow] = useState(false);
  useEffect(() => {
    try {
      setShow(localStorage.getItem(COOKIE_CONSENT_KEY) !== '1');
    } catch {
      setShow(true);
    }
  }, []);
  if (!show) return null;
  return (
    <div
      role="region"
      aria-label="Cookie"
      className="fixed inset-x-3 bottom-20 z-[46] flex flex-col gap-3 border border-line bg-paper p-4 text-sm shadow-xl sm:flex-row sm:items-center lg:bottom-6 lg:left-6 lg:right-auto lg:max-w-xl"
    >
      <p className="text-ink-soft">
        {text}{' '}
        <a href="/info/cookies" className="underline underline-offset-2">
          {moreLabel}
        </a>
      </p>
      <button
        type="button"
        onClick={() => {
          try {
            localStorage.setItem(COOKIE_CONSENT_KEY, '1');
          } catch {
            // Private mode: the notice just comes back next time.
          }
          setShow(false);
        }}
        className="btn-primary h-10 shrink-0"
      >
        {accept}
      </button>
    </div>
  );
}
