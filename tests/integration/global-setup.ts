// Starts the built server for the integration tests, one per worker (tests/support/shared-shop.ts), each on
// a fresh PGlite database or, when DATABASE_URL is set, on a fresh database of that PostgreSQL server.
import type { TestProject } from 'vitest/node';
import { makeCatalogFixture, type CatalogFixture } from '../support/factories.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { INTEGRATION_WORKERS, type SharedShop } from '../support/shared-shop.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    shops: SharedShop[];
  }
}

let servers: TestServer[] = [];

export async function setup(project: TestProject): Promise<void> {
  const started = await Promise.all(
    Array.from({ length: INTEGRATION_WORKERS }, (_, i) =>
      startTestServer({
        label: `it${i + 1}`,
        wholeRun: true,
        // Loopback is the shops' proxy: each test file names its own visitor (tests/support/api.ts).
        env: { TRUST_PROXY: '127.0.0.1,::1' },
        prepare: (database) => makeCatalogFixture(database.db),
      }),
    ),
  );
  servers = started;
  // Through JSON: what crosses to the test workers must be plain data.
  project.provide(
    'shops',
    started.map((server) => ({
      baseUrl: server.baseUrl,
      databaseKind: server.database.databaseUrl ? 'postgres' : 'pglite',
      databaseUrl: server.database.databaseUrl ?? '',
      dataDir: server.database.dataDir,
      catalog: JSON.parse(JSON.stringify(server.prepared)) as CatalogFixture,
    })),
  );
}

export async function teardown(): Promise<void> {
  await Promise.all(servers.map((server) => server.stop()));
}
