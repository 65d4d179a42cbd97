// spec §9 modal: max width 440 px, max height 90 % of the viewport. Built on the native <dialog>, which
// gives what a dialog library would without one in the bundle (docs/decisions/021): the rest of the page
// inert, Escape, the focus taken inside and given back to the opener, the heading read as its name.
// With an `id`, a button elsewhere opens it without script (`commandfor={id} command="show-modal"`): the
// page's HTML then holds its frame (heading, close button, `pending` while its island is not ready), and
// the island adopts a dialog the platform opened before it hydrated (`onOpen`).
import { useId, useLayoutEffect, useRef, type ReactNode } from 'react';
import { Icon } from './Icon.tsx';

export interface ModalProps {
  open: boolean;
  onClose: () => void;
  /** Told when the platform opened it (a command button), so that the island's state follows. */
  onOpen?: (() => void) | undefined;
  title: string;
  children: ReactNode;
  /** The close button's accessible name, in the page's language. */
  closeLabel: string;
  /** For command buttons: the dialog's id. */
  id?: string | undefined;
  /** Shown in a dialog opened before its content is ready (by a command button before hydration). */
  pending?: ReactNode;
}

export function Modal({ open, onClose, onOpen, title, children, closeLabel, id, pending }: ModalProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const mounted = useRef(false);

  // A layout effect: the dialog opens in the frame that answers the tap, whatever update opened it (React
  // flushes a click's plain effects before the paint, but not those of an update a store or a timer made).
  useLayoutEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const first = !mounted.current;
    mounted.current = true;
    // Opened by a command button before the island hydrated: the island follows the page, not the reverse.
    if (first && dialog.open && !open) return onOpen?.();
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);

  // A command button opens it after hydration too; closed by the platform (the close command, a form's
  // method=dialog), the state follows.
  useLayoutEffect(() => {
    const dialog = ref.current;
    if (!dialog || !id) return;
    const toggled = (event: Event) => {
      const state = (event as ToggleEvent).newState;
      if (state === 'open' && !open) onOpen?.();
      if (state === 'closed' && open) onClose();
    };
    dialog.addEventListener('toggle', toggled);
    return () => dialog.removeEventListener('toggle', toggled);
  }, [id, open, onOpen, onClose]);

  return (
    <dialog
      ref={ref}
      id={id}
      aria-labelledby={titleId}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
      // A click on the dialog element itself (not its content) is a click on the backdrop.
      onClick={(e) => e.target === ref.current && onClose()}
      className="m-auto max-h-[90vh] w-[calc(100%-2rem)] max-w-[440px] overflow-hidden bg-paper p-0 text-ink shadow-2xl backdrop:bg-black/45"
    >
      {(open || id) && (
        <div className="flex max-h-[90vh] flex-col">
          <div className="flex items-start justify-between gap-4 border-b border-line px-6 py-4">
            <h2 id={titleId} className="font-display text-2xl font-500 leading-tight">
              {title}
            </h2>
            <button
              type="button"
              onClick={onClose}
              // Without script (before hydration) the platform closes it.
              commandfor={id}
              command={id ? 'close' : undefined}
              aria-label={closeLabel}
              className="-mr-2 grid h-9 w-9 shrink-0 place-items-center text-ink-soft hover:text-ink cursor-pointer"
            >
              <Icon name="close" />
            </button>
          </div>
          <div className="overflow-y-auto px-6 py-5">{open ? children : pending}</div>
        </div>
      )}
    </dialog>
  );
}
