// Two secrets compared in constant time (tokens, signatures, hashes of them): how long the comparison
// takes says nothing of how much of a guess was right. Relative imports only: commands load this file
// with Node's type stripping.
import { timingSafeEqual } from 'node:crypto';

export function sameSecret(expected: string, given: string): boolean {
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}
