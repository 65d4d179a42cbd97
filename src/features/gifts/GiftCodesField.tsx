// The checkout's gift certificate field (issue 56): codes added one by one, each with the summary's answer —
// what this order takes from it and what stays on it, or why not — and a way to take it off again.
import { useState } from 'react';
import { fill } from '~/lib/i18n/fill.ts';
import { formatPrice } from '~/lib/format.ts';
import { GIFT_CODES_MAX, normalizeGiftCode } from './gifts.ts';

export interface GiftCodeAnswer {
  code: string;
  applied: number;
  left: number;
  reason: string | null;
}

export function GiftCodesField({
  m,
  answers,
  onAdd,
  onRemove,
}: {
  m: Record<string, string>;
  answers: readonly GiftCodeAnswer[];
  onAdd: (code: string) => void;
  onRemove: (code: string) => void;
}) {
  const [text, setText] = useState('');
  const add = () => {
    const code = text.trim();
    if (!code) return;
    onAdd(code);
    setText('');
  };
  return (
    <div className="border-b border-line pb-4" data-testid="gift-codes">
      <label htmlFor="gift-code" className="mb-1.5 block text-xs font-600 uppercase tracking-wider text-ink-soft">
        {m['gift.field']}
      </label>
      {answers.length < GIFT_CODES_MAX && (
        <div className="flex gap-2">
          <input
            id="gift-code"
            className="h-11 min-w-0 flex-1 border border-line bg-paper px-3 text-sm uppercase outline-none focus:border-ink"
            value={text}
            maxLength={40}
            autoComplete="off"
            placeholder="XXXX-XXXX-XXXX-XXXX"
            onChange={(event) => setText(event.target.value)}
            onKeyDown={(event) => {
              if (event.key !== 'Enter') return;
              event.preventDefault();
              add();
            }}
          />
          <button type="button" className="btn-outline h-11 px-4 disabled:opacity-60" disabled={!text.trim()} onClick={add}>
            {m['gift.apply']}
          </button>
        </div>
      )}
      {answers.length > 0 && (
        <ul className="mt-2 grid gap-1 text-sm" role="status">
          {answers.map((a) => (
            <li key={a.code} className={a.reason ? 'text-danger' : 'text-accent'} data-testid="gift-code-answer">
              <span className="font-600">{a.code}</span>:{' '}
              {a.reason ?? fill(m['gift.applied'] ?? '', { amount: formatPrice(a.applied), left: formatPrice(a.left) })}{' '}
              <button type="button" className="underline" onClick={() => onRemove(normalizeGiftCode(a.code))}>
                {m['gift.remove']}
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
