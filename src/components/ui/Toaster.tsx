// Shows the toasts of toast.store (spec §2, §9); each disappears after its duration.
import { useClientStore, NONE } from '~/lib/client-store.ts';
import { useEffect } from 'react';
import { $toasts, dismissToast, type Toast } from './toast.store.ts';

const TONE: Record<Toast['type'], string> = {
  success: 'border-l-success',
  error: 'border-l-danger',
  warning: 'border-l-warning',
  info: 'border-l-ink',
};

function ToastItem({ toast }: { toast: Toast }) {
  useEffect(() => {
    const timer = setTimeout(() => dismissToast(toast.id), toast.duration);
    return () => clearTimeout(timer);
  }, [toast]);
  return (
    <li
      role={toast.type === 'error' ? 'alert' : 'status'}
      data-type={toast.type}
      className={`pointer-events-auto border border-line border-l-4 bg-paper px-4 py-3 text-sm shadow-lg ${TONE[toast.type]}`}
    >
      {toast.message}
    </li>
  );
}

export default function Toaster() {
  const toasts = useClientStore($toasts, NONE);
  return (
    <ol aria-live="polite" className="pointer-events-none fixed right-4 top-4 z-[60] flex w-[min(360px,calc(100%-2rem))] flex-col gap-2">
      {toasts.map((t) => (
        <ToastItem key={t.id} toast={t} />
      ))}
    </ol>
  );
}
