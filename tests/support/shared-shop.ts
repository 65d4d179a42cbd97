// The shop the integration tests share: global-setup.ts starts one per worker (INTEGRATION_WORKERS), each
// on its own database, so two files run at once without meeting in each other's data or rate limits. A
// worker's files use its own, found by the worker's number.
import { inject } from 'vitest';
import type { CatalogFixture } from './factories.ts';

/** Test files at once (vitest.config.ts `maxWorkers`), and so shops started by the global setup. */
export const INTEGRATION_WORKERS = 2;

export interface SharedShop {
  baseUrl: string;
  databaseKind: 'pglite' | 'postgres';
  databaseUrl: string;
  dataDir: string;
  /** The catalogue the tests wrote themselves (tests/support/factories.ts). */
  catalog: CatalogFixture;
}

/** This worker's shop. */
export function shared(): SharedShop {
  const shops = inject('shops');
  const worker = Number(process.env['VITEST_POOL_ID'] ?? '1');
  return shops[(worker - 1) % shops.length] as SharedShop;
}
