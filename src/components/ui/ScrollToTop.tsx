// spec §2/§9: a scroll-to-top button; the check is throttled to 200 ms and the button appears beyond
// one screen height times a multiplier (default 1).
import { useEffect, useState } from 'react';
import { afterLayout } from '~/lib/after-layout.ts';
import { throttle } from '~/lib/throttle.ts';
import { Icon } from './Icon.tsx';

export const SCROLL_TOP_THROTTLE_MS = 200;

export default function ScrollToTop({ label, multiplier = 1 }: { label: string; multiplier?: number }) {
  const [visible, setVisible] = useState(false);
  useEffect(() => {
    const check = throttle(() => setVisible(window.scrollY > window.innerHeight * multiplier), SCROLL_TOP_THROTTLE_MS);
    // A page restored further down shows the button (read once the frame is laid out: src/lib/after-layout.ts).
    const cancelFirst = afterLayout(check);
    window.addEventListener('scroll', check, { passive: true });
    return () => {
      cancelFirst();
      check.cancel();
      window.removeEventListener('scroll', check);
    };
  }, [multiplier]);
  if (!visible) return null;
  return (
    <button
      type="button"
      aria-label={label}
      onClick={() => window.scrollTo({ top: 0, behavior: 'smooth' })}
      className="fixed bottom-20 right-4 z-[44] grid h-11 w-11 cursor-pointer place-items-center border border-line bg-paper shadow-lg hover:border-ink lg:bottom-24 lg:right-6"
    >
      <Icon name="arrowUp" />
    </button>
  );
}
