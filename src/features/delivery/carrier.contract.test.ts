// The carrier contract (issue 55, docs/delivery.md "Adding a carrier"): every carrier the shop names has
// an adapter in the registry, and no module outside a carrier's own adapter and client names it — a branch
// on a carrier's name elsewhere is what the contract exists to prevent.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { allCarriers, carrierOf } from './carriers.server.ts';
import { CARRIER_IDS } from './delivery.ts';

const SRC = join(import.meta.dirname, '..', '..');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.(ts|tsx|astro|mjs)$/.test(name) && !/\.test\.ts$/.test(name) ? [path] : [];
  });
}

/** Where a carrier's name may be written as a value: its own modules, the list of ids, and its own inbound route. */
const OWN = (id: string) => [
  `features/delivery/${id}.server.ts`,
  `features/delivery/${id}.carrier.server.ts`,
  // The list of ids stands with what an order keeps of its carrier (docs/decisions/027).
  'features/orders/orders.carrier.ts',
  `pages/api/v1/ecommerce-core/delivery/${id}/webhook.ts`,
];

describe('the carrier contract', () => {
  it('gives every carrier id one adapter, in the registry', () => {
    expect(allCarriers().map((c) => c.id)).toEqual([...CARRIER_IDS]);
    for (const id of CARRIER_IDS) expect(carrierOf(id).id).toBe(id);
  });

  it('names a carrier only in its own adapter and client', () => {
    const found: string[] = [];
    for (const file of sources(SRC)) {
      const path = relative(SRC, file).replaceAll('\\', '/');
      const text = readFileSync(file, 'utf8');
      for (const id of CARRIER_IDS) {
        if (OWN(id).includes(path)) continue;
        // A quoted name is a value the code compares or passes; a message key (`delivery.carrier.cdek`) is not.
        const quoted = new RegExp(`['"\`]${id}['"\`]`);
        if (quoted.test(text)) found.push(`${path}: '${id}'`);
      }
    }
    expect(found).toEqual([]);
  });
});
