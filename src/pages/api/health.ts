import { getDatabase } from '~/lib/db/index.ts';
import { ping } from '~/lib/db/client.ts';
import { endpoint } from '~/lib/http/endpoint.ts';
import { fail, ok } from '~/lib/http/envelope.ts';
import { loggableError, logger } from '~/lib/log.ts';
import { z } from '~/lib/zod.ts';

export const GET = endpoint({
  summary: 'Liveness: the database answers',
  response: z.object({ status: z.literal('ok'), database: z.enum(['pglite', 'postgres']), latency_ms: z.number() }),
  async handler({ t }) {
    const started = performance.now();
    try {
      const database = await getDatabase();
      await ping(database.db);
      return ok({ status: 'ok', database: database.kind, latency_ms: Math.round((performance.now() - started) * 10) / 10 });
    } catch (error) {
      logger.error({ err: loggableError(error) }, 'health: database check failed');
      return fail(503, t('error.unavailable'));
    }
  },
});
