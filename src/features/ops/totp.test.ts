import { describe, expect, it } from 'vitest';
import { base32Decode, base32Encode, hotp, otpauthUri, totpStep, verifyTotp } from './totp.server.ts';

// RFC 6238 Appendix B, SHA-1: the secret is the ASCII of "12345678901234567890".
const RFC_SECRET = Buffer.from('12345678901234567890');
const rfc: [number, string][] = [
  [59, '94287082'],
  [1111111109, '07081804'],
  [1111111111, '14050471'],
  [1234567890, '89005924'],
  [2000000000, '69279037'],
  [20000000000, '65353130'],
];

describe('TOTP (RFC 6238)', () => {
  it.each(rfc)('at %i s gives the RFC vector %s', (seconds, code) => {
    expect(hotp(RFC_SECRET, totpStep(seconds * 1000), 8)).toBe(code);
  });

  it('round-trips base32 (RFC 4648 vectors)', () => {
    expect(base32Encode(Buffer.from('foobar'))).toBe('MZXW6YTBOI');
    expect(base32Decode('MZXW6YTBOI').toString()).toBe('foobar');
    expect(base32Decode('mzxw 6ytb oi==').toString()).toBe('foobar');
  });

  it('accepts the current code and one step either side, once each; refuses others', () => {
    const secret = base32Encode(RFC_SECRET);
    const now = 1_111_111_111_000;
    const step = totpStep(now);
    const code = (s: number) => hotp(RFC_SECRET, s);
    expect(verifyTotp(secret, code(step), 0, now)).toBe(step);
    expect(verifyTotp(secret, code(step - 1), 0, now)).toBe(step - 1);
    expect(verifyTotp(secret, code(step + 1), 0, now)).toBe(step + 1);
    expect(verifyTotp(secret, code(step - 2), 0, now)).toBeNull();
    // Replayed: the step was used already.
    expect(verifyTotp(secret, code(step), step, now)).toBeNull();
    expect(verifyTotp(secret, '12345', 0, now)).toBeNull();
    expect(verifyTotp(secret, 'abcdef', 0, now)).toBeNull();
  });

  it('writes the Key URI Format authenticator apps scan', () => {
    expect(otpauthUri('Бренд Шоп', 'anna@shop.ru', 'JBSWY3DPEHPK3PXP')).toBe(
      'otpauth://totp/%D0%91%D1%80%D0%B5%D0%BD%D0%B4%20%D0%A8%D0%BE%D0%BF:anna%40shop.ru?secret=JBSWY3DPEHPK3PXP&issuer=%D0%91%D1%80%D0%B5%D0%BD%D0%B4+%D0%A8%D0%BE%D0%BF&algorithm=SHA1&digits=6&period=30',
    );
  });
});
