// The forms' one way of validating (spec §5): a zod schema shared with the endpoint, checked on blur and
// on change, not on every keystroke; and what a FormField needs of one field.
import { zodResolver } from '@hookform/resolvers/zod';
import { get, useForm, type DefaultValues, type FieldValues, type Path, type UseFormReturn } from 'react-hook-form';
import type { z } from '../../lib/zod.ts';

export function useSchemaForm<I extends FieldValues, O extends FieldValues>(
  schema: z.ZodType<O, I>,
  defaultValues?: DefaultValues<I>,
): UseFormReturn<I, unknown, O> {
  return useForm<I, unknown, O>({
    resolver: zodResolver(schema),
    mode: 'onBlur',
    reValidateMode: 'onChange',
    ...(defaultValues ? { defaultValues } : {}),
  });
}

/** Schema messages are i18n keys: `shownIn(m)` turns them into the page's words (other text passes through). */
export function shownIn(m: Readonly<Record<string, string>>): (message: string | undefined) => string | undefined {
  return (message) => (message ? (m[message] ?? message) : undefined);
}

/**
 * A field's registration with its first error in the page's words (`shown` turns a schema's message key
 * into them) and whether it validated, for the success style.
 */
export function fieldProps<I extends FieldValues, O extends FieldValues>(
  form: Pick<UseFormReturn<I, unknown, O>, 'register' | 'formState'>,
  name: Path<I>,
  shown: (message: string | undefined) => string | undefined,
) {
  const error = (get(form.formState.errors, name) as { message?: string } | undefined)?.message;
  // The saved value in the server's HTML too (issue 54): register() fills an input only once the island
  // runs, so a reloaded profile showed empty fields for a second on a phone — as if the surname were gone.
  const saved: unknown = get(form.formState.defaultValues, name);
  return {
    ...form.register(name),
    ...(typeof saved === 'string' || typeof saved === 'number' ? { defaultValue: saved } : {}),
    error: shown(error),
    valid: Boolean(get(form.formState.touchedFields, name)) && !error,
  };
}
