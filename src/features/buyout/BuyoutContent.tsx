// The buyout modal's content (spec §1, §2, §5): the info screen, then the form. Loaded only when the
// modal opens, so the form library and the schema never weigh on the first page load.
import { useState } from 'react';
import { Controller } from 'react-hook-form';
import { FormField } from '~/components/ui/FormField.tsx';
import { fieldProps, shownIn, useSchemaForm } from '~/components/ui/schema-form.ts';
import { PhoneField } from '~/components/ui/PhoneField.tsx';
import { Select } from '~/components/ui/Select.tsx';
import { Tooltip } from '~/components/ui/Tooltip.tsx';
import { api, ApiError } from '~/lib/api.client.ts';
import { closeModal, openModal } from '~/features/frame/frame.store.ts';
import type { ModalMessages } from '~/features/frame/frame.ts';
import { fill } from '~/lib/i18n/index.ts';
import { AVERAGE_DELIVERY_DAYS } from '~/lib/shop.ts';
import { BUYOUT_DEFAULTS, buyoutSchema, MESSENGER_LABELS, MESSENGERS, type Messenger } from './buyout.ts';

function Info({ onNext, m }: { onNext: () => void; m: ModalMessages }) {
  const [more, setMore] = useState(false);
  const points = [m['buyout.point1'], m['buyout.point2'], m['buyout.point3'], fill(m['buyout.point4'], { days: AVERAGE_DELIVERY_DAYS })];
  return (
    <div>
      <ol className="space-y-3 text-sm">
        {points.map((p, i) => (
          <li key={p} className="flex gap-3">
            <span className="grid h-6 w-6 shrink-0 place-items-center rounded-full bg-paper-stone text-xs font-700">{i + 1}</span>
            <span className="text-ink-soft">{p}</span>
          </li>
        ))}
      </ol>
      <button
        type="button"
        aria-expanded={more}
        onClick={() => setMore((m) => !m)}
        className="mt-4 cursor-pointer text-sm font-600 underline underline-offset-4"
      >
        {m['buyout.more']}
      </button>
      {more && <p className="mt-3 text-sm text-ink-soft">{m['buyout.moreText']}</p>}
      <button type="button" onClick={onNext} className="btn-primary mt-6 w-full">
        {m['buyout.next']}
      </button>
    </div>
  );
}

const FIELD_NAMES = ['name', 'phone', 'messenger', 'description', 'product_url', 'agreementPersonal', 'agreementPromo'] as const;

function Form({ m }: { m: ModalMessages }) {
  const form = useSchemaForm(buyoutSchema, BUYOUT_DEFAULTS);
  const { register, handleSubmit, control, watch, setError } = form;
  const { errors, isSubmitting } = form.formState;
  const shown = shownIn(m);
  const [personal, promo] = watch(['agreementPersonal', 'agreementPromo']);
  const [agreeBefore, agreeAfter] = m['buyout.agreePersonal'].split('{link}');

  const submit = handleSubmit(async (values) => {
    try {
      await api('/api/v1/ecommerce-core/redemption-request/', { method: 'POST', body: values });
      closeModal();
      openModal('buyout-thanks');
    } catch (error) {
      // spec §8: no message; the server's field errors (data.data) go under the fields and the modal stays open.
      const map = error instanceof ApiError ? ((error.failure.data as { data?: Record<string, string[]> } | undefined)?.data ?? error.failure.errors) : {};
      let matched = false;
      for (const field of FIELD_NAMES) {
        const message = map[field]?.[0];
        if (message) {
          setError(field, { type: 'server', message });
          matched = true;
        }
      }
      if (!matched) setError('root', { type: 'server', message: error instanceof ApiError ? error.message : m['buyout.sendFailed'] });
    }
  });

  const input = 'h-11 w-full border bg-paper px-3 text-sm outline-none focus:border-ink';
  const error = (message?: string) =>
    message ? (
      <p role="alert" className="mt-1 text-xs text-danger">
        {shown(message)}
      </p>
    ) : null;

  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      <FormField label={`${m['buyout.name']} *`} autoComplete="name" {...fieldProps(form, 'name', shown)} />
      <PhoneField control={control} name="phone" label={`${m['buyout.phone']} *`} shown={shown} />
      <Controller
        control={control}
        name="messenger"
        render={({ field }) => (
          <Select<Messenger>
            label={m['buyout.messenger']}
            closeLabel={m['nav.close']}
            name={field.name}
            value={(field.value ?? 'telegram') as Messenger}
            options={MESSENGERS.map((m) => ({ value: m, label: MESSENGER_LABELS[m] }))}
            onChange={field.onChange}
          />
        )}
      />
      <div>
        <div className="mb-1.5 flex items-center gap-2">
          <label htmlFor="buyout-url" className="block text-xs font-600 uppercase tracking-wider text-ink-soft">
            {m['buyout.productUrl']} *
          </label>
          <Tooltip
            title={m['buyout.urlWhy']}
            closeLabel={m['nav.close']}
            trigger={
              <span aria-label={m['buyout.urlWhy']} className="grid h-5 w-5 place-items-center rounded-full border border-line text-[11px] text-ink-soft">
                ?
              </span>
            }
          >
            {m['buyout.urlWhyText']}
          </Tooltip>
        </div>
        <input id="buyout-url" type="url" inputMode="url" placeholder="https://" {...register('product_url')} className={`${input} border-line`} />
        {error(errors.product_url?.message)}
      </div>
      <div>
        <label htmlFor="buyout-description" className="mb-1.5 block text-xs font-600 uppercase tracking-wider text-ink-soft">
          {m['buyout.description']}
        </label>
        <textarea
          id="buyout-description"
          rows={3}
          {...register('description')}
          placeholder={m['buyout.descriptionPlaceholder']}
          className="w-full border border-line bg-paper px-3 py-2 text-sm outline-none focus:border-ink"
        />
        {error(errors.description?.message)}
      </div>
      <input type="text" tabIndex={-1} autoComplete="off" aria-hidden="true" {...register('website')} className="hidden" />
      <label className="flex items-start gap-3 text-xs text-ink-soft">
        <input type="checkbox" {...register('agreementPersonal')} className="mt-0.5 h-4 w-4 accent-[#1d1d1f]" />
        <span>
          {agreeBefore}
          <a href="/i/5/personal-data" target="_blank" className="underline">
            {m['buyout.agreePersonalLink']}
          </a>
          {agreeAfter}
        </span>
      </label>
      <label className="flex items-start gap-3 text-xs text-ink-soft">
        <input type="checkbox" {...register('agreementPromo')} className="mt-0.5 h-4 w-4 accent-[#1d1d1f]" />
        <span>{m['buyout.agreePromo']}</span>
      </label>
      {error(errors.agreementPersonal?.message ?? errors.agreementPromo?.message)}
      {error(errors.root?.message)}
      <button type="submit" disabled={!personal || !promo || isSubmitting} className="btn-primary w-full">
        {isSubmitting ? m['buyout.sending'] : m['buyout.send']}
      </button>
    </form>
  );
}

export default function BuyoutContent({ m }: { m: ModalMessages }) {
  const [step, setStep] = useState<'info' | 'form'>('info');
  return step === 'info' ? <Info onNext={() => setStep('form')} m={m} /> : <Form m={m} />;
}
