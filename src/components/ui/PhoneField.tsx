// A phone input with the mask +7 (###) ###-##-## applied as typed or pasted (spec §5), for any
// react-hook-form form: the login modal's registration, the profile, the address book.
import { Controller, type Control, type FieldPath, type FieldValues } from 'react-hook-form';
import { maskPhone, PHONE_PLACEHOLDER } from '~/lib/contact.ts';
import { FormField } from './FormField.tsx';

export function PhoneField<T extends FieldValues>({
  control,
  name,
  label,
  shown,
}: {
  control: Control<T>;
  name: FieldPath<T>;
  label: string;
  /** Turns a schema's message key into the page's words. */
  shown: (message: string | undefined) => string | undefined;
}) {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field, fieldState }) => (
        <FormField
          label={label}
          type="tel"
          autoComplete="tel"
          inputMode="tel"
          placeholder={PHONE_PLACEHOLDER}
          name={field.name}
          ref={field.ref}
          value={String(field.value ?? '')}
          onBlur={field.onBlur}
          onChange={(e) => field.onChange(maskPhone(e.target.value))}
          error={shown(fieldState.error?.message)}
          valid={fieldState.isTouched && !fieldState.error}
        />
      )}
    />
  );
}
