// The one scheduler for housekeeping (DESIGN §2 lib/jobs; the jobs themselves are in
// src/features/housekeeping). Each job runs every so often in every process; on PostgreSQL a run first
// tries the job's advisory lock, so among processes sharing the database only one runs a job at a time
// and the others skip that turn. A run logs one line and shows in the metrics (shop_job_*). Runs of one
// job never overlap in a process: the next is scheduled when the last has finished. Stopping waits for
// the runs under way (the process's stop hooks, src/lib/runtime.ts).
import type { Database } from './db/client.ts';
import { loggableError, logger } from './log.ts';
import { metrics } from './metrics.ts';

export interface Job {
  /** Short, stable: the lock's, the log's and the metrics' name. */
  name: string;
  everyMs: number;
  /** A job that runs every second (the CDN's purges) logs only the runs that did something. */
  quietWhenIdle?: boolean;
  /** Does one round of the work; answers how many things it did (orders released, rows deleted, …). */
  run(): Promise<number>;
}

export class Scheduler {
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();
  private readonly running = new Set<Promise<unknown>>();
  private stopped = false;
  private readonly jobs: readonly Job[];
  private readonly database: () => Promise<Database>;

  constructor(jobs: readonly Job[], database: () => Promise<Database>) {
    this.jobs = jobs;
    this.database = database;
  }

  /** Every job's first run comes a few seconds after the start (spread out), then every `everyMs`. */
  start(): void {
    this.jobs.forEach((job, i) => this.schedule(job, Math.min(job.everyMs, 2_000 + i * 500)));
  }

  /** No new runs; resolves when the runs under way have finished. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
    await Promise.allSettled([...this.running]);
  }

  /** One run of the named job now (under its lock): 'ran', or 'skipped' when another process had it. */
  async runNow(name: string): Promise<'ran' | 'skipped'> {
    const job = this.jobs.find((j) => j.name === name);
    if (!job) throw new Error(`no job named ${name}`);
    const run = this.runOnce(job);
    this.running.add(run);
    try {
      return await run;
    } finally {
      this.running.delete(run);
    }
  }

  private schedule(job: Job, delayMs: number): void {
    if (this.stopped) return;
    const timer = setTimeout(() => {
      void this.runNow(job.name)
        .catch(() => 'failed')
        .finally(() => this.schedule(job, job.everyMs));
    }, delayMs);
    // The jobs never keep a process alive by themselves.
    timer.unref();
    this.timers.set(job.name, timer);
  }

  private async runOnce(job: Job): Promise<'ran' | 'skipped'> {
    const { jobRuns, jobDuration, jobItems, jobLastSuccess } = metrics();
    const started = performance.now();
    const ended = (outcome: 'ok' | 'failed') => {
      const seconds = (performance.now() - started) / 1000;
      jobRuns.inc({ job: job.name, outcome });
      jobDuration.observe({ job: job.name }, seconds);
      return Math.round(seconds * 1000);
    };
    let items = 0;
    try {
      const database = await this.database();
      const ran = await database.ifFree(`job:${job.name}`, async () => {
        items = await job.run();
      });
      if (!ran) return 'skipped';
    } catch (error) {
      logger.error({ job: job.name, ms: ended('failed'), err: loggableError(error) }, 'job failed');
      throw error;
    }
    const ms = ended('ok');
    jobItems.inc({ job: job.name }, items);
    jobLastSuccess.set({ job: job.name }, Date.now() / 1000);
    if (items > 0 || !job.quietWhenIdle) logger.info({ job: job.name, items, ms }, 'job ran');
    return 'ran';
  }
}
