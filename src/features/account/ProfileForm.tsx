// /dashboard/profile's form (spec §2 'Мои данные', §5): name, surname, patronymic, e-mail, phone, with the
// shared schema's messages on blur and change; saved as multipart (spec §7). Below it, a password
// change by e-mailed link.
import { useEffect, useState } from 'react';
import { FormField } from '~/components/ui/FormField.tsx';
import { fieldProps, shownIn, useSchemaForm } from '~/components/ui/schema-form.ts';
import { PhoneField } from '~/components/ui/PhoneField.tsx';
import { showToast } from '~/components/ui/toast.store.ts';
import { ApiError, applyFieldErrors } from '~/lib/api.client.ts';
import { ownResetLinkCall, updateBasicInfoCall } from '~/features/auth/auth.client.ts';
import { initSession, updateSessionUser } from '~/features/auth/auth.store.ts';
import type { User } from '~/features/auth/auth.ts';
import { profileSchema } from './account.schema.ts';

const FIELDS = ['name', 'surname', 'patronymic', 'email', 'phone'] as const;

export default function ProfileForm({ user, m }: { user: User; m: Record<string, string> }) {
  const shown = shownIn(m);
  const [sending, setSending] = useState(false);
  useEffect(() => initSession(), []);
  const profile = useSchemaForm(profileSchema, { name: user.name, surname: user.surname, patronymic: user.patronymic, email: user.email, phone: user.phone });
  const { handleSubmit, setError, control, reset } = profile;
  const { isSubmitting, isDirty } = profile.formState;
  const submit = handleSubmit(async (values) => {
    const form = new FormData();
    for (const field of FIELDS) form.append(field, values[field]);
    try {
      const saved = await updateBasicInfoCall(form);
      updateSessionUser(saved);
      reset({ name: saved.name, surname: saved.surname, patronymic: saved.patronymic, email: saved.email, phone: saved.phone });
      showToast(m['account.profile.saved'] ?? '', 'success');
    } catch (error) {
      if (error instanceof ApiError && !applyFieldErrors(error, FIELDS, (field, message) => setError(field, { type: 'server', message })))
        showToast(error.message, 'error');
    }
  });
  const sendLink = async () => {
    setSending(true);
    try {
      await ownResetLinkCall();
      showToast(m['auth.resetLinkSent'] ?? '', 'success');
    } catch (error) {
      showToast(error instanceof ApiError && error.failure.status === 429 ? error.message : (m['auth.resetLinkFailed'] ?? ''), 'error');
    } finally {
      setSending(false);
    }
  };
  const field = (name: (typeof FIELDS)[number], label: string, type = 'text', autoComplete = 'off') => (
    <FormField label={label} type={type} autoComplete={autoComplete} {...fieldProps(profile, name, shown)} />
  );
  return (
    <div className="max-w-xl">
      <p className="text-sm text-ink-soft">{m['account.profile.intro']}</p>
      <form onSubmit={submit} noValidate className="mt-6 grid gap-4 sm:grid-cols-2" aria-label={m['account.menu.profile']}>
        {field('name', m['account.profile.name'] ?? '', 'text', 'given-name')}
        {field('surname', m['account.profile.surname'] ?? '', 'text', 'family-name')}
        {field('patronymic', m['account.profile.patronymic'] ?? '', 'text', 'additional-name')}
        {field('email', m['auth.email'] ?? '', 'email', 'email')}
        <PhoneField control={control} name="phone" label={m['auth.phone'] ?? ''} shown={shown} />
        <div className="sm:col-span-2">
          <button type="submit" disabled={isSubmitting || !isDirty} className="btn-primary w-full sm:w-auto disabled:opacity-60">
            {m['account.profile.save']}
          </button>
        </div>
      </form>
      <section className="mt-10 border-t border-line pt-6">
        <h2 className="font-display text-2xl font-500">{m['account.profile.password']}</h2>
        <p className="mt-2 text-sm text-ink-soft">{m['account.profile.passwordText']}</p>
        <button type="button" onClick={() => void sendLink()} disabled={sending} className="btn-outline mt-4 disabled:opacity-60">
          {m['account.profile.passwordAction']}
        </button>
      </section>
    </div>
  );
}
