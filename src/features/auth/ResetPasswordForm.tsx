// /password/reset's form: the token from the link's ?token=, the new password twice (ASVS: length only,
// paste allowed, shown on request). On success every session has ended; the login modal opens.
import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { FormField } from '~/components/ui/FormField.tsx';
import { showToast } from '~/components/ui/toast.store.ts';
import { ApiError } from '~/lib/api.client.ts';
import { openAuth } from '~/features/layout/layout.store.ts';
import { resetCall } from './auth.client.ts';
import { resetSchema } from './auth.schema.ts';
import { clearSession, initSession } from './auth.store.ts';

export default function ResetPasswordForm({ m }: { m: Record<string, string> }) {
  const shown = (message: string | undefined) => (message ? (m[message] ?? message) : undefined);
  const [token, setToken] = useState<string | null | undefined>(undefined);
  const [failed, setFailed] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    setValue,
    formState: { errors, isSubmitting, touchedFields },
  } = useForm<z.input<typeof resetSchema>, unknown, z.output<typeof resetSchema>>({
    resolver: zodResolver(resetSchema),
    defaultValues: { token: '', password: '', password_confirmation: '' },
    mode: 'onBlur',
    reValidateMode: 'onChange',
  });
  useEffect(() => {
    initSession();
    const found = new URLSearchParams(location.search).get('token');
    setToken(found);
    if (found) setValue('token', found);
  }, [setValue]);
  const submit = handleSubmit(async (values) => {
    try {
      const done = await resetCall(values);
      void done;
      // The server ended every session, this browser's too.
      clearSession();
      showToast(m['auth.resetDone'] ?? '', 'success', 6000);
      history.replaceState(null, '', '/password/reset');
      openAuth('login');
      setToken(null);
    } catch (error) {
      if (!(error instanceof ApiError)) return;
      const field = (['password', 'password_confirmation'] as const).find((f) => error.failure.errors[f]);
      if (field) setError(field, { type: 'server', message: error.failure.errors[field]?.[0] ?? '' });
      else setFailed(error.message);
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
        {...register('password')}
        hint={m['auth.passwordHint']}
        error={shown(errors.password?.message)}
        valid={touchedFields.password && !errors.password}
        reveal={reveal}
      />
      <FormField
        label={m['auth.confirmPassword'] ?? ''}
        type="password"
        autoComplete="new-password"
        {...register('password_confirmation')}
        error={shown(errors.password_confirmation?.message)}
        valid={touchedFields.password_confirmation && !errors.password_confirmation}
        reveal={reveal}
      />
      <button type="submit" disabled={isSubmitting} className="btn-primary w-full disabled:opacity-60">
        {m['auth.resetSubmit']}
      </button>
    </form>
  );
}
