// The contact fields' schemas, shared by every form and endpoint that asks for them (spec §5). Messages
// are i18n keys, translated by whoever shows them.
import { z } from './zod.ts';
import { EMAIL_SHAPE, letterCount, russianMobile } from './contact.ts';

/** A required e-mail: trimmed, any script (тест@пример.рф), one message per address. */
export function emailField() {
  return (
    z
      .string()
      .trim()
      // The first check that fails ends the list.
      .min(1, { error: 'validation.required', abort: true })
      .max(254, { error: 'validation.email', abort: true })
      .regex(EMAIL_SHAPE, { error: 'validation.email', abort: true })
      .pipe(z.email({ pattern: z.regexes.unicodeEmail, error: 'validation.email' }))
  );
}

/** A required Russian mobile, stored as the mask writes it; never cut to fit the mask. */
export function mobilePhoneField() {
  return z
    .string()
    .trim()
    .min(1, 'validation.required')
    .max(40, 'validation.phone')
    .transform((typed, ctx) => {
      const phone = russianMobile(typed);
      // Too few digits is an unfinished number; enough digits of another kind is not a Russian mobile.
      if (phone === null) ctx.addIssue({ code: 'custom', message: typed.replace(/\D/g, '').length < 10 ? 'validation.phone' : 'validation.mobilePhone' });
      return phone ?? typed;
    });
}

/** A person's name: at least two letters (emoji, digits and combining marks are not letters). */
export function personNameField() {
  return z
    .string()
    .trim()
    .min(1, 'validation.required')
    .max(100, 'validation.tooLong')
    .refine((name) => letterCount(name) >= 2, 'validation.nameMin');
}

/** A line of free text (a street, a comment): trimmed, at most `max` characters; `required` refuses it empty. */
export function textLine(max: number, required = false) {
  const line = z.string().trim().max(max, 'validation.tooLong');
  return required ? line.min(1, 'validation.required') : line;
}

/** A Russian postcode: six digits, or nothing. */
export function postcodeField() {
  return z
    .string()
    .trim()
    .regex(/^(\d{6})?$/, 'validation.postcode')
    .default('');
}
