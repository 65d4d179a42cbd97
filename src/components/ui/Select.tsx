// spec §2/§9 select: a dropdown (max height 18rem) on desktop, a modal list on phones.
import { useEffect, useId, useRef, useState } from 'react';
import { Icon } from './Icon.tsx';
import { Modal } from './Modal.tsx';
import { MOBILE_QUERY, useMediaQuery } from './useMediaQuery.ts';

export interface SelectOption<V extends string> {
  value: V;
  label: string;
}

export interface SelectProps<V extends string> {
  label: string;
  value: V;
  options: readonly SelectOption<V>[];
  onChange: (value: V) => void;
  name?: string;
  /** The phone modal's close button, in the page's language. */
  closeLabel: string;
}

export function Select<V extends string>({ label, value, options, onChange, name, closeLabel }: SelectProps<V>) {
  const [open, setOpen] = useState(false);
  const mobile = useMediaQuery(MOBILE_QUERY);
  const root = useRef<HTMLDivElement>(null);
  const labelId = useId();
  const listId = useId();
  const current = options.find((o) => o.value === value) ?? options[0];

  useEffect(() => {
    if (!open || mobile) return;
    const onDown = (e: MouseEvent) => root.current && !root.current.contains(e.target as Node) && setOpen(false);
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && (e.stopPropagation(), setOpen(false));
    document.addEventListener('mousedown', onDown);
    document.addEventListener('keydown', onKey, true);
    return () => {
      document.removeEventListener('mousedown', onDown);
      document.removeEventListener('keydown', onKey, true);
    };
  }, [open, mobile]);

  const choose = (v: V) => {
    onChange(v);
    setOpen(false);
  };
  const list = (
    <ul id={listId} role="listbox" aria-labelledby={labelId} className="max-h-[18rem] overflow-y-auto py-1">
      {options.map((o) => (
        <li
          key={o.value}
          role="option"
          aria-selected={o.value === value}
          tabIndex={0}
          onClick={() => choose(o.value)}
          onKeyDown={(e) => (e.key === 'Enter' || e.key === ' ') && (e.preventDefault(), choose(o.value))}
          className="flex cursor-pointer items-center justify-between px-4 py-2.5 text-sm hover:bg-paper-warm focus:bg-paper-warm focus:outline-none"
        >
          {o.label}
          {o.value === value && <Icon name="check" size={18} />}
        </li>
      ))}
    </ul>
  );

  return (
    <div ref={root} className="relative">
      <span id={labelId} className="mb-1.5 block text-xs font-600 uppercase tracking-wider text-ink-soft">
        {label}
      </span>
      {name && <input type="hidden" name={name} value={value} />}
      <button
        type="button"
        aria-haspopup="listbox"
        aria-expanded={open}
        aria-labelledby={`${labelId} ${listId}-value`}
        onClick={() => setOpen((o) => !o)}
        className="flex h-11 w-full cursor-pointer items-center justify-between border border-line bg-paper px-3 text-left text-sm hover:border-ink"
      >
        <span id={`${listId}-value`}>{current?.label}</span>
        <Icon name="chevronDown" size={18} />
      </button>
      {open && !mobile && <div className="absolute left-0 right-0 top-full z-30 mt-1 border border-line bg-paper shadow-lg">{list}</div>}
      {mobile && (
        <Modal open={open} onClose={() => setOpen(false)} title={label} closeLabel={closeLabel}>
          {list}
        </Modal>
      )}
    </div>
  );
}
