// Starts the built server once for all integration tests, on a fresh PGlite database or, when
// DATABASE_URL is set, on a fresh database of that PostgreSQL server.
import type { TestProject } from 'vitest/node';
import { makeCatalogFixture, type CatalogFixture } from '../support/factories.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    databaseKind: 'pglite' | 'postgres';
    databaseUrl: string;
    dataDir: string;
    /** The catalogue the tests wrote themselves (tests/support/factories.ts). */
    catalog: CatalogFixture;
  }
}

let server: TestServer | undefined;

export async function setup(project: TestProject): Promise<void> {
  const started = await startTestServer({ label: 'it', prepare: (database) => makeCatalogFixture(database.db) });
  server = started;
  // Through JSON: what crosses to the test workers must be plain data.
  project.provide('catalog', JSON.parse(JSON.stringify(started.prepared)) as CatalogFixture);
  project.provide('baseUrl', server.baseUrl);
  project.provide('databaseKind', server.database.databaseUrl ? 'postgres' : 'pglite');
  project.provide('databaseUrl', server.database.databaseUrl ?? '');
  project.provide('dataDir', server.database.dataDir);
}

export async function teardown(): Promise<void> {
  await server?.stop();
}
