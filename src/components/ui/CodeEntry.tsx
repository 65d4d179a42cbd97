// A code typed and applied with its button or Enter: the cart's and checkout's promo code and gift certificate
// fields (issue 56). The answer under it is the caller's.
export function CodeEntry({
  id,
  label,
  apply,
  value,
  onChange,
  onApply,
  placeholder,
  answerId,
  invalid,
}: {
  id: string;
  label: string;
  apply: string;
  value: string;
  onChange: (value: string) => void;
  onApply: () => void;
  placeholder?: string | undefined;
  /** The answer's element, once there is one. */
  answerId?: string | undefined;
  invalid?: boolean | undefined;
}) {
  return (
    <>
      <label htmlFor={id} className="mb-1.5 block text-xs font-600 uppercase tracking-wider text-ink-soft">
        {label}
      </label>
      <div className="flex gap-2">
        <input
          id={id}
          className="h-11 min-w-0 flex-1 border border-line bg-paper px-3 text-sm uppercase outline-none focus:border-ink"
          value={value}
          maxLength={40}
          autoComplete="off"
          placeholder={placeholder}
          aria-describedby={answerId}
          aria-invalid={invalid}
          onChange={(event) => onChange(event.target.value)}
          onKeyDown={(event) => {
            if (event.key !== 'Enter') return;
            event.preventDefault();
            if (value.trim()) onApply();
          }}
        />
        <button type="button" className="btn-outline h-11 px-4 disabled:opacity-60" disabled={!value.trim()} onClick={onApply}>
          {apply}
        </button>
      </div>
    </>
  );
}
