// The key the operator command (scripts/order.ts) shows the running shop: OPERATOR_TOKEN, or one made once
// and kept in DATA_DIR/operator-token (readable by its owner only) so the command on the same machine finds
// it. Several processes behind a balancer must share OPERATOR_TOKEN. Relative imports: the command loads
// this file with Node's type stripping.
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { env } from './env.ts';
import { sameSecret } from './same-secret.ts';

let cached: string | undefined;

/** Where the shop keeps the key it made. */
export const operatorTokenFile = () => join(resolve(env().DATA_DIR), 'operator-token');

/** The key as a command on this machine finds it, without making one: OPERATOR_TOKEN, or the shop's file. */
export function knownOperatorToken(): string | undefined {
  const configured = env().OPERATOR_TOKEN;
  if (configured) return configured;
  try {
    return readFileSync(operatorTokenFile(), 'utf8').trim();
  } catch {
    return undefined;
  }
}

export function operatorToken(): string {
  if (cached) return cached;
  cached = knownOperatorToken();
  if (cached) return cached;
  const file = operatorTokenFile();
  mkdirSync(resolve(env().DATA_DIR), { recursive: true });
  const made = randomBytes(32).toString('hex');
  try {
    // 'wx': a second process starting at the same moment keeps the first one's key.
    writeFileSync(file, `${made}\n`, { mode: 0o600, flag: 'wx' });
    cached = made;
  } catch {
    cached = readFileSync(file, 'utf8').trim();
  }
  return cached;
}

export function isOperator(given: string | null): boolean {
  return given ? sameSecret(operatorToken(), given) : false;
}
