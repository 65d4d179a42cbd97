import { getDatabase } from '~/lib/db/index.ts';
import { ping, type Database } from '~/lib/db/client.ts';
import { migrationsApplied } from '~/lib/db/prepare.ts';
import { endpoint } from '~/lib/http/endpoint.ts';
import { fail, ok } from '~/lib/http/envelope.ts';
import { loggableError, logger } from '~/lib/log.ts';
import { phase } from '~/lib/runtime.ts';
import { catalogueIndexState } from '~/features/catalog/read-model.server.ts';
import { z } from '~/lib/zod.ts';

// Once true, migrations stay applied: the question is asked until then, not on every probe.
let migrated = false;

export const GET = endpoint({
  summary: 'Readiness: the process serves, the database answers, migrations are applied and the catalogue index is built (503 while starting or stopping)',
  response: z.object({
    status: z.literal('ready'),
    database: z.enum(['pglite', 'postgres']),
    catalogue_version: z.number(),
    index_age_seconds: z.number(),
  }),
  async handler({ t }) {
    const notReady = (reason: string) =>
      fail(503, t('error.unavailable'), { errors: { ready: [reason] } }, { 'retry-after': '1', 'cache-control': 'no-store' });
    if (phase() !== 'ready') return notReady(phase());
    let database: Database;
    try {
      database = await getDatabase();
      await ping(database.db);
      migrated ||= await migrationsApplied(database);
      if (!migrated) return notReady('migrations pending');
    } catch (error) {
      logger.error({ err: loggableError(error) }, 'ready: database check failed');
      return notReady('database');
    }
    const index = catalogueIndexState();
    if (!index) return notReady('catalogue index not built');
    return ok(
      {
        status: 'ready',
        database: database.kind,
        catalogue_version: index.version,
        index_age_seconds: Math.round((Date.now() - index.builtAt) / 1000),
      },
      { headers: { 'cache-control': 'no-store' } },
    );
  },
});
