// /password/reset's form: the token from the link's ?token=, the new password twice (ASVS: length only,
// paste allowed, shown on request). On success every session has ended; the login modal opens.
import { useEffect, useState } from 'react';
import { FormField } from '~/components/ui/FormField.tsx';
import { fieldProps, shownIn, useSchemaForm } from '~/components/ui/schema-form.ts';
import { showToast } from '~/components/ui/toast.store.ts';
import { ApiError, applyFieldErrors } from '~/lib/api.client.ts';
import { openAuth } from '~/features/frame/frame.store.ts';
import { resetCall } from './auth.client.ts';
import { resetSchema } from './auth.schema.ts';
import { clearSession, initSession } from './auth.store.ts';

export default function ResetPasswordForm({ m }: { m: Record<string, string> }) {
  const shown = shownIn(m);
  const [token, setToken] = useState<string | null | undefined>(undefined);
  const [failed, setFailed] = useState<string | null>(null);
  const form = useSchemaForm(resetSchema, { token: '', password: '', password_confirmation: '' });
  const { handleSubmit, setError, setValue } = form;
  const { isSubmitting } = form.formState;
  useEffect(() => {
    initSession();
    const found = new URLSearchParams(location.search).get('token');
    setToken(found);
    if (found) setValue('token', found);
  }, [setValue]);
  const submit = handleSubmit(async (values) => {
    try {
      await resetCall(values);
      // The server ended every session, this browser's too.
      clearSession();
      showToast(m['auth.resetDone'] ?? '', 'success', 6000);
      history.replaceState(null, '', '/password/reset');
      openAuth('login');
      setToken(null);
    } catch (error) {
      if (!(error instanceof ApiError)) return;
      // A password the server refused goes under its field; a spent or unknown link replaces the form.
      if (!applyFieldErrors(error, ['password', 'password_confirmation'] as const, (field, message) => setError(field, { type: 'server', message })))
        setFailed(error.message);
    }
  });
  if (token === undefined) return null;
  if (!token || failed)
    return (
      <div className="border border-line p-5 text-sm">
        <p role={failed ? 'alert' : undefined} className={failed ? 'text-danger' : 'text-ink-soft'}>
          {failed ?? m['auth.resetNoToken']}
        </p>
        <button type="button" onClick={() => openAuth('login')} className="btn-outline mt-4">
          {m['auth.requestNewLink']}
        </button>
      </div>
    );
  const reveal = { show: m['auth.showPassword'] ?? '', hide: m['auth.hidePassword'] ?? '' };
  return (
    <form onSubmit={submit} noValidate className="space-y-4" aria-label={m['auth.resetTitle']}>
      <FormField
        label={m['auth.newPassword'] ?? ''}
        type="password"
        autoComplete="new-password"
        {...fieldProps(form, 'password', shown)}
        hint={m['auth.passwordHint']}
        reveal={reveal}
      />
      <FormField
        label={m['auth.confirmPassword'] ?? ''}
        type="password"
        autoComplete="new-password"
        {...fieldProps(form, 'password_confirmation', shown)}
        reveal={reveal}
      />
      <button type="submit" disabled={isSubmitting} className="btn-primary w-full disabled:opacity-60">
        {m['auth.resetSubmit']}
      </button>
    </form>
  );
}
