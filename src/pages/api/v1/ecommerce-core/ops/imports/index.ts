// Beyond the spec (docs/import.md "A running shop"): `npm run import` hands its run to the shop that owns
// the embedded database, with the operator token (header x-operator-token). The feed is a path on the
// shop's machine (the command downloads or unpacks it first).
import { z } from '~/lib/zod.ts';
import { ImportBusy, importRun, runOptionsSchema, runSchema, startImportRun } from '~/features/import/import.runs.server.ts';
import { endpoint } from '~/lib/http/endpoint.ts';
import { ok } from '~/lib/http/envelope.ts';
import { forbidden, HttpError, notFound } from '~/lib/http/errors.ts';
import { isOperator } from '~/lib/operator-token.ts';

export const POST = endpoint({
  summary: 'The operator starts a catalogue import of a YML feed on the shop’s machine (403 without the operator token; 409 while another runs)',
  failures: [409],
  response: runSchema,
  body: z.object({ path: z.string().trim().min(1).max(4096), options: runOptionsSchema.default(runOptionsSchema.parse({})) }),
  async handler({ request, body }) {
    if (!isOperator(request.headers.get('x-operator-token'))) throw forbidden();
    let id: number;
    try {
      id = await startImportRun(body.path, body.options);
    } catch (error) {
      if (error instanceof ImportBusy) throw new HttpError(409, 'import.busy', undefined, undefined, { id: error.runId });
      throw error;
    }
    const run = await importRun(id);
    if (!run) throw notFound();
    return ok(run.view);
  },
});
