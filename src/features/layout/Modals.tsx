// The site-wide modals (spec §2): buyout request and its thanks, login/registration. One island; each
// form, and the modals' strings in the page's language, are fetched only when a modal first opens (the
// strings were 1.5 KB of every page's compressed HTML: docs/performance.md, "First paint"). The buyout and
// login dialogs are in the page's HTML with their headings (`frame`, from the server), so that their
// command buttons open them without script, before this island has hydrated; the form fills in once it has
// (docs/decisions/021).
import { useClientStore } from '~/lib/client-store.ts';
import { lazy, Suspense, useEffect, useState } from 'react';
import { Modal } from '~/components/ui/Modal.tsx';
import { showToast } from '~/components/ui/toast.store.ts';
import { bt } from '~/lib/i18n/browser.ts';
import { loadMessages } from '~/lib/i18n/chunks.client.ts';
import type { ModalMessages } from '~/features/frame/frame.ts';
import { $authTab, $modal, closeModal, openAuth, openModal } from '~/features/frame/frame.store.ts';
import { useIslandMark } from '~/lib/islands.ts';
import { MODAL_IDS } from './modal-ids.ts';
import { frameProp } from './layout.labels.client.ts';

const BuyoutContent = lazy(() => import('~/features/buyout/BuyoutContent.tsx'));
const AuthModal = lazy(() => import('./AuthModal.tsx'));

export interface ModalsProps {
  /**
   * The two dialogs' headings and what they say until their form is ready, in the page's language (layout.labels.ts
   * `modalsFrame`); in the browser, from the frame's labels (the front takes them out of the props).
   */
  frame?: { buyout: string; auth: string; close: string; loading: string };
}

export default function Modals({ frame: given }: ModalsProps) {
  const frame = frameProp('Modals', 'frame', given);
  useIslandMark('modals');
  const modal = useClientStore($modal, null);
  const authTab = useClientStore($authTab, 'login');
  const [m, setMessages] = useState<ModalMessages | null>(null);
  // The strings (2 KB) are fetched once the page is idle, so that the tap that opens a modal paints it at
  // once: fetched on the tap, the first frame after it waited for them (INP 272–296 ms on the throttled
  // phone, docs/performance.md "First taps"); a tap before then still fetches them itself.
  useEffect(() => {
    if (m) return;
    if (!modal) {
      const idle = window.requestIdleCallback ?? ((run: () => void) => window.setTimeout(run, 1));
      const handle = idle(() => void loadMessages('modals').then(setMessages, () => undefined));
      return () => (window.cancelIdleCallback ?? window.clearTimeout)(handle);
    }
    loadMessages('modals').then(setMessages, () => {
      closeModal();
      showToast(bt('error.network'), 'error');
    });
    return undefined;
  }, [modal, m]);
  const loading = <p className="py-8 text-center text-sm text-ink-muted">{frame.loading}</p>;
  return (
    <>
      <Modal
        id={MODAL_IDS.buyout}
        open={modal === 'buyout'}
        onOpen={openBuyout}
        onClose={closeModal}
        title={frame.buyout}
        closeLabel={frame.close}
        pending={loading}
      >
        <Suspense fallback={loading}>{m && modal === 'buyout' ? <BuyoutContent m={m} /> : loading}</Suspense>
      </Modal>
      <Modal id={MODAL_IDS.auth} open={modal === 'auth'} onOpen={openLogin} onClose={closeModal} title={frame.auth} closeLabel={frame.close} pending={loading}>
        <Suspense fallback={loading}>{m && modal === 'auth' ? <AuthModal m={m} initialTab={authTab} /> : loading}</Suspense>
      </Modal>
      {m && (
        <Modal open={modal === 'buyout-thanks'} onClose={closeModal} title={m['buyout.thanksTitle']} closeLabel={m['nav.close']}>
          <p className="text-sm text-ink-soft">{m['buyout.thanksText']}</p>
          <button type="button" onClick={closeModal} className="btn-primary mt-6 w-full">
            {m['buyout.continue']}
          </button>
        </Modal>
      )}
    </>
  );
}

const openBuyout = () => openModal('buyout');
const openLogin = () => openAuth();
