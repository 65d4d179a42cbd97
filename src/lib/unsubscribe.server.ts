// The link in every mail's footer that withdraws the address's marketing consent (152-ФЗ, issue 54): the
// address and a signature of it, so that nobody can unsubscribe another's address by guessing.
import { createHmac } from 'node:crypto';
import { env } from './env.ts';
import { sameSecret } from './same-secret.ts';
import { purposeKey } from './secrets.server.ts';

const normalised = (email: string) => email.trim().toLowerCase();

export async function unsubscribeSignature(email: string): Promise<string> {
  return createHmac('sha256', await purposeKey('unsubscribe'))
    .update(normalised(email))
    .digest('base64url')
    .slice(0, 32);
}

export async function verifyUnsubscribe(email: string, signature: string): Promise<boolean> {
  return sameSecret(await unsubscribeSignature(email), signature);
}

/** The page a mail's footer links to; it asks before it withdraws (no GET changes anything). */
export async function unsubscribeUrl(email: string): Promise<string> {
  const url = new URL('/unsubscribe', env().SITE_URL);
  url.searchParams.set('email', normalised(email));
  url.searchParams.set('s', await unsubscribeSignature(email));
  return url.href;
}
