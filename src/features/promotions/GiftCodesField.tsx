// The checkout's gift certificate field (issue 56): codes added one by one, each with the summary's answer —
// what this order takes from it and what stays on it, or why not — and a way to take it off again.
import { useState } from 'react';
import { CodeEntry } from '~/components/ui/CodeEntry.tsx';
import { fill } from '~/lib/i18n/fill.ts';
import { formatPrice } from '~/lib/format.ts';
import { GIFT_CODES_MAX, normalizeGiftCode } from './promotions.gifts.ts';

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
      {answers.length >= GIFT_CODES_MAX && <p className="mb-1.5 text-xs font-600 uppercase tracking-wider text-ink-soft">{m['gift.field']}</p>}
      {answers.length < GIFT_CODES_MAX && (
        <CodeEntry
          id="gift-code"
          label={m['gift.field'] ?? ''}
          apply={m['gift.apply'] ?? ''}
          value={text}
          onChange={setText}
          onApply={add}
          placeholder="XXXX-XXXX-XXXX-XXXX"
          answerId={answers.length > 0 ? 'gift-code-answers' : undefined}
        />
      )}
      {answers.length > 0 && (
        <ul id="gift-code-answers" className="mt-2 grid gap-1 text-sm" role="status">
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
