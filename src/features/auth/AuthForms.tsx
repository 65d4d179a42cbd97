// The login/registration modal's content (spec §2, §4, §5, §8): two tabs, login first unless the opener
// asks for registration; the login form toggles to a forgot-password view with a back button. Loaded
// only when the modal opens, so the form library and the schemas never weigh on the first page load.
import { useState } from 'react';
import { FormError, FormField } from '~/components/ui/FormField.tsx';
import { fieldProps, shownIn, useSchemaForm } from '~/components/ui/schema-form.ts';
import { PhoneField } from '~/components/ui/PhoneField.tsx';
import { showToast } from '~/components/ui/toast.store.ts';
import { ApiError, applyFieldErrors } from '~/lib/api.client.ts';
import { closeModal } from '~/features/frame/frame.store.ts';
import type { ModalMessages } from '~/features/frame/frame.ts';
import { forgotCall, loginCall, registerCall } from './auth.client.ts';
import { forgotSchema, loginSchema, registerSchema } from './auth.schema.ts';
import { startSession } from './auth.store.ts';

type Tab = 'login' | 'register';

/**
 * What signing in carries from the rest of the shop, handed over by the frame that holds the forms
 * (layout/AuthModal.tsx): the guest's cart lines, sent with the login and dropped once the server has merged
 * them (spec §4), and the partner's referral code a registration names. Auth sits below the cart and the
 * partner programme (docs/decisions/027), so it asks for them rather than importing them.
 */
export interface SignInCarry {
  guestLines: () => unknown[];
  dropGuestLines: () => void;
  referralCode: () => string | null;
}

/** The e-mail field all three forms open with. */
function EmailField({ m, autoComplete, ...field }: { m: ModalMessages; autoComplete: 'username' | 'email' } & ReturnType<typeof fieldProps>) {
  return <FormField label={m['auth.email']} type="email" autoComplete={autoComplete} inputMode="email" {...field} />;
}

function LoginForm({ m, onForgot, carry }: { m: ModalMessages; onForgot: () => void; carry: SignInCarry }) {
  const form = useSchemaForm(loginSchema);
  const { handleSubmit, setError } = form;
  const { errors, isSubmitting } = form.formState;
  const field = (name: 'email' | 'password') => fieldProps(form, name, shownIn(m));
  const submit = handleSubmit(async (values) => {
    try {
      // spec §4: login sends the guest's cart lines; the server merges them, so the local ones go.
      const answer = await loginCall({ email: values.email, password: values.password, cart_items: carry.guestLines() });
      carry.dropGuestLines();
      startSession(answer);
      closeModal();
    } catch (error) {
      // spec §8: an HTTP error's message in red under the form; other errors only logged.
      if (error instanceof ApiError) {
        if (!applyFieldErrors(error, ['email', 'password'] as const, (f, message) => setError(f, { type: 'server', message })))
          setError('root', { type: 'server', message: error.message });
      } else console.error(error);
    }
  });
  return (
    <form onSubmit={submit} noValidate className="space-y-4" aria-label={m['auth.login']}>
      <EmailField m={m} autoComplete="username" {...field('email')} />
      <FormField
        label={m['auth.password']}
        type="password"
        autoComplete="current-password"
        {...field('password')}
        reveal={{ show: m['auth.showPassword'], hide: m['auth.hidePassword'] }}
      />
      <button type="button" onClick={onForgot} className="cursor-pointer text-sm underline underline-offset-4 text-ink-soft hover:text-ink">
        {m['auth.forgot']}
      </button>
      <button type="submit" disabled={isSubmitting} className="btn-primary w-full disabled:opacity-60">
        {m['auth.submitLogin']}
      </button>
      <FormError message={errors.root?.message} />
    </form>
  );
}

function RegisterForm({ m, carry }: { m: ModalMessages; carry: SignInCarry }) {
  const form = useSchemaForm(registerSchema, { email: '', phone: '', password: '' });
  const { handleSubmit, setError, control, register } = form;
  const { errors, isSubmitting } = form.formState;
  const field = (name: 'email' | 'password') => fieldProps(form, name, shownIn(m));
  const submit = handleSubmit(async (values) => {
    try {
      const ref = carry.referralCode();
      const answer = await registerCall({ email: values.email, phone: values.phone, password: values.password, ...(ref ? { ref } : {}) });
      // spec §4: account created, logged in, success message, modal closed.
      startSession(answer);
      showToast(m['auth.registered'], 'success');
      closeModal();
    } catch (error) {
      // spec §8: field errors from the response set on the form (and logged); anything else under it.
      console.error(error);
      if (!applyFieldErrors(error, ['email', 'phone', 'password'] as const, (f, message) => setError(f, { type: 'server', message })))
        setError('root', { type: 'server', message: error instanceof ApiError ? error.message : m['auth.resetLinkFailed'] });
    }
  });
  return (
    <form onSubmit={submit} noValidate className="space-y-4" aria-label={m['auth.register']}>
      <EmailField m={m} autoComplete="email" {...field('email')} />
      <PhoneField control={control} name="phone" label={m['auth.phone']} shown={shownIn(m)} />
      <FormField
        label={m['auth.password']}
        type="password"
        autoComplete="new-password"
        {...field('password')}
        hint={m['auth.passwordHint']}
        reveal={{ show: m['auth.showPassword'], hide: m['auth.hidePassword'] }}
      />
      {/* Honeypot: hidden from people and their assistive technology; bots fill it. */}
      <input type="text" tabIndex={-1} autoComplete="off" aria-hidden="true" className="hidden" {...register('website')} />
      <p className="text-xs text-ink-muted">{m['auth.registerConsent']}</p>
      <button type="submit" disabled={isSubmitting} className="btn-primary w-full disabled:opacity-60">
        {m['auth.submitRegister']}
      </button>
      <FormError message={errors.root?.message} />
    </form>
  );
}

function ForgotForm({ m, onBack }: { m: ModalMessages; onBack: () => void }) {
  const form = useSchemaForm(forgotSchema);
  const { isSubmitting } = form.formState;
  const submit = form.handleSubmit(async (values) => {
    try {
      await forgotCall(values.email);
      // spec §4, §8: success message, modal closed.
      showToast(m['auth.resetLinkSent'], 'success');
      closeModal();
    } catch (error) {
      showToast(error instanceof ApiError && error.failure.status === 429 ? error.message : m['auth.resetLinkFailed'], 'error');
    }
  });
  return (
    <form onSubmit={submit} noValidate className="space-y-4" aria-label={m['auth.forgotTitle']}>
      <button type="button" onClick={onBack} className="-ml-1 inline-flex cursor-pointer items-center gap-1 text-sm text-ink-soft hover:text-ink">
        <span aria-hidden="true">←</span> {m['auth.back']}
      </button>
      <h3 className="font-display text-xl font-500">{m['auth.forgotTitle']}</h3>
      <p className="text-sm text-ink-soft">{m['auth.forgotText']}</p>
      <EmailField m={m} autoComplete="email" {...fieldProps(form, 'email', shownIn(m))} />
      <button type="submit" disabled={isSubmitting} className="btn-primary w-full disabled:opacity-60">
        {m['auth.forgotSubmit']}
      </button>
    </form>
  );
}

export default function AuthForms({ m, initialTab = 'login', carry }: { m: ModalMessages; initialTab?: Tab; carry: SignInCarry }) {
  const [tab, setTab] = useState<Tab>(initialTab);
  const [forgot, setForgot] = useState(false);
  if (forgot) return <ForgotForm m={m} onBack={() => setForgot(false)} />;
  return (
    <div>
      <div role="tablist" aria-label={m['auth.tabs']} className="mb-5 grid grid-cols-2 border-b border-line">
        {(['login', 'register'] as const).map((t) => (
          <button
            key={t}
            id={`auth-tab-${t}`}
            type="button"
            role="tab"
            aria-selected={tab === t}
            aria-controls={`auth-panel-${t}`}
            onClick={() => setTab(t)}
            className={`cursor-pointer pb-3 text-sm font-600 ${tab === t ? 'border-b-2 border-ink text-ink' : 'text-ink-muted'}`}
          >
            {t === 'login' ? m['auth.login'] : m['auth.register']}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`auth-panel-${tab}`} aria-labelledby={`auth-tab-${tab}`}>
        {tab === 'login' ? <LoginForm m={m} onForgot={() => setForgot(true)} carry={carry} /> : <RegisterForm m={m} carry={carry} />}
      </div>
    </div>
  );
}
