// What `npm test` prints at its end besides the totals: each stage's time and the ten slowest test files of
// the run (vitest's and Playwright's JSON reports), so where the suite's time goes is seen on every run. A
// report, never a gate: machines are noisy.
import { existsSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';

/**
 * The slowest test files of the reports: [seconds, file] pairs, slowest first. A Playwright file's time
 * is the sum of its tests' (both viewports); a vitest file's its own run, hooks included.
 * @param {{ vitest?: string, playwright?: string }} reports
 * @param {number} count
 * @returns {[number, string][]}
 */
export function slowestFiles(reports, count = 10) {
  /** @type {Map<string, number>} */
  const files = new Map();
  if (reports.vitest && existsSync(reports.vitest)) {
    const report = JSON.parse(readFileSync(reports.vitest, 'utf8'));
    for (const file of report.testResults ?? []) files.set(relative(process.cwd(), file.name), (file.endTime - file.startTime) / 1000);
  }
  if (reports.playwright && existsSync(reports.playwright)) {
    const report = JSON.parse(readFileSync(reports.playwright, 'utf8'));
    /** @param {any} suite @param {string} file */
    const walk = (suite, file) => {
      for (const spec of suite.specs ?? [])
        for (const test of spec.tests ?? []) for (const result of test.results ?? []) files.set(file, (files.get(file) ?? 0) + result.duration / 1000);
      for (const child of suite.suites ?? []) walk(child, file);
    };
    for (const suite of report.suites ?? []) walk(suite, `tests/e2e/${suite.file}`);
  }
  return [...files.entries()]
    .map(([file, seconds]) => /** @type {[number, string]} */ ([Math.round(seconds * 10) / 10, file]))
    .sort((a, b) => b[0] - a[0])
    .slice(0, count);
}
