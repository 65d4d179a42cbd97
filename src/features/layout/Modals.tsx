// The site-wide modals (spec §2): buyout request and its thanks, login/registration. One island; the
// buyout form is fetched only when its modal opens.
import { useStore } from '@nanostores/react';
import { lazy, Suspense, useState } from 'react';
import { Modal } from '~/components/ui/Modal.tsx';
import type { KeysWith } from '~/lib/i18n/index.ts';
import { $modal, closeModal } from './layout.store.ts';

const BuyoutContent = lazy(() => import('~/features/buyout/BuyoutContent.tsx'));

/** The modals' strings in the page's language (messagesFor(locale, 'auth.', 'buyout.', …) in DefaultLayout). */
export type ModalMessages = Record<KeysWith<'auth.' | 'buyout.' | 'validation.' | 'ui.loading' | 'nav.account' | 'nav.close'>, string>;

function AuthTabs({ m }: { m: ModalMessages }) {
  // spec §2: two tabs, login by default. The forms themselves arrive with the accounts work.
  const [tab, setTab] = useState<'login' | 'register'>('login');
  return (
    <div>
      <div role="tablist" className="grid grid-cols-2 border-b border-line">
        {(['login', 'register'] as const).map((t) => (
          <button
            key={t}
            type="button"
            role="tab"
            aria-selected={tab === t}
            onClick={() => setTab(t)}
            className={`cursor-pointer pb-3 text-sm font-600 ${tab === t ? 'border-b-2 border-ink text-ink' : 'text-ink-muted'}`}
          >
            {t === 'login' ? m['auth.login'] : m['auth.register']}
          </button>
        ))}
      </div>
      <p role="tabpanel" className="mt-5 text-sm text-ink-soft">
        {tab === 'login' ? m['auth.loginSoon'] : m['auth.registerSoon']} {m['auth.supportMeanwhile']}
      </p>
    </div>
  );
}

export default function Modals({ messages: m }: { messages: ModalMessages }) {
  const modal = useStore($modal);
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
        <AuthTabs m={m} />
      </Modal>
    </>
  );
}
