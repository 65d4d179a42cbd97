// The referral link with a copy button (dashboard-partners): the clipboard when the browser allows it,
// else the text selected for the visitor to copy.
import { useRef } from 'react';
import { Icon } from '~/components/ui/Icon.tsx';
import { showToast } from '~/components/ui/toast.store.ts';

export default function CopyLink({ link, label, copy, copied }: { link: string; label: string; copy: string; copied: string }) {
  const input = useRef<HTMLInputElement>(null);
  const onCopy = async () => {
    try {
      await navigator.clipboard.writeText(link);
      showToast(copied, 'success');
    } catch {
      input.current?.select();
    }
  };
  return (
    <div className="flex flex-col gap-2 sm:flex-row">
      <input
        ref={input}
        readOnly
        value={link}
        aria-label={label}
        onFocus={(e) => e.currentTarget.select()}
        className="h-11 min-w-0 flex-1 border border-line bg-paper-warm px-3 text-sm"
      />
      <button type="button" onClick={() => void onCopy()} className="btn-primary inline-flex items-center justify-center gap-2">
        <Icon name="copy" size={18} />
        {copy}
      </button>
    </div>
  );
}
