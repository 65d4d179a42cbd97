// Imports started in the managers' console (issue 24, admins): a file uploaded (YML, a .zip of one, or a
// CommerceML file) or an http(s) address, run in the background by the shop like a handed-over
// `npm run import`, with its progress, summary and report in the import history.
import { mkdirSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { z } from '~/lib/zod.ts';
import { env } from '~/lib/env.ts';
import { HttpError } from '~/lib/http/errors.ts';
import { FEED_UPLOAD_MAX_BYTES } from '~/lib/http/limits.ts';
import { audit, type Actor } from '~/features/ops/ops.audit.server.ts';
import { isCommerceMlFile } from './import.server.ts';
import { ImportBusy, runOptionsSchema, startImportRun, type ImportRunner } from './import.runs.server.ts';

const flag = z
  .literal('on')
  .optional()
  .transform((v) => v === 'on');

export const consoleImportSchema = z.object({
  url: z
    .string()
    .trim()
    .max(2000, 'validation.tooLong')
    .refine((text) => text === '' || /^https?:\/\/[^\s]+$/i.test(text), 'ops.imports.urlInvalid')
    .default(''),
  partial: flag,
  prices_stock: flag,
  dry_run: flag,
  skip_photos: flag,
});
export type ConsoleImport = z.infer<typeof consoleImportSchema>;

/** Starts the run; its id. `commerceMl` reads 1C's files (the exchange's reader, given by the page). */
export async function startConsoleImport(form: ConsoleImport, file: File | undefined, actor: Actor, commerceMl: ImportRunner): Promise<number> {
  const options = runOptionsSchema.parse({ partial: form.partial, prices_stock: form.prices_stock, dry_run: form.dry_run, skip_photos: form.skip_photos });
  let path: string;
  let input: string;
  let runner: ImportRunner | undefined;
  if (file && file.size > 0) {
    if (file.size > FEED_UPLOAD_MAX_BYTES) throw new HttpError(413, 'ops.imports.fileTooLarge');
    const dir = join(env().DATA_DIR, 'imports');
    mkdirSync(dir, { recursive: true });
    // The name as the admin's computer had it, made safe; the run keeps it to be recognised in the history.
    const name = file.name.replace(/[^\w.-]+/g, '_').slice(-80) || 'feed.xml';
    path = join(dir, `${new Date().toISOString().slice(0, 10)}-${randomBytes(4).toString('hex')}-${name}`);
    writeFileSync(path, new Uint8Array(await file.arrayBuffer()));
    input = `upload: ${name}`;
    if (isCommerceMlFile(path)) runner = commerceMl;
  } else if (form.url) {
    path = form.url;
    input = form.url;
  } else throw new HttpError(422, 'ops.imports.nothing');
  let id: number;
  try {
    id = await startImportRun(path, options, runner, input);
  } catch (error) {
    if (error instanceof ImportBusy) throw new HttpError(409, 'import.busy', undefined, undefined, { id: error.runId });
    throw error;
  }
  await audit(actor, 'import.start', 'import', String(id), null, { input, ...options });
  return id;
}
