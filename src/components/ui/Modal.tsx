// spec §9 modal: max width 440 px, max height 90 % of the viewport. Built on the native <dialog>, which
// gives focus trapping, Escape and an accessible role without a dialog library in the bundle.
import { useId, useLayoutEffect, useRef, type ReactNode } from 'react';
import { Icon } from './Icon.tsx';

export interface ModalProps {
  open: boolean;
  onClose: () => void;
  title: string;
  children: ReactNode;
  /** The close button's accessible name, in the page's language. */
  closeLabel: string;
}

export function Modal({ open, onClose, title, children, closeLabel }: ModalProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();

  // A layout effect: the dialog opens in the frame that answers the tap, whatever update opened it (React
  // flushes a click's plain effects before the paint, but not those of an update a store or a timer made).
  useLayoutEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);

  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
      // A click on the dialog element itself (not its content) is a click on the backdrop.
      onClick={(e) => e.target === ref.current && onClose()}
      className="m-auto max-h-[90vh] w-[calc(100%-2rem)] max-w-[440px] overflow-hidden bg-paper p-0 text-ink shadow-2xl backdrop:bg-black/45"
    >
      {open && (
        <div className="flex max-h-[90vh] flex-col">
          <div className="flex items-start justify-between gap-4 border-b border-line px-6 py-4">
            <h2 id={titleId} className="font-display text-2xl font-500 leading-tight">
              {title}
            </h2>
            <button
              type="button"
              onClick={onClose}
              aria-label={closeLabel}
              className="-mr-2 grid h-9 w-9 shrink-0 place-items-center text-ink-soft hover:text-ink cursor-pointer"
            >
              <Icon name="close" />
            </button>
          </div>
          <div className="overflow-y-auto px-6 py-5">{children}</div>
        </div>
      )}
    </dialog>
  );
}
