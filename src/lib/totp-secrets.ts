// The console's TOTP secrets at rest (docs/decisions/022): sealed with AES-256-GCM under a key that is kept
// outside the database and outside `npm run backup`'s archive, so that a dump or a backup alone makes no
// operator's codes. The key is OPS_TOTP_KEY (32 bytes, base64 or hex); OPS_TOTP_KEY_PREVIOUS opens what an
// earlier key sealed while the key is rotated. Off production, without OPS_TOTP_KEY, the shop makes a key
// once in ./.ops-totp-key (the working folder, never DATA_DIR), as it makes the operator token.
// Relative imports only: scripts/start.mjs loads this file with Node's type stripping.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Database } from './db/client.ts';
import { env, parseKey32 } from './env.ts';

export interface TotpKey {
  /** Where the key came from, as a message names it: the variable, or the development file. */
  name: string;
  /** Stored beside each sealed secret, so that a wrong key is told from a damaged secret. */
  id: string;
  bytes: Buffer;
}

/** The shop cannot read or seal the secrets with the keys it was given: a start refuses with this message. */
export class TotpKeyError extends Error {
  override name = 'TotpKeyError';
}

const VERSION = 'v1';
const KEY_BYTES = 32;
const IV_BYTES = 12;
/** Where a development machine keeps the key it made (the working folder, beside .env). */
export const DEVELOPMENT_KEY_FILE = '.ops-totp-key';

/** A key's id: the start of its SHA-256 (says nothing usable of 256 random bits). */
const keyId = (bytes: Buffer) => createHash('sha256').update('brandshop ops totp key').update(bytes).digest('base64url').slice(0, 8);

export function totpKey(name: string, bytes: Buffer): TotpKey {
  return { name, id: keyId(bytes), bytes };
}

export const isSealed = (stored: string) => stored.startsWith(`${VERSION}:`);

/** `v1:<key id>:<iv>:<tag>:<ciphertext>`, base64url; the header is authenticated with the secret. */
export function sealTotpSecret(secret: string, key: TotpKey): string {
  const iv = randomBytes(IV_BYTES);
  const header = `${VERSION}:${key.id}`;
  const cipher = createCipheriv('aes-256-gcm', key.bytes, iv);
  cipher.setAAD(Buffer.from(header));
  const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return [header, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), sealed.toString('base64url')].join(':');
}

/** The key id a sealed secret names; undefined when it is not one. */
export function sealedKeyId(stored: string): string | undefined {
  return isSealed(stored) ? stored.split(':')[1] : undefined;
}

/**
 * The secret, opened with whichever of `keys` sealed it. A secret still in the clear (written before the
 * shop had a key; the next start seals it) is returned as it is. Throws TotpKeyError when no key given
 * sealed it, and when the secret was changed or cut (its tag does not match).
 */
export function openTotpSecret(stored: string, keys: readonly TotpKey[]): string {
  if (!isSealed(stored)) return stored;
  const [version, id, iv, tag, sealed, ...rest] = stored.split(':');
  if (!id || iv === undefined || tag === undefined || sealed === undefined || rest.length > 0) throw new TotpKeyError('a sealed TOTP secret is malformed');
  const key = keys.find((k) => k.id === id);
  if (!key) throw new TotpKeyError(`a TOTP secret is sealed with another key (id ${id}) than ${keys.map((k) => k.name).join(' or ') || 'none'}`);
  try {
    const decipher = createDecipheriv('aes-256-gcm', key.bytes, Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(`${version}:${id}`));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(sealed, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    throw new TotpKeyError(`a TOTP secret does not open with ${key.name}: it was changed or damaged`);
  }
}

export interface TotpKeys {
  /** Seals new secrets and opens its own; undefined in production without OPS_TOTP_KEY. */
  current: TotpKey | undefined;
  /** Opens what it sealed; the start seals those again with the current key. */
  previous: TotpKey | undefined;
}

let developmentKey: TotpKey | undefined;

/** The development key file's key; made when `create` says so and there is none. */
function developmentFileKey(create: boolean): TotpKey | undefined {
  if (developmentKey) return developmentKey;
  const file = resolve(DEVELOPMENT_KEY_FILE);
  const name = `the development key in ${file}`;
  const read = () => {
    const bytes = parseKey32(readFileSync(file, 'utf8'));
    if (!bytes) throw new TotpKeyError(`${file} does not hold a key of 32 bytes (base64 or hex): remove it, or set OPS_TOTP_KEY`);
    return totpKey(name, bytes);
  };
  try {
    developmentKey = read();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    if (!create) return undefined;
    try {
      // 'wx': a second process starting at the same moment keeps the first one's key.
      writeFileSync(file, `${randomBytes(KEY_BYTES).toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
    } catch (made) {
      if ((made as NodeJS.ErrnoException).code !== 'EEXIST') throw made;
    }
    developmentKey = read();
  }
  return developmentKey;
}

/**
 * The keys this process has: OPS_TOTP_KEY and OPS_TOTP_KEY_PREVIOUS, or off production the development
 * file's key (made when `create` says so: something is to be sealed).
 */
export function totpKeys(options: { create?: boolean } = {}): TotpKeys {
  const config = env();
  const configured = config.OPS_TOTP_KEY === undefined ? undefined : parseKey32(config.OPS_TOTP_KEY);
  const previous = config.OPS_TOTP_KEY_PREVIOUS === undefined ? undefined : parseKey32(config.OPS_TOTP_KEY_PREVIOUS);
  return {
    current: configured ? totpKey('OPS_TOTP_KEY', configured) : config.NODE_ENV === 'production' ? undefined : developmentFileKey(options.create ?? false),
    previous: previous ? totpKey('OPS_TOTP_KEY_PREVIOUS', previous) : undefined,
  };
}

/** The key new secrets are sealed with; TotpKeyError in production without OPS_TOTP_KEY. */
export function sealingKey(): TotpKey {
  const { current } = totpKeys({ create: true });
  if (!current) throw new TotpKeyError('OPS_TOTP_KEY is not set: the console cannot keep a TOTP secret without it');
  return current;
}

/** Opens a stored secret with this process's keys. */
export function openWithKnownKeys(stored: string): string {
  const { current, previous } = totpKeys();
  return openTotpSecret(
    stored,
    [current, previous].filter((k): k is TotpKey => k !== undefined),
  );
}

const HOW = 'docs/operations.md "The console\'s TOTP key"';

/**
 * Every start, before the shop serves: the secrets still in the clear are sealed, those sealed with
 * OPS_TOTP_KEY_PREVIOUS are sealed again with OPS_TOTP_KEY, and a key that opens none of the sealed ones —
 * or none at all where secrets are kept — stops the start with one line naming the variable. Each row is
 * changed only if it still holds what was read, so processes starting together do not undo each other.
 * A secret that was tampered with is left as it is (its operator's sign-in fails until reset-2fa).
 */
export async function secureTotpSecrets(database: Database, log: (line: string) => void, warn: (line: string) => void = log): Promise<void> {
  // Migrations not applied yet (AUTO_MIGRATE=false, a deploy that runs them apart): no operators, nothing to
  // seal — and no reason to refuse the database, which serves /api/health and answers /api/ready 'starting'.
  const table = (await database.query("SELECT to_regclass('operators') IS NOT NULL AS present")).rows[0] as { present: boolean } | undefined;
  if (!table?.present) return;
  const rows = (await database.query('SELECT id, totp_secret FROM operators ORDER BY id')).rows as { id: number; totp_secret: string }[];
  if (rows.length === 0) return;
  const clear = rows.filter((r) => !isSealed(r.totp_secret));
  const { current, previous } = totpKeys({ create: clear.length > 0 });
  const known = [current, previous].filter((k): k is TotpKey => k !== undefined);
  const strangers = rows.filter((r) => isSealed(r.totp_secret) && !known.some((k) => k.id === sealedKeyId(r.totp_secret)));
  if (strangers.length > 0)
    throw new TotpKeyError(
      current
        ? `${current.name} does not open the TOTP secrets of ${strangers.length} of ${rows.length} operators: they were sealed with another key; set OPS_TOTP_KEY to it, or give it as OPS_TOTP_KEY_PREVIOUS beside the new key while rotating (${HOW})`
        : `OPS_TOTP_KEY is not set, and the TOTP secrets of ${strangers.length} operators are sealed with a key: set OPS_TOTP_KEY to that key (${HOW})`,
    );
  if (!current) {
    if (clear.length > 0)
      throw new TotpKeyError(
        `OPS_TOTP_KEY is not set, and the TOTP secrets of ${clear.length} operators are stored in the clear: set it to 32 random bytes (openssl rand -base64 32) to seal them (${HOW})`,
      );
    return;
  }
  let sealed = 0;
  let resealed = 0;
  for (const row of rows) {
    const id = sealedKeyId(row.totp_secret);
    if (id === current.id) continue;
    let secret: string;
    try {
      secret = openTotpSecret(row.totp_secret, known);
    } catch (error) {
      warn(`operator ${row.id}: ${(error as Error).message}; npm run operator -- reset-2fa gives them a new one`);
      continue;
    }
    const changed = await database.query('UPDATE operators SET totp_secret = $1 WHERE id = $2 AND totp_secret = $3 RETURNING id', [
      sealTotpSecret(secret, current),
      row.id,
      row.totp_secret,
    ]);
    if (changed.rows.length === 0) continue;
    if (id === undefined) sealed++;
    else resealed++;
  }
  if (sealed > 0) log(`TOTP secrets: ${sealed} sealed with ${current.name}`);
  if (resealed > 0) log(`TOTP secrets: ${resealed} sealed again with ${current.name} (they were sealed with ${previous?.name ?? 'the previous key'})`);
}
