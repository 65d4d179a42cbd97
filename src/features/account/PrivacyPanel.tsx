// The profile page's personal data (152-ФЗ, issue 54): the marketing consent as a switch, the shop's data
// about the customer as a file (a plain link: it works before this island does), and the account deleted
// after the password is entered again — then the session ends here and in every tab, and the shopper lands
// on the home page.
import { useId, useState, type FormEvent } from 'react';
import { showToast } from '~/components/ui/toast.store.ts';
import { ApiError } from '~/lib/api.client.ts';
import { clearSession } from '~/features/auth/auth.store.ts';
import { deleteAccountCall, marketingCall } from './account.client.ts';

interface Props {
  m: Record<string, string>;
  marketing: boolean;
}

export default function PrivacyPanel({ m, marketing }: Props) {
  const [subscribed, setSubscribed] = useState(marketing);
  const [busy, setBusy] = useState(false);
  const [password, setPassword] = useState('');
  const [problem, setProblem] = useState('');
  const id = useId();

  const toggle = async (on: boolean) => {
    setSubscribed(on);
    try {
      const answer = await marketingCall(on);
      setSubscribed(answer.subscribed);
      showToast(m[answer.subscribed ? 'account.privacy.marketingOn' : 'account.privacy.marketingOff'] ?? '', 'success');
    } catch (error) {
      setSubscribed(!on);
      showToast(error instanceof ApiError ? error.message : (m['error.network'] ?? ''), 'error');
    }
  };

  const remove = async (event: FormEvent) => {
    event.preventDefault();
    if (!password) {
      setProblem(m['validation.required'] ?? '');
      return;
    }
    setBusy(true);
    setProblem('');
    try {
      await deleteAccountCall(password);
      clearSession();
      location.assign('/');
    } catch (error) {
      setBusy(false);
      if (error instanceof ApiError) setProblem(error.failure.errors['password']?.[0] ?? error.message);
      else setProblem(m['error.network'] ?? '');
    }
  };

  return (
    <section className="mt-10 grid gap-8 border-t border-line pt-6" aria-labelledby={`${id}-title`} data-testid="privacy-panel">
      <h2 id={`${id}-title`} className="font-display text-2xl font-500">
        {m['account.privacy.title']}
      </h2>
      <div>
        <label className="flex cursor-pointer items-start gap-3 text-sm">
          <input
            type="checkbox"
            checked={subscribed}
            onChange={(event) => void toggle(event.currentTarget.checked)}
            className="mt-0.5 h-4 w-4 accent-ink"
            data-testid="marketing-consent"
          />
          <span>
            {m['account.privacy.marketing']}
            <span className="mt-1 block text-xs text-ink-muted">{m['account.privacy.marketingHint']}</span>
          </span>
        </label>
      </div>
      <div>
        <h3 className="font-600">{m['account.privacy.exportTitle']}</h3>
        <p className="mt-1 text-sm text-ink-soft">{m['account.privacy.exportText']}</p>
        <a href="/dashboard/personal-data" download className="btn-outline mt-3 inline-flex" data-testid="personal-data-download">
          {m['account.privacy.export']}
        </a>
      </div>
      <form onSubmit={(event) => void remove(event)} noValidate className="grid gap-3" aria-labelledby={`${id}-delete`}>
        <h3 id={`${id}-delete`} className="font-600">
          {m['account.delete.title']}
        </h3>
        <p className="text-sm text-ink-soft">{m['account.delete.text']}</p>
        <label htmlFor={`${id}-password`} className="text-xs font-600 uppercase tracking-wider text-ink-soft">
          {m['account.delete.password']}
        </label>
        <input
          id={`${id}-password`}
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={(event) => setPassword(event.currentTarget.value)}
          maxLength={128}
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? `${id}-problem` : undefined}
          className="h-11 w-full max-w-sm border border-line bg-paper px-3 text-sm outline-none focus:border-ink"
        />
        {problem && (
          <p id={`${id}-problem`} role="alert" className="text-xs text-danger">
            {problem}
          </p>
        )}
        <button type="submit" disabled={busy} className="btn-outline w-fit border-danger text-danger disabled:opacity-60">
          {m['account.delete.action']}
        </button>
      </form>
    </section>
  );
}
