import { describe, expect, it } from 'vitest';
import { loginSchema, registerSchema, resetSchema } from './auth.schema.ts';
import { displayName, parseStoredSession, sessionFromAnswer, toUser, type AuthAnswer, type StoredSession } from './auth.ts';
import { safeTarget } from './AuthRedirect.tsx';
import { hashPassword, isBreachedPassword, breachedPasswordCount, normalizeEmail, tokenHash, verifyPassword } from './auth.server.ts';

const answer: AuthAnswer = {
  access_token: 'tok-1',
  expires_in: 60,
  user: { id: 7, email: 'a@b.ru', phone: '+7 (999) 123-45-67', name: 'Анна', surname: '', patronymic: '' },
  dashboard_content: { balance_amount: 150_00, bonus_amount: 300_00, bonus_available_until: '2026-12-31T00:00:00.000Z' },
};

describe('the stored session (spec §3)', () => {
  it('is made from a login answer, amounts as sent', () => {
    expect(sessionFromAnswer(answer, null)).toEqual({
      accessToken: 'tok-1',
      user: answer.user,
      dashboard: { balanceAmount: 15000, bonusAmount: 30000, bonusAvailableUntil: '2026-12-31T00:00:00.000Z' },
    });
  });

  it('keeps the old token when a refresh answers without one (spec §7)', () => {
    const previous = sessionFromAnswer(answer, null)!;
    expect(sessionFromAnswer({ ...answer, access_token: '' }, previous)?.accessToken).toBe('tok-1');
    expect(sessionFromAnswer({ ...answer, access_token: '' }, null)).toBeNull();
  });

  it('reads back what was stored, and treats anything damaged as logged out', () => {
    const stored: StoredSession = sessionFromAnswer(answer, null)!;
    expect(parseStoredSession(JSON.stringify(stored))).toEqual(stored);
    for (const raw of [null, '', '{', 'null', '{"accessToken":""}', JSON.stringify({ ...stored, user: { email: 'x' } })])
      expect(parseStoredSession(raw)).toBeNull();
    // Missing text fields default to '' (spec §3).
    expect(toUser({ id: 1, email: 'x@y.ru' })).toEqual({ id: 1, email: 'x@y.ru', phone: '', name: '', surname: '', patronymic: '' });
  });

  it('greets by name and surname, else by e-mail', () => {
    expect(displayName({ name: 'Анна', surname: 'Ким', email: 'a@b.ru' })).toBe('Анна Ким');
    expect(displayName({ name: '', surname: '', email: 'a@b.ru' })).toBe('a@b.ru');
  });
});

describe('the forms’ schemas (spec §5)', () => {
  it('login needs both fields and says nothing else', () => {
    const result = loginSchema.safeParse({ email: '', password: '' });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['email', 'validation.required'],
      ['password', 'validation.required'],
    ]);
    expect(loginSchema.safeParse({ email: 'not-even-an-address', password: 'x' }).success).toBe(true);
  });

  it('registration: a valid e-mail, a Russian mobile, 8 to 128 characters, one message per field', () => {
    const issues = (body: unknown) => registerSchema.safeParse(body).error?.issues.map((i) => [i.path.join('.'), i.message]) ?? [];
    expect(issues({ email: 'тест@пример.рф', phone: '89991234567', password: '12345678' })).toEqual([]);
    expect(issues({ email: 'a@b', phone: '+7 (999) 123', password: '' })).toEqual([
      ['email', 'validation.email'],
      ['phone', 'validation.phone'],
      ['password', 'validation.required'],
    ]);
    expect(issues({ email: 'a@b.ru', phone: '+79991234567', password: 'x'.repeat(129) })).toEqual([['password', 'validation.passwordMax']]);
    // A bad referral code is dropped, never an error the visitor cannot fix.
    expect(registerSchema.parse({ email: 'a@b.ru', phone: '+79991234567', password: '12345678', ref: '<script>' }).ref).toBeUndefined();
  });

  it('reset: the passwords must match', () => {
    const result = resetSchema.safeParse({ token: 't', password: 'длинный пароль', password_confirmation: 'другой пароль' });
    expect(result.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([['password_confirmation', 'validation.passwordsMatch']]);
  });
});

describe('passwords and tokens on the server', () => {
  it('hashes with argon2id at the ASVS floors, salted, and verifies only the same password', async () => {
    const hash = await hashPassword('correct horse battery');
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/);
    expect(await hashPassword('correct horse battery')).not.toBe(hash);
    expect(await verifyPassword('correct horse battery', hash)).toBe(true);
    expect(await verifyPassword('correct horse batterY', hash)).toBe(false);
    expect(await verifyPassword('anything', 'not a hash')).toBe(false);
  });

  it('knows at least the 10,000 most common breached passwords long enough to be chosen, without case', () => {
    expect(breachedPasswordCount()).toBeGreaterThan(10_000);
    for (const p of ['password', '12345678', 'qwertyuiop', 'Iloveyou1', 'PASSWORD1']) expect(isBreachedPassword(p), p).toBe(true);
    expect(isBreachedPassword('тихий вечер у реки')).toBe(false);
  });

  it('compares e-mails in one form, Cyrillic included', () => {
    expect(normalizeEmail('  Тест@Пример.РФ ')).toBe('тест@пример.рф');
    expect(tokenHash('abc')).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('/auth-redirect follows only paths of this shop', () => {
  it.each([
    ['/dashboard/orders', '/dashboard/orders'],
    ['//evil.example/x', null],
    ['/\\evil.example', null],
    ['https://evil.example', null],
    [null, null],
  ])('%j → %j', (to, expected) => expect(safeTarget(to)).toBe(expected));
});
