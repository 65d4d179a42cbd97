// Imports the running shop does itself: `npm run import` hands its run to the shop when the shop owns the
// embedded database (one owner at a time), and the managers' console will start them too. A run goes on in
// the background; its progress, summary and per-offer report are kept in import_runs, for whoever asks.
import { z } from '~/lib/zod.ts';
import { getDatabase } from '~/lib/db/index.ts';
import { env } from '~/lib/env.ts';
import { loggableError, logger } from '~/lib/log.ts';
import { metrics } from '~/lib/metrics.ts';
import { catalogueChanged } from '~/features/catalog/read-model.server.ts';
import { beforeExit, STOP_ORDER } from '~/lib/runtime.ts';
import { problemsCsv, type ImportSummary } from './import.ts';
import { ImportInputError, importOptions, importYml, type ImportFlags, type ImportResult } from './import.server.ts';

export const runOptionsSchema = z.object({
  dry_run: z.boolean().default(false),
  partial: z.boolean().default(false),
  prices_stock: z.boolean().default(false),
  default_stock: z.number().int().min(0).max(1_000_000).default(5),
  skip_photos: z.boolean().default(false),
  batch_size: z.number().int().min(1).max(10_000).default(500),
});
export type RunOptions = z.output<typeof runOptionsSchema> & ImportFlags;

export const runSchema = z.object({
  id: z.number().int(),
  status: z.enum(['running', 'done', 'failed']),
  done: z.number().int(),
  total: z.number().int(),
  summary: z.object({ new: z.number(), changed: z.number(), unchanged: z.number(), hidden: z.number(), images: z.number(), errors: z.number() }).nullable(),
  /** Problems the report lists (errors and warnings). */
  problems: z.number().int(),
  message: z.string(),
  offers: z.number().int(),
  seconds: z.number(),
});
export type RunView = z.output<typeof runSchema>;

/** A run already going in this process: imports are one at a time. */
let current: number | undefined;

export class ImportBusy extends Error {
  override name = 'ImportBusy';
  readonly runId: number;
  constructor(runId: number) {
    super(`import run ${runId} is still going`);
    this.runId = runId;
  }
}

/** What a run does: the YML import by default; the console gives the CommerceML reader for 1C's files. */
export type ImportRunner = (path: string, onProgress: (done: number, total: number) => void) => Promise<ImportResult>;

// A run the process stops under is ended in its row, not left "running" for ever; its batches are whole
// (one transaction each), and running the same file again finishes it.
beforeExit('import', STOP_ORDER.jobs, async () => {
  if (current === undefined) return;
  const database = await getDatabase();
  await database.query(`UPDATE import_runs SET status = 'failed', message = $2, finished_at = now() WHERE id = $1 AND status = 'running'`, [
    current,
    'the shop stopped during the run; run the same file again to finish it',
  ]);
});

/** Starts importing the feed at `path` (on the shop's machine) in the background; its id. */
export async function startImportRun(path: string, options: RunOptions, runner?: ImportRunner, input = path): Promise<number> {
  if (current !== undefined) throw new ImportBusy(current);
  const database = await getDatabase();
  const row = (await database.query('INSERT INTO import_runs (input, options) VALUES ($1, $2::jsonb) RETURNING id', [input, JSON.stringify(options)]))
    .rows[0] as { id: number };
  const id = row.id;
  current = id;
  const config = env();
  let last = 0;
  const progress = (done: number, total: number) => {
    if (performance.now() - last < 250 && done < total) return;
    last = performance.now();
    void database.query('UPDATE import_runs SET done = $2, total = $3 WHERE id = $1 AND status = $4', [id, done, total, 'running']).catch(() => undefined);
  };
  void (async () => {
    try {
      const result = runner
        ? await runner(path, progress)
        : await importYml(
            database,
            path,
            importOptions(options, { maxBytes: config.IMPORT_MAX_BYTES, dataDir: config.DATA_DIR, allowPrivate: config.IMPORT_ALLOW_PRIVATE }, progress),
          );
      // "Done" means searchable: the index holds what the run wrote before the run says so (an import's
      // rebuilds are spaced out while it writes, and the next poll could be seconds away).
      await catalogueChanged();
      await database.query(
        `UPDATE import_runs SET status = 'done', done = $2, total = $2, summary = $3::jsonb, report = $4, message = $5, finished_at = now() WHERE id = $1`,
        [id, result.offers, JSON.stringify(result.summary), problemsCsv(result.problems), ''],
      );
      logger.info({ run: id, ...result.summary }, 'import run done');
      metrics().importRuns.inc({ kind: runner ? 'commerceml' : 'yml', outcome: 'done' });
    } catch (error) {
      const known = error instanceof ImportInputError;
      if (!known) logger.error({ run: id, err: loggableError(error) }, 'import run failed');
      metrics().importRuns.inc({ kind: runner ? 'commerceml' : 'yml', outcome: 'failed' });
      // What a failed run wrote before it failed is the catalogue now too.
      await catalogueChanged();
      await database
        .query(`UPDATE import_runs SET status = 'failed', message = $2, finished_at = now() WHERE id = $1`, [
          id,
          known ? error.message : 'the import failed; see the shop log',
        ])
        .catch(() => undefined);
    } finally {
      current = undefined;
    }
  })();
  return id;
}

interface RunRow {
  id: number;
  status: RunView['status'];
  done: number;
  total: number;
  summary: ImportSummary | null;
  problems: number;
  message: string;
  input: string;
  created_at: string | Date;
  finished_at: string | Date | null;
}

/**
 * A run's columns but its report, with the report's lines counted where it is (each line ends in CRLF; the
 * first is the header): a list of runs never moves their reports.
 */
const RUN_COLUMNS = `id, status, done, total, summary, message, input, created_at, finished_at,
  CASE WHEN report IS NULL THEN 0 ELSE greatest(0, (length(report) - length(replace(report, E'\\r\\n', ''))) / 2 - 1) END::int AS problems`;

function runView(row: RunRow): RunView {
  const end = row.finished_at ? new Date(row.finished_at).getTime() : Date.now();
  return {
    id: row.id,
    status: row.status,
    done: row.done,
    total: row.total,
    summary: row.summary,
    problems: Number(row.problems),
    message: row.status === 'done' ? '' : row.message,
    offers: row.status === 'done' ? row.total : row.done,
    seconds: Math.round((end - new Date(row.created_at).getTime()) / 100) / 10,
  };
}

/** A run as its caller sees it, and its report (CSV) once it is over. */
export async function importRun(id: number): Promise<{ view: RunView; report: string | null } | null> {
  const database = await getDatabase();
  const row = (await database.query(`SELECT ${RUN_COLUMNS}, report FROM import_runs WHERE id = $1`, [id])).rows[0] as
    (RunRow & { report: string | null }) | undefined;
  return row ? { view: runView(row), report: row.report } : null;
}

export interface RunListed extends RunView {
  input: string;
  started: Date;
}

/** The latest runs, newest first: the console's history, in one query. */
export async function importRuns(limit = 50): Promise<RunListed[]> {
  const database = await getDatabase();
  const { rows } = await database.query(`SELECT ${RUN_COLUMNS} FROM import_runs ORDER BY id DESC LIMIT $1`, [limit]);
  return (rows as unknown as RunRow[]).map((row) => ({ ...runView(row), input: row.input, started: new Date(row.created_at) }));
}
