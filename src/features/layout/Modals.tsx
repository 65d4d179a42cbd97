// The site-wide modals (spec §2): buyout request and its thanks, login/registration. One island; the
// buyout form is fetched only when its modal opens.
import { useStore } from '@nanostores/react';
import { lazy, Suspense, useState } from 'react';
import { Modal } from '~/components/ui/Modal.tsx';
import { $modal, closeModal } from './layout.store.ts';

const BuyoutContent = lazy(() => import('~/features/buyout/BuyoutContent.tsx'));

function AuthTabs() {
  // spec §2: two tabs, login by default. The forms themselves arrive with the accounts work.
  const [tab, setTab] = useState<'login' | 'register'>('login');
  return (
    <div>
      <div role="tablist" className="grid grid-cols-2 border-b border-line">
        {(['login', 'register'] as const).map((t) => (
          <button key={t} type="button" role="tab" aria-selected={tab === t} onClick={() => setTab(t)}
            className={`cursor-pointer pb-3 text-sm font-600 ${tab === t ? 'border-b-2 border-ink text-ink' : 'text-ink-muted'}`}>
            {t === 'login' ? 'Вход' : 'Регистрация'}
          </button>
        ))}
      </div>
      <p role="tabpanel" className="mt-5 text-sm text-ink-soft">
        {tab === 'login' ? 'Вход по e-mail и паролю скоро появится здесь.' : 'Регистрация по e-mail и телефону скоро появится здесь.'} Пока мы всегда рады помочь в чате поддержки.
      </p>
    </div>
  );
}

export default function Modals() {
  const modal = useStore($modal);
  return (
    <>
      <Modal open={modal === 'buyout'} onClose={closeModal} title="Заявка на поиск и выкуп товара">
        <Suspense fallback={<p className="py-8 text-center text-sm text-ink-muted">Загрузка…</p>}>{modal === 'buyout' && <BuyoutContent />}</Suspense>
      </Modal>
      <Modal open={modal === 'buyout-thanks'} onClose={closeModal} title="Ваша заявка успешно отправлена">
        <p className="text-sm text-ink-soft">Менеджер свяжется с вами в выбранном мессенджере в ближайшее время.</p>
        <button type="button" onClick={closeModal} className="btn-primary mt-6 w-full">Продолжить шоппинг</button>
      </Modal>
      <Modal open={modal === 'auth'} onClose={closeModal} title="Личный кабинет">
        <AuthTabs />
      </Modal>
    </>
  );
}
