// /dashboard/address: the saved delivery addresses — add, edit, delete, make default. The list starts
// from the server's render and follows each call's answer.
import { useEffect, useState } from 'react';
import type { z } from '~/lib/zod.ts';
import { FormField } from '~/components/ui/FormField.tsx';
import { fieldProps, shownIn, useSchemaForm } from '~/components/ui/schema-form.ts';
import { PhoneField } from '~/components/ui/PhoneField.tsx';
import { showToast } from '~/components/ui/toast.store.ts';
import { api, ApiError, applyFieldErrors } from '~/lib/api.client.ts';
import { initSession } from '~/features/auth/auth.store.ts';
import { addressSchema, type savedAddressSchema } from './account.schema.ts';

type Saved = z.output<typeof savedAddressSchema>;
type Input = z.input<typeof addressSchema>;
const BASE = '/api/v1/ecommerce-core/customer/addresses';
const TEXT_FIELDS = ['recipient', 'city', 'street', 'house', 'apartment', 'postcode', 'comment'] as const;
const EMPTY: Input = { recipient: '', phone: '', city: '', street: '', house: '', apartment: '', postcode: '', comment: '', is_default: false };

function AddressForm({
  m,
  initial,
  onSaved,
  onCancel,
}: {
  m: Record<string, string>;
  initial?: Saved | undefined;
  onSaved: (list: Saved[]) => void;
  onCancel: () => void;
}) {
  const shown = shownIn(m);
  const form = useSchemaForm(addressSchema, initial ?? EMPTY);
  const { register, handleSubmit, control, setError } = form;
  const { isSubmitting } = form.formState;
  const submit = handleSubmit(async (values) => {
    try {
      await api<Saved>(initial ? `${BASE}/${initial.id}` : BASE, { method: 'POST', body: values });
      onSaved(await api<Saved[]>(BASE));
      showToast(m['account.address.saved'] ?? '', 'success');
    } catch (error) {
      if (
        error instanceof ApiError &&
        !applyFieldErrors(error, [...TEXT_FIELDS, 'phone'] as const, (field, message) => setError(field, { type: 'server', message }))
      )
        showToast(error.message, 'error');
    }
  });
  const auto: Record<(typeof TEXT_FIELDS)[number], string> = {
    recipient: 'name',
    city: 'address-level2',
    street: 'address-line1',
    house: 'off',
    apartment: 'address-line2',
    postcode: 'postal-code',
    comment: 'off',
  };
  const text = (name: (typeof TEXT_FIELDS)[number]) => (
    <FormField
      label={m[`account.address.${name}`] ?? ''}
      autoComplete={auto[name]}
      inputMode={name === 'postcode' ? 'numeric' : undefined}
      {...fieldProps(form, name, shown)}
    />
  );
  return (
    <form
      onSubmit={submit}
      noValidate
      className="grid gap-4 border border-line p-5 sm:grid-cols-2"
      aria-label={initial ? m['account.address.edit'] : m['account.address.add']}
    >
      {text('recipient')}
      <PhoneField control={control} name="phone" label={m['auth.phone'] ?? ''} shown={shown} />
      {text('city')}
      {text('street')}
      <div className="grid grid-cols-2 gap-4">
        {text('house')}
        {text('apartment')}
      </div>
      {text('postcode')}
      <div className="sm:col-span-2">{text('comment')}</div>
      <label className="flex items-center gap-2 text-sm sm:col-span-2">
        <input type="checkbox" {...register('is_default')} className="h-4 w-4 accent-ink" />
        {m['account.address.isDefault']}
      </label>
      <div className="flex gap-3 sm:col-span-2">
        <button type="submit" disabled={isSubmitting} className="btn-primary disabled:opacity-60">
          {m['account.address.save']}
        </button>
        <button type="button" onClick={onCancel} className="btn-outline">
          {m['account.address.cancel']}
        </button>
      </div>
    </form>
  );
}

export default function AddressBook({ initial, m }: { initial: Saved[]; m: Record<string, string> }) {
  const [list, setList] = useState(initial);
  const [editing, setEditing] = useState<number | 'new' | null>(null);
  useEffect(() => initSession(), []);
  const act = async (path: string, message?: string) => {
    try {
      await api(path, { method: 'POST' });
      setList(await api<Saved[]>(BASE));
      if (message) showToast(message, 'success');
    } catch (error) {
      if (error instanceof ApiError) showToast(error.message, 'error');
    }
  };
  const saved = (next: Saved[]) => {
    setList(next);
    setEditing(null);
  };
  return (
    <div className="max-w-3xl space-y-4">
      <p className="text-sm text-ink-soft">{m['account.address.intro']}</p>
      {list.length === 0 && editing === null && <p className="border border-dashed border-line p-6 text-sm text-ink-soft">{m['account.address.empty']}</p>}
      <ul className="space-y-4">
        {list.map((a) =>
          editing === a.id ? (
            <li key={a.id}>
              <AddressForm m={m} initial={a} onSaved={saved} onCancel={() => setEditing(null)} />
            </li>
          ) : (
            <li key={a.id} className="border border-line p-5">
              <div className="flex flex-wrap items-start justify-between gap-3">
                <div className="text-sm">
                  <p className="font-600">
                    {a.recipient} · {a.phone}
                  </p>
                  <p className="mt-1 text-ink-soft">{[a.postcode, a.city, a.street, a.house, a.apartment].filter(Boolean).join(', ')}</p>
                  {a.comment && <p className="mt-1 text-xs text-ink-muted">{a.comment}</p>}
                </div>
                {a.is_default && <span className="bg-ink px-2 py-1 text-xs font-600 text-white">{m['account.address.default']}</span>}
              </div>
              <div className="mt-4 flex flex-wrap gap-4 text-sm">
                <button type="button" onClick={() => setEditing(a.id)} className="cursor-pointer underline underline-offset-4">
                  {m['account.address.edit']}
                </button>
                {!a.is_default && (
                  <button type="button" onClick={() => void act(`${BASE}/${a.id}/default`)} className="cursor-pointer underline underline-offset-4">
                    {m['account.address.makeDefault']}
                  </button>
                )}
                <button
                  type="button"
                  onClick={() => {
                    if (confirm(m['account.address.deleteConfirm'])) void act(`${BASE}/${a.id}/delete`, m['account.address.deleted']);
                  }}
                  className="cursor-pointer text-danger underline underline-offset-4"
                >
                  {m['account.address.delete']}
                </button>
              </div>
            </li>
          ),
        )}
      </ul>
      {editing === 'new' ? (
        <AddressForm m={m} onSaved={saved} onCancel={() => setEditing(null)} />
      ) : (
        <button type="button" onClick={() => setEditing('new')} className="btn-outline">
          + {m['account.address.add']}
        </button>
      )}
    </div>
  );
}
