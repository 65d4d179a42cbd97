import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { parseEnv, parseKey32 } from './env.ts';
import { isSealed, openTotpSecret, sealedKeyId, sealTotpSecret, totpKey, TotpKeyError } from './totp-secrets.ts';

const SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
const keyA = totpKey('OPS_TOTP_KEY', randomBytes(32));
const keyB = totpKey('OPS_TOTP_KEY_PREVIOUS', randomBytes(32));

/** The sealed form with one base64url field replaced by a copy with one bit flipped. */
function flipped(sealed: string, field: number): string {
  const parts = sealed.split(':');
  const bytes = Buffer.from(parts[field] as string, 'base64url');
  bytes[0] = (bytes[0] as number) ^ 1;
  parts[field] = bytes.toString('base64url');
  return parts.join(':');
}

describe('TOTP secrets at rest (AES-256-GCM)', () => {
  it('seals a secret into v1:<key id>:<iv>:<tag>:<ciphertext> without the secret in it, and opens it again', () => {
    const sealed = sealTotpSecret(SECRET, keyA);
    expect(sealed).toMatch(/^v1:[\w-]{8}:[\w-]{16}:[\w-]{22}:[\w-]+$/);
    expect(sealed).not.toContain(SECRET);
    expect(isSealed(sealed)).toBe(true);
    expect(sealedKeyId(sealed)).toBe(keyA.id);
    expect(openTotpSecret(sealed, [keyA])).toBe(SECRET);
    // A new IV each time: the same secret never seals to the same text.
    expect(sealTotpSecret(SECRET, keyA)).not.toBe(sealed);
  });

  it('opens with whichever of the keys sealed it (rotation)', () => {
    expect(openTotpSecret(sealTotpSecret(SECRET, keyB), [keyA, keyB])).toBe(SECRET);
  });

  it('tells a wrong key by its id, before trying it', () => {
    const error = (() => {
      try {
        return openTotpSecret(sealTotpSecret(SECRET, keyB), [keyA]);
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(TotpKeyError);
    expect((error as Error).message).toMatch(/sealed with another key \(id [\w-]{8}\) than OPS_TOTP_KEY/);
    // The same key bytes under another name are the same key.
    expect(openTotpSecret(sealTotpSecret(SECRET, keyB), [totpKey('again', keyB.bytes)])).toBe(SECRET);
  });

  it.each([
    ['the IV', 2],
    ['the tag', 3],
    ['the ciphertext', 4],
  ])('refuses a secret whose %s was changed', (_, field) => {
    expect(() => openTotpSecret(flipped(sealTotpSecret(SECRET, keyA), field), [keyA])).toThrow(/does not open with OPS_TOTP_KEY: it was changed or damaged/);
  });

  it('refuses a header moved to another key id, a cut secret, and a malformed one', () => {
    const sealed = sealTotpSecret(SECRET, keyA);
    const [, , iv, tag, text] = sealed.split(':');
    // The header is authenticated: the same body under key B's id does not open with B (nor, of course, A).
    expect(() => openTotpSecret(['v1', keyB.id, iv, tag, text].join(':'), [keyA, totpKey('B', keyB.bytes)])).toThrow(TotpKeyError);
    expect(() => openTotpSecret(sealed.slice(0, -4), [keyA])).toThrow(TotpKeyError);
    expect(() => openTotpSecret('v1:abc', [keyA])).toThrow(/malformed/);
    expect(() => openTotpSecret(`${sealed}:more`, [keyA])).toThrow(/malformed/);
  });

  it('reads a secret still in the clear as it is (the next start seals it)', () => {
    expect(isSealed(SECRET)).toBe(false);
    expect(openTotpSecret(SECRET, [])).toBe(SECRET);
  });
});

describe('OPS_TOTP_KEY', () => {
  const bytes = randomBytes(32);
  it.each([
    ['hex', bytes.toString('hex')],
    ['HEX', bytes.toString('hex').toUpperCase()],
    ['base64', bytes.toString('base64')],
    ['base64url', bytes.toString('base64url')],
    ['base64 with a line break', `${bytes.toString('base64')}\n`],
  ])('reads 32 bytes as %s', (_, text) => {
    expect(parseKey32(text)).toEqual(bytes);
  });

  it.each([
    ['16 bytes', randomBytes(16).toString('base64')],
    ['48 bytes', randomBytes(48).toString('base64')],
    ['63 hex digits', bytes.toString('hex').slice(1)],
    ['a passphrase', 'correct horse battery staple, which is long'],
  ])('refuses %s, at start, naming the variable', (_, text) => {
    expect(parseKey32(text)).toBeUndefined();
    expect(() => parseEnv({ OPS_TOTP_KEY: text })).toThrow(/OPS_TOTP_KEY: must be 32 bytes/);
  });

  it('takes a previous key only beside a new one', () => {
    expect(() => parseEnv({ OPS_TOTP_KEY_PREVIOUS: bytes.toString('base64') })).toThrow(/OPS_TOTP_KEY_PREVIOUS: .*needs the new one in OPS_TOTP_KEY/);
    expect(parseEnv({ OPS_TOTP_KEY: randomBytes(32).toString('hex'), OPS_TOTP_KEY_PREVIOUS: bytes.toString('base64') }).OPS_TOTP_KEY_PREVIOUS).toBe(
      bytes.toString('base64'),
    );
  });
});
