// What the browser and the server share about payments: the test provider's cards (issue 9: a success
// card per scheme, a declined card and one that asks for a 3-D Secure code), and the card number checks.

export type CardScheme = 'mir' | 'visa' | 'mastercard';

export interface TestCard {
  number: string;
  scheme: CardScheme;
  outcome: 'success' | 'declined' | '3ds';
}

/** The test payment page lists these; any other number that passes the checks is declined, as a bank would. */
export const TEST_CARDS: readonly TestCard[] = [
  { number: '2200000000000004', scheme: 'mir', outcome: 'success' },
  { number: '4242424242424242', scheme: 'visa', outcome: 'success' },
  { number: '5555555555554444', scheme: 'mastercard', outcome: 'success' },
  { number: '4000000000000002', scheme: 'visa', outcome: 'declined' },
  { number: '4000000000003220', scheme: 'visa', outcome: '3ds' },
];

/** The code the test 3-D Secure step accepts; any other declines the payment. */
export const TEST_3DS_CODE = '123456';

/** Digits only: '4242 4242 4242 4242' → '4242424242424242'. */
export function cardDigits(value: string): string {
  return value.replace(/[\s-]/g, '');
}

/** The Luhn check every card number passes. */
export function luhnValid(digits: string): boolean {
  if (!/^\d{16,19}$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/** Mir 2200–2204, Visa 4, Mastercard 51–55 and 2221–2720: the schemes the shop accepts (spec §9). */
export function cardScheme(digits: string): CardScheme | null {
  const four = Number(digits.slice(0, 4));
  if (four >= 2200 && four <= 2204) return 'mir';
  if (digits.startsWith('4')) return 'visa';
  const two = Number(digits.slice(0, 2));
  if ((two >= 51 && two <= 55) || (four >= 2221 && four <= 2720)) return 'mastercard';
  return null;
}

/** MM/YY not in the past (the card works through the last day of its month). */
export function expiryValid(value: string, now = new Date()): boolean {
  const match = /^(\d{2})\s*\/\s*(\d{2})$/.exec(value.trim());
  if (!match) return false;
  const month = Number(match[1]);
  const year = 2000 + Number(match[2]);
  if (month < 1 || month > 12) return false;
  return year > now.getFullYear() || (year === now.getFullYear() && month >= now.getMonth() + 1);
}
