// A shop's housekeeping jobs seen from outside, through its /metrics (METRICS_TOKEN set in its environment):
// for the tests that check a job does NOT do something, which need the job to have had its chances, not a
// fixed number of seconds (on a busy machine a job may not have run at all within them).
import { until } from './shop-process.ts';

/** How many times the job has run to the end in this shop (shop_job_runs_total, outcome ok). */
export async function jobRuns(baseUrl: string, token: string, job: string): Promise<number> {
  const text = await (await fetch(`${baseUrl}/metrics`, { headers: { authorization: `Bearer ${token}` } })).text();
  const line = text.split('\n').find((l) => l.startsWith('shop_job_runs_total{') && l.includes(`job="${job}"`) && l.includes('outcome="ok"'));
  return Number(line?.split(' ').at(-1) ?? 0);
}

/** Resolves once the job has run at least `count` times since the shop started. */
export async function untilJobRuns(baseUrl: string, token: string, job: string, count: number, timeoutMs = 30_000): Promise<void> {
  await until(
    () => jobRuns(baseUrl, token, job),
    (runs) => runs >= count,
    `the job ${job} run ${count} times`,
    timeoutMs,
  );
}

/** Resolves once the job has run `times` more times than when called (twice unless told). */
export async function afterJobRuns(baseUrl: string, token: string, job: string, times = 2, timeoutMs = 30_000): Promise<void> {
  await untilJobRuns(baseUrl, token, job, (await jobRuns(baseUrl, token, job)) + times, timeoutMs);
}
