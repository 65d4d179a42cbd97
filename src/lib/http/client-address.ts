// The visitor's address behind a proxy (docs/operations.md "nginx in front"). Behind nginx every
// connection comes from nginx; nginx names the visitor in X-Forwarded-For. That header is believed only
// on a connection from a proxy the shop was told about (TRUST_PROXY), and read from the right: the last
// address a trusted proxy did not add itself is the visitor's. A visitor who writes the header himself
// only adds entries to its left.
import { isIP } from 'node:net';

/** `::ffff:127.0.0.1` (an IPv4 connection to a dual-stack socket) is 127.0.0.1. */
export function plainAddress(address: string): string {
  return address.startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
}

export function clientAddress(socketAddress: string | undefined, forwardedFor: string | string[] | undefined, trusted: readonly string[]): string | undefined {
  if (!socketAddress) return socketAddress;
  const peer = plainAddress(socketAddress);
  if (trusted.length === 0 || !trusted.includes(peer) || !forwardedFor) return peer;
  const hops = (Array.isArray(forwardedFor) ? forwardedFor.join(',') : forwardedFor).split(',').map((hop) => plainAddress(hop.trim()));
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = hops[i] ?? '';
    if (isIP(hop) === 0) return peer;
    if (!trusted.includes(hop)) return hop;
  }
  return peer;
}
