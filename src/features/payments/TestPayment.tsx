// The test provider's payment form: a card (any of the listed test cards; the 3-D Secure one asks for a
// code next), SBP, or a refusal. The provider answers where to send the shopper back.
import { useState } from 'react';
import { FormError, FormField } from '~/components/ui/FormField.tsx';
import { api, ApiError } from '~/lib/api.client.ts';
import { fill } from '~/lib/i18n/fill.ts';
import type { TestCard } from './payments.ts';

interface Props {
  id: string;
  status: string;
  returnUrl: string;
  cards: TestCard[];
  code: string;
  m: Record<string, string>;
}

type Answer = { status: 'pending' | 'challenge' | 'succeeded' | 'canceled'; redirect: string };

/** '4242424242424242' → '4242 4242 4242 4242' as typed. */
function spaced(value: string): string {
  return value
    .replace(/\D/g, '')
    .slice(0, 19)
    .replace(/(\d{4})(?=\d)/g, '$1 ');
}

function expiry(value: string): string {
  const digits = value.replace(/\D/g, '').slice(0, 4);
  return digits.length > 2 ? `${digits.slice(0, 2)}/${digits.slice(2)}` : digits;
}

export default function TestPayment({ id, status, returnUrl, cards, code, m }: Props) {
  const [step, setStep] = useState(status === 'challenge' ? 'challenge' : status === 'pending' ? 'card' : 'done');
  const [tab, setTab] = useState<'card' | 'sbp' | 'sber_pay'>('card');
  const [number, setNumber] = useState('');
  const [exp, setExp] = useState('');
  const [cvc, setCvc] = useState('');
  const [otp, setOtp] = useState('');
  const [errors, setErrors] = useState<Record<string, string | undefined>>({});
  const [busy, setBusy] = useState(false);

  const send = async (body: Record<string, string>) => {
    setBusy(true);
    setErrors({});
    try {
      const answer = await api<Answer>(`/api/v1/ecommerce-core/payments/test/${id}`, { method: 'POST', body });
      if (answer.status === 'challenge') setStep('challenge');
      else location.assign(answer.redirect);
    } catch (error) {
      const failure = error instanceof ApiError ? error.failure : null;
      setErrors({
        card_number: failure?.errors['card_number']?.[0],
        expiry: failure?.errors['expiry']?.[0],
        cvc: failure?.errors['cvc']?.[0],
        form: failure && Object.keys(failure.errors).length > 0 ? undefined : error instanceof Error ? error.message : m['error.network'],
      });
    } finally {
      setBusy(false);
    }
  };

  if (step === 'done')
    return (
      <p className="text-sm">
        {m['testPay.settled']}{' '}
        <a href={returnUrl} className="font-600 underline underline-offset-4">
          {m['testPay.back']}
        </a>
      </p>
    );

  if (step === 'challenge')
    return (
      <form
        noValidate
        className="grid gap-4"
        onSubmit={(e) => {
          e.preventDefault();
          void send({ action: 'code', code: otp });
        }}
      >
        <p className="text-sm font-600">{m['testPay.challengeTitle']}</p>
        <FormField
          label={m['testPay.code'] ?? ''}
          inputMode="numeric"
          autoComplete="one-time-code"
          value={otp}
          onChange={(e) => setOtp(e.target.value.replace(/\D/g, '').slice(0, 6))}
          hint={fill(m['testPay.codeHint'] ?? '', { code })}
        />
        <FormError message={errors['form']} />
        <button type="submit" disabled={busy} className="btn-primary w-full disabled:opacity-60">
          {m['testPay.confirm']}
        </button>
      </form>
    );

  return (
    <div className="grid gap-5">
      <div className="grid grid-cols-3 border border-line text-sm" role="tablist">
        {(['card', 'sbp', 'sber_pay'] as const).map((name) => (
          <button
            key={name}
            type="button"
            role="tab"
            aria-selected={tab === name}
            onClick={() => setTab(name)}
            className={`cursor-pointer py-2 font-600 ${tab === name ? 'bg-ink text-white' : 'text-ink-soft'}`}
          >
            {m[`testPay.tab.${name}`]}
          </button>
        ))}
      </div>
      {tab === 'card' ? (
        <form
          noValidate
          className="grid gap-4"
          onSubmit={(e) => {
            e.preventDefault();
            void send({ action: 'card', card_number: number, expiry: exp, cvc });
          }}
        >
          <FormField
            label={m['testPay.number'] ?? ''}
            inputMode="numeric"
            autoComplete="cc-number"
            placeholder="0000 0000 0000 0000"
            value={number}
            onChange={(e) => setNumber(spaced(e.target.value))}
            error={errors['card_number']}
          />
          <div className="grid grid-cols-2 gap-4">
            <FormField
              label={m['testPay.expiry'] ?? ''}
              inputMode="numeric"
              autoComplete="cc-exp"
              placeholder="MM/YY"
              value={exp}
              onChange={(e) => setExp(expiry(e.target.value))}
              error={errors['expiry']}
            />
            <FormField
              label={m['testPay.cvc'] ?? ''}
              inputMode="numeric"
              autoComplete="cc-csc"
              type="password"
              maxLength={3}
              value={cvc}
              onChange={(e) => setCvc(e.target.value.replace(/\D/g, '').slice(0, 3))}
              error={errors['cvc']}
            />
          </div>
          <FormError message={errors['form']} />
          <button type="submit" disabled={busy} className="btn-primary w-full disabled:opacity-60">
            {m['testPay.pay']}
          </button>
          <details className="text-xs text-ink-soft">
            <summary className="cursor-pointer font-600">{m['testPay.cards']}</summary>
            <ul className="mt-2 grid gap-1">
              {cards.map((card) => (
                <li key={card.number}>
                  <button
                    type="button"
                    className="cursor-pointer font-mono underline underline-offset-2"
                    onClick={() => {
                      setNumber(spaced(card.number));
                      setExp('12/34');
                      setCvc('123');
                    }}
                  >
                    {spaced(card.number)}
                  </button>{' '}
                  — {m[`testPay.outcome.${card.outcome}`]} ({m[`testPay.scheme.${card.scheme}`]})
                </li>
              ))}
            </ul>
          </details>
        </form>
      ) : tab === 'sbp' ? (
        <div className="grid gap-4 text-sm">
          <p>{m['testPay.sbpText']}</p>
          <button type="button" disabled={busy} onClick={() => void send({ action: 'sbp' })} className="btn-primary w-full disabled:opacity-60">
            {m['testPay.sbpPay']}
          </button>
        </div>
      ) : (
        <div className="grid gap-4 text-sm">
          <p>{m['testPay.sberPayText']}</p>
          <button type="button" disabled={busy} onClick={() => void send({ action: 'sber_pay' })} className="btn-primary w-full disabled:opacity-60">
            {m['testPay.sberPayPay']}
          </button>
          <div className="flex flex-wrap gap-3">
            <button type="button" disabled={busy} onClick={() => void send({ action: 'sber_pay_decline' })} className="btn-outline disabled:opacity-60">
              {m['testPay.sberPayDecline']}
            </button>
            <button type="button" disabled={busy} onClick={() => void send({ action: 'expire' })} className="btn-outline disabled:opacity-60">
              {m['testPay.sberPayExpire']}
            </button>
          </div>
        </div>
      )}
      <button
        type="button"
        disabled={busy}
        onClick={() => void send({ action: 'decline' })}
        className="cursor-pointer text-sm text-ink-soft underline underline-offset-4 hover:text-danger"
      >
        {m['testPay.cancel']}
      </button>
    </div>
  );
}
