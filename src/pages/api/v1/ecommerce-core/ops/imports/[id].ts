// Beyond the spec (docs/import.md "A running shop"): an import run's progress, then its summary and, with
// ?report=1, its per-offer report as CSV text (operator token, header x-operator-token).
import { z } from '~/lib/zod.ts';
import { importRun, runSchema } from '~/features/import/import.runs.server.ts';
import { endpoint } from '~/lib/http/endpoint.ts';
import { ok } from '~/lib/http/envelope.ts';
import { forbidden, notFound } from '~/lib/http/errors.ts';
import { isOperator } from '~/lib/operator-token.ts';

export const GET = endpoint({
  summary: 'An import run: progress while it runs, then its summary and (with report=1) its report (403 without the operator token)',
  response: runSchema.extend({ report: z.string().nullable() }),
  params: z.object({
    id: z.coerce
      .number()
      .int()
      .min(1)
      .max(2 ** 31 - 1),
  }),
  query: z.object({ report: z.enum(['0', '1']).default('0') }),
  async handler({ request, params, query }) {
    if (!isOperator(request.headers.get('x-operator-token'))) throw forbidden();
    const run = await importRun(params.id);
    if (!run) throw notFound();
    return ok({ ...run.view, report: query.report === '1' ? run.report : null });
  },
});
