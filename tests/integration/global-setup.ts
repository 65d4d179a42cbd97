// Starts the built server once for all integration tests, on a fresh PGlite database or, when
// DATABASE_URL is set, on a fresh database of that PostgreSQL server.
import type { TestProject } from 'vitest/node';
import { startTestServer, type TestServer } from '../support/server.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    databaseKind: 'pglite' | 'postgres';
    databaseUrl: string;
    dataDir: string;
  }
}

let server: TestServer | undefined;

export async function setup(project: TestProject): Promise<void> {
  server = await startTestServer({ label: 'it' });
  project.provide('baseUrl', server.baseUrl);
  project.provide('databaseKind', server.database.databaseUrl ? 'postgres' : 'pglite');
  project.provide('databaseUrl', server.database.databaseUrl ?? '');
  project.provide('dataDir', server.database.dataDir);
}

export async function teardown(): Promise<void> {
  await server?.stop();
}
