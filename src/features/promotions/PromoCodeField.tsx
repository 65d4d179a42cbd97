// The promo code field (issue 56), the cart's and the checkout's: one island part, the summary's answer under it.
import type { PromoAnswer } from './promotions.ts';

/**
 * The promo code field of the cart and the checkout (issue 56): typed, applied with the button or Enter,
 * and the server's answer under it — applied, or why not, in the shopper's language. Not part of the order
 * form: a code is sent with the order only once the summary applied it.
 */
export function PromoCodeField({
  m,
  text,
  onText,
  answer,
  onApply,
  onRemove,
}: {
  m: Record<string, string>;
  text: string;
  onText: (value: string) => void;
  answer: PromoAnswer;
  onApply: () => void;
  onRemove: () => void;
}) {
  return (
    <div className="border-b border-line pb-4">
      <label htmlFor="promo-code" className="mb-1.5 block text-xs font-600 uppercase tracking-wider text-ink-soft">
        {m['promo.field']}
      </label>
      <div className="flex gap-2">
        <input
          id="promo-code"
          className="h-11 min-w-0 flex-1 border border-line bg-paper px-3 text-sm uppercase outline-none focus:border-ink"
          value={text}
          maxLength={40}
          autoComplete="off"
          aria-describedby={answer ? 'promo-code-answer' : undefined}
          aria-invalid={answer ? !answer.applied : undefined}
          onChange={(event) => onText(event.target.value)}
          onKeyDown={(event) => {
            if (event.key !== 'Enter') return;
            event.preventDefault();
            if (text.trim()) onApply();
          }}
        />
        <button type="button" className="btn-outline h-11 px-4 disabled:opacity-60" disabled={!text.trim()} onClick={onApply}>
          {m['promo.apply']}
        </button>
      </div>
      {answer && (
        <p id="promo-code-answer" role="status" className={`mt-2 text-sm ${answer.applied ? 'text-accent' : 'text-danger'}`}>
          {answer.applied ? m['promo.applied'] : answer.reason}{' '}
          <button type="button" className="underline" onClick={onRemove}>
            {m['promo.remove']}
          </button>
        </p>
      )}
    </div>
  );
}
