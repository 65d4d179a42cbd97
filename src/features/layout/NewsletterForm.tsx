// spec §2 footer newsletter: 'Подписка на рассылку', 'Ваш email', 'Подписаться', 'Без спама'. Beyond the
// spec the subscription is stored, then a modal confirms the address.
import { useState } from 'react';
import { Modal } from '~/components/ui/Modal.tsx';
import { showToast } from '~/components/ui/toast.store.ts';
import { api, ApiError } from '~/lib/api.client.ts';
import { fill } from '~/lib/i18n/index.ts';
import type { NewsletterMessages } from './layout.labels.types.ts';
import { frameProp } from './layout.labels.client.ts';
import { validateEmail } from '~/features/newsletter/newsletter.ts';

/** `messages` given on the server; in the browser from the language's frame labels (layout.labels.client.ts). */
export default function NewsletterForm({ messages }: { messages?: NewsletterMessages }) {
  const m = frameProp('NewsletterForm', 'messages', messages);
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [validated, setValidated] = useState(false);
  const [busy, setBusy] = useState(false);
  const [subscribed, setSubscribed] = useState<string | null>(null);
  // The address is shown in bold inside the sentence, wherever the language puts it.
  const [before, after] = fill(m['newsletter.doneText'], { email: '\u0000' }).split('\u0000');

  const check = (value: string) => {
    const key = validateEmail(value);
    const message = key && m[key];
    setError(message);
    setValidated(true);
    return key === null;
  };

  return (
    <>
      <form
        noValidate
        onSubmit={async (e) => {
          e.preventDefault();
          if (!check(email)) return;
          setBusy(true);
          try {
            const data = await api<{ email: string }>('/api/v1/ecommerce-core/newsletter/subscribe', { method: 'POST', body: { email: email.trim() } });
            setSubscribed(data.email);
            setEmail('');
            setValidated(false);
          } catch (err) {
            const fieldError = err instanceof ApiError ? err.failure.errors['email']?.[0] : undefined;
            // A problem with the address goes under the field; anything else (rate limit, network) is a toast.
            if (fieldError) setError(fieldError);
            else showToast(err instanceof ApiError && err.failure.status > 0 ? err.message : m['newsletter.failed'], 'error');
          } finally {
            setBusy(false);
          }
        }}
      >
        <h2 className="text-xs font-700 uppercase tracking-widest">{m['newsletter.title']}</h2>
        <div className="mt-4 flex">
          <label htmlFor="newsletter-email" className="sr-only">
            {m['newsletter.email']}
          </label>
          <input
            id="newsletter-email"
            type="email"
            autoComplete="email"
            placeholder={m['newsletter.email']}
            value={email}
            aria-invalid={Boolean(error)}
            aria-describedby="newsletter-hint"
            onChange={(e) => {
              setEmail(e.target.value);
              if (validated) check(e.target.value);
            }}
            onBlur={() => email && check(email)}
            className={`h-11 min-w-0 flex-1 border bg-paper px-3 text-sm outline-none focus:border-ink ${error ? 'border-danger' : validated ? 'border-success' : 'border-line'}`}
          />
          <button type="submit" disabled={busy} className="btn-primary h-11 shrink-0 px-4">
            {m['newsletter.submit']}
          </button>
        </div>
        {error && (
          <p role="alert" className="mt-1.5 text-xs text-danger">
            {error}
          </p>
        )}
        <p id="newsletter-hint" className="mt-2 text-xs text-ink-muted">
          {m['newsletter.hint']}
        </p>
      </form>
      <Modal open={subscribed !== null} onClose={() => setSubscribed(null)} title={m['newsletter.doneTitle']} closeLabel={m['nav.close']}>
        <p className="text-sm text-ink-soft">
          {before}
          <strong className="text-ink">{subscribed}</strong>
          {after}
        </p>
        <button type="button" onClick={() => setSubscribed(null)} className="btn-primary mt-6 w-full">
          {m['newsletter.ok']}
        </button>
      </Modal>
    </>
  );
}
