// Contact fields every form shares (spec §5): the phone mask +7 (###) ###-##-##, Russian mobiles, names
// of letters, and e-mail addresses in any script. No zod here, so small islands can use it; the schemas
// are in contact.schema.ts.
export const PHONE_PLACEHOLDER = '+7 (000) 000-00-00';
const PHONE_RE = /^\+7 \(\d{3}\) \d{3}-\d{2}-\d{2}$/;

/** Applies the mask +7 (###) ###-##-## to whatever was typed or pasted (spec §5). */
export function maskPhone(input: string): string {
  let digits = input.replace(/\D/g, '');
  if (digits.length > 10 && (digits.startsWith('7') || digits.startsWith('8'))) digits = digits.slice(1);
  else if (input.trim().startsWith('+7') && digits.startsWith('7')) digits = digits.slice(1);
  digits = digits.slice(0, 10);
  if (digits.length === 0) return '';
  let out = `+7 (${digits.slice(0, 3)}`;
  if (digits.length >= 3) out += ')';
  if (digits.length > 3) out += ` ${digits.slice(3, 6)}`;
  if (digits.length > 6) out += `-${digits.slice(6, 8)}`;
  if (digits.length > 8) out += `-${digits.slice(8, 10)}`;
  return out;
}

export function isCompletePhone(value: string): boolean {
  return PHONE_RE.test(value);
}

/**
 * A Russian mobile number in the mask's form, or null: ten national digits starting with 9, written
 * with +7, 7 or 8 in front or without; another country code, too few or too many digits are refused.
 */
export function russianMobile(typed: string): string | null {
  const digits = typed.replace(/\D/g, '');
  const trimmed = typed.trim();
  let national: string;
  if (trimmed.startsWith('+')) {
    if (!digits.startsWith('7') || digits.length !== 11) return null;
    national = digits.slice(1);
  } else if (digits.length === 11 && (digits.startsWith('7') || digits.startsWith('8'))) national = digits.slice(1);
  else if (digits.length === 10) national = digits;
  else return null;
  return national.startsWith('9') ? maskPhone(national) : null;
}

/** Letters in any script; marks, digits, emoji and punctuation are not letters. */
export function letterCount(text: string): number {
  return text.match(/\p{L}/gu)?.length ?? 0;
}

/** Something@domain.tld, in any script (the server checks the rest with zod's unicode e-mail pattern). */
export const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/u;
