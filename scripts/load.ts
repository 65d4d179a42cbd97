// The benchmarks' shoppers: autocannon over a set of pages, every response's time kept so p95 is the true
// p95 (autocannon's own summary has p90 and p97.5, not p95).
import autocannon from 'autocannon';

/** Sorted latencies' q-quantile, in ms. */
export const quantile = (sorted: readonly number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;

export interface Load {
  p50: number;
  p95: number;
  p97_5: number;
  p99: number;
  requests: number;
  /** Failed connections and answers other than 2xx. */
  errors: number;
}

/**
 * GET these paths round-robin on `connections` connections (8 unless told) for `seconds`, or until `amount`
 * requests, flat out or at `overallRate` requests a second in all; brotli asked for, as browsers do.
 */
export function load(url: string, paths: string[], options: { seconds?: number; amount?: number; overallRate?: number; connections?: number }): Promise<Load> {
  return new Promise((resolve, reject) => {
    const times: number[] = [];
    const instance = autocannon(
      {
        url,
        connections: options.connections ?? 8,
        ...(options.seconds ? { duration: options.seconds } : {}),
        ...(options.amount ? { amount: options.amount } : {}),
        ...(options.overallRate ? { overallRate: options.overallRate } : {}),
        headers: { 'accept-encoding': 'br' },
        requests: paths.map((path) => ({ method: 'GET', path })),
      },
      (error: Error | null, result: { requests: { total: number }; errors: number; non2xx: number }) => {
        if (error) return reject(error);
        times.sort((a, b) => a - b);
        resolve({
          p50: quantile(times, 0.5),
          p95: quantile(times, 0.95),
          p97_5: quantile(times, 0.975),
          p99: quantile(times, 0.99),
          requests: result.requests.total,
          errors: result.errors + result.non2xx,
        });
      },
    );
    instance.on('response', (_client: unknown, _status: number, _bytes: number, ms: number) => times.push(ms));
  });
}
