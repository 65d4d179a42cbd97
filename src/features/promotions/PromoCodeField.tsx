// The promo code field (issue 56), the cart's and the checkout's: one island part, the summary's answer under it.
import { CodeEntry } from '~/components/ui/CodeEntry.tsx';
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
    <div className="border-b border-line pb-4" data-testid="promo-code">
      <CodeEntry
        id="promo-code"
        label={m['promo.field'] ?? ''}
        apply={m['promo.apply'] ?? ''}
        value={text}
        onChange={onText}
        onApply={onApply}
        answerId={answer ? 'promo-code-answer' : undefined}
        invalid={answer ? !answer.applied : undefined}
      />
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
