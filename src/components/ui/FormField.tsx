// A labelled input with its first error and a success style once validated (spec §5). Forms pass what
// react-hook-form registers; messages arrive already in the page's language.
import { useId, useState, type InputHTMLAttributes, type ReactNode, type Ref } from 'react';

export interface FormFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> {
  label: string;
  error?: string | undefined;
  /** Validated without an error: the success style (spec §5). */
  valid?: boolean | undefined;
  hint?: string | undefined;
  /** Show/hide labels for a password field. */
  reveal?: { show: string; hide: string } | undefined;
  children?: ReactNode;
  /** React 19 passes refs as props: react-hook-form's register() gives one. */
  ref?: Ref<HTMLInputElement>;
}

export function FormField({ label, error, valid, hint, reveal, type, children, ref, ...input }: FormFieldProps) {
  const id = useId();
  const [shown, setShown] = useState(false);
  const tone = error ? 'border-danger' : valid ? 'border-success' : 'border-line';
  const describedBy = [error ? `${id}-error` : '', hint ? `${id}-hint` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div>
      <label htmlFor={id} className="mb-1.5 block text-xs font-600 uppercase tracking-wider text-ink-soft">
        {label}
      </label>
      <div className="relative">
        <input
          id={id}
          ref={ref}
          type={reveal && shown ? 'text' : type}
          aria-invalid={Boolean(error)}
          aria-describedby={describedBy}
          className={`h-11 w-full border bg-paper px-3 text-sm outline-none focus:border-ink ${reveal ? 'pr-24' : ''} ${tone}`}
          {...input}
        />
        {reveal && (
          <button
            type="button"
            onClick={() => setShown((v) => !v)}
            aria-pressed={shown}
            className="absolute inset-y-0 right-0 cursor-pointer px-3 text-xs font-600 text-ink-soft hover:text-ink"
          >
            {shown ? reveal.hide : reveal.show}
          </button>
        )}
      </div>
      {hint && !error && (
        <p id={`${id}-hint`} className="mt-1 text-xs text-ink-muted">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} role="alert" className="mt-1 text-xs text-danger">
          {error}
        </p>
      )}
      {children}
    </div>
  );
}

/** A form's own message, not a field's (spec §8: the login's HTTP error in red under the form). */
export function FormError({ message }: { message: string | undefined }) {
  return message ? (
    <p role="alert" className="text-sm text-danger">
      {message}
    </p>
  ) : null;
}
