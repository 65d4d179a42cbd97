// The footer's newsletter form (spec §2, §5): email required and valid. No zod here, so the footer
// island stays small; the endpoint's schema is in newsletter.schema.ts and a test keeps the two agreeing.

export const NEWSLETTER_TEXT = { required: 'Обязательное поле', invalid: 'Email не валиден' } as const;

/** The browser's check; the server applies newsletterSchema. */
export function validateEmail(value: string): string | null {
  const v = value.trim();
  if (!v) return NEWSLETTER_TEXT.required;
  if (v.length > 254 || !/^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/.test(v)) return NEWSLETTER_TEXT.invalid;
  return null;
}
