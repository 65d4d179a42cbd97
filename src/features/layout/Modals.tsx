// The site-wide modals (spec §2): buyout request and its thanks, login/registration. One island; each
// form is fetched only when its modal opens.
import { useStore } from '@nanostores/react';
import { lazy, Suspense } from 'react';
import { Modal } from '~/components/ui/Modal.tsx';
import type { KeysWith } from '~/lib/i18n/index.ts';
import { $authTab, $modal, closeModal } from './layout.store.ts';

const BuyoutContent = lazy(() => import('~/features/buyout/BuyoutContent.tsx'));
const AuthForms = lazy(() => import('~/features/auth/AuthForms.tsx'));

/** The modals' strings in the page's language (messagesFor(locale, 'auth.', 'buyout.', …) in DefaultLayout). */
export type ModalMessages = Record<KeysWith<'auth.' | 'buyout.' | 'validation.' | 'ui.loading' | 'nav.account' | 'nav.close'>, string>;

export default function Modals({ messages: m }: { messages: ModalMessages }) {
  const modal = useStore($modal);
  const authTab = useStore($authTab);
  const loading = <p className="py-8 text-center text-sm text-ink-muted">{m['ui.loading']}</p>;
  return (
    <>
      <Modal open={modal === 'buyout'} onClose={closeModal} title={m['buyout.title']} closeLabel={m['nav.close']}>
        <Suspense fallback={<p className="py-8 text-center text-sm text-ink-muted">{m['ui.loading']}</p>}>
          {modal === 'buyout' && <BuyoutContent m={m} />}
        </Suspense>
      </Modal>
      <Modal open={modal === 'buyout-thanks'} onClose={closeModal} title={m['buyout.thanksTitle']} closeLabel={m['nav.close']}>
        <p className="text-sm text-ink-soft">{m['buyout.thanksText']}</p>
        <button type="button" onClick={closeModal} className="btn-primary mt-6 w-full">
          {m['buyout.continue']}
        </button>
      </Modal>
      <Modal open={modal === 'auth'} onClose={closeModal} title={m['nav.account']} closeLabel={m['nav.close']}>
        <Suspense fallback={loading}>{modal === 'auth' && <AuthForms m={m} initialTab={authTab} />}</Suspense>
      </Modal>
    </>
  );
}
