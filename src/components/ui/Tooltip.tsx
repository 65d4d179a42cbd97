// spec §4/§9 tooltip: opens on hover, click or focus after 200 ms, 8 px from its trigger, at most 300 px
// wide; closes on an outside click or when scrolled out of view; a modal at widths up to 768 px.
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { Modal } from './Modal.tsx';
import { MOBILE_QUERY, useMediaQuery } from './useMediaQuery.ts';

export const TOOLTIP_DELAY_MS = 200;
export const TOOLTIP_OFFSET_PX = 8;

export function Tooltip({ trigger, title, children, closeLabel }: { trigger: ReactNode; title: string; children: ReactNode; closeLabel: string }) {
  const [open, setOpen] = useState(false);
  const mobile = useMediaQuery(MOBILE_QUERY);
  const root = useRef<HTMLSpanElement>(null);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const id = useId();

  const later = (value: boolean) => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setOpen(value), TOOLTIP_DELAY_MS);
  };

  useEffect(() => {
    if (!open || mobile) return;
    const onDown = (e: MouseEvent) => root.current && !root.current.contains(e.target as Node) && setOpen(false);
    const observer = new IntersectionObserver(([entry]) => entry && !entry.isIntersecting && setOpen(false));
    if (root.current) observer.observe(root.current);
    document.addEventListener('mousedown', onDown);
    return () => {
      document.removeEventListener('mousedown', onDown);
      observer.disconnect();
    };
  }, [open, mobile]);
  useEffect(() => () => clearTimeout(timer.current), []);

  if (mobile) {
    return (
      <>
        <button type="button" onClick={() => setOpen(true)} className="cursor-pointer">
          {trigger}
        </button>
        <Modal open={open} onClose={() => setOpen(false)} title={title} closeLabel={closeLabel}>
          {children}
        </Modal>
      </>
    );
  }
  return (
    <span ref={root} className="relative inline-flex" onMouseEnter={() => later(true)} onMouseLeave={() => later(false)}>
      <button
        type="button"
        aria-describedby={open ? id : undefined}
        onClick={() => setOpen((o) => !o)}
        onFocus={() => later(true)}
        onBlur={() => later(false)}
        className="cursor-pointer"
      >
        {trigger}
      </button>
      {open && (
        <span
          role="tooltip"
          id={id}
          className="absolute right-0 top-full z-40 block w-max max-w-[300px] border border-line bg-paper p-4 text-left text-sm text-ink shadow-xl"
          style={{ marginTop: TOOLTIP_OFFSET_PX }}
        >
          {children}
        </span>
      )}
    </span>
  );
}
