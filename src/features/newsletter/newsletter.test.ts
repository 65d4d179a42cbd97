import { expect, it } from 'vitest';
import { validateEmail } from './newsletter.ts';
import { newsletterSchema } from './newsletter.schema.ts';
import { translateMessage } from '~/lib/i18n/index.ts';

const shown = (message: string | null | undefined) => (message ? translateMessage('ru', message) : message);

it.each([
  ['', 'Обязательное поле'],
  ['   ', 'Обязательное поле'],
  ['anna', 'Email не валиден'],
  ['anna@', 'Email не валиден'],
  ['anna@shop', 'Email не валиден'],
  ['anna@shop.ru', null],
])('validateEmail(%j) → %j, as the server schema says', (email, message) => {
  expect(shown(validateEmail(email))).toBe(message);
  const server = newsletterSchema.safeParse({ email });
  expect(server.success).toBe(message === null);
  if (!server.success) expect(shown(server.error.issues[0]?.message)).toBe(message);
});

it.each(['тест@пример.рф', 'anna@пример.рф', 'user@xn--e1afmkfd.xn--p1ai'])('the server accepts the internationalised address %s', (email) => {
  expect(newsletterSchema.safeParse({ email }).success).toBe(true);
});
