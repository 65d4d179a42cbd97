// Beyond the spec (docs/operations.md "Backups"): `npm run backup` asks the shop that owns the embedded
// database for a snapshot of it, written to a path on the shop's machine (the command's own staging
// folder), with the operator token. On PostgreSQL the command runs pg_dump itself and never calls this.
// The file goes only into the machine's temporary folder, where the command stages its backup: the
// operator token does not make the shop write into any folder it can reach.
import { tmpdir } from 'node:os';
import { isAbsolute, resolve, sep } from 'node:path';
import { getDatabase } from '~/lib/db/index.ts';
import { writeEmbeddedSnapshot } from '~/lib/backup.ts';
import { endpoint } from '~/lib/http/endpoint.ts';
import { ok } from '~/lib/http/envelope.ts';
import { forbidden, HttpError } from '~/lib/http/errors.ts';
import { isOperator } from '~/lib/operator-token.ts';
import { z } from '~/lib/zod.ts';

export const POST = endpoint({
  summary:
    'The operator has the running shop write a snapshot of its embedded database to a new file on its machine (403 without the operator token; 409 on PostgreSQL)',
  failures: [409],
  response: z.object({ bytes: z.number().int() }),
  body: z.object({
    path: z
      .string()
      .max(4096)
      .refine(
        (path) => isAbsolute(path) && path.endsWith('.tar.gz') && resolve(path).startsWith(resolve(tmpdir()) + sep),
        'an absolute path in the temporary folder, ending in .tar.gz',
      ),
  }),
  async handler({ request, body }) {
    if (!isOperator(request.headers.get('x-operator-token'))) throw forbidden();
    const database = await getDatabase();
    if (!database.snapshot) throw new HttpError(409, 'backup.refused');
    try {
      return ok({ bytes: await writeEmbeddedSnapshot(database, body.path) });
    } catch (error) {
      // The file exists already, or its folder does not: the caller chose the path.
      if (error instanceof Error && 'code' in error && (error.code === 'EEXIST' || error.code === 'ENOENT')) throw new HttpError(409, 'backup.refused');
      throw error;
    }
  },
});
