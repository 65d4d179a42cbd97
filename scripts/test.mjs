// `npm test`: build the production server, then run unit + integration tests (vitest) and end-to-end
// tests (Playwright in Debian's Chromium) against it, and print one closing line with the totals.
// Flags: --no-check (skip type checks and linters), --no-build (reuse dist/), --no-e2e, --only=unit|integration|e2e
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { commandLine, oneOf } from './cli.ts';
import { slowestFiles } from './test-report.mjs';
import { prepareTestEnvironment } from './test-env.mjs';

const cli = commandLine('npm test -- [--no-check] [--no-build] [--no-e2e] [--only=unit|integration|e2e]', {
  options: {
    'no-check': { type: 'boolean', default: false },
    'no-build': { type: 'boolean', default: false },
    'no-e2e': { type: 'boolean', default: false },
    only: { type: 'string' },
  },
});
const only = cli.values.only === undefined ? undefined : oneOf(cli, '--only', cli.values.only, ['unit', 'integration', 'e2e']);
process.env.ASTRO_TELEMETRY_DISABLED = '1';
prepareTestEnvironment();
const reportDir = 'test-results/reports';
rmSync(reportDir, { recursive: true, force: true });
mkdirSync(reportDir, { recursive: true });

/** How long each step took, printed with the totals: where the suite's time goes (docs/performance.md). */
/** @type {string[]} */
const timings = [];
function run(stage, command, commandArgs, env = {}) {
  console.log(`\n$ ${command} ${commandArgs.join(' ')}`);
  const started = Date.now();
  const status = spawnSync(command, commandArgs, { stdio: 'inherit', env: { ...process.env, ...env } }).status ?? 1;
  timings.push(`${stage} ${Math.round((Date.now() - started) / 1000)} s`);
  return status;
}
const suiteStarted = Date.now();

/**
 * How fast this machine is right now: a fixed piece of single-threaded JavaScript, timed. The same suite has
 * taken 1.5–2.5× as long on this shared host from one hour to the next, build included
 * (docs/performance.md): with this figure beside the stage times, two runs' times can be compared.
 */
function referenceWork() {
  const started = performance.now();
  const rows = Array.from({ length: 100_000 }, (_, i) => ({ id: i, name: `товар ${(i * 7919) % 100_003}`, price: (i * 31) % 9_973 }));
  const parsed = JSON.parse(JSON.stringify(rows));
  parsed.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.id - b.id));
  return Math.round(performance.now() - started);
}
const machine = referenceWork();

const totals = { passed: 0, failed: 0, skipped: 0 };
let failedSteps = 0;

// Strict TypeScript over pages, islands, scripts and tests, then the linters (the language rule, the
// import boundaries, formatting): a finding fails the run like a test.
/**
 * Steps run side by side, each one's output printed whole once it ends (never interleaved): the type check
 * and the linters are one thread each, and the machine has two cores.
 * @param {[string, string, string[]][]} steps
 * @returns {Promise<number[]>} their exit statuses
 */
function runTogether(steps) {
  const started = Date.now();
  return Promise.all(
    steps.map(
      ([stage, command, commandArgs]) =>
        new Promise((resolve) => {
          const child = spawn(command, commandArgs, { env: process.env });
          /** @type {Buffer[]} */
          const output = [];
          child.stdout.on('data', (chunk) => output.push(chunk));
          child.stderr.on('data', (chunk) => output.push(chunk));
          child.on('close', (status) => {
            console.log(`\n$ ${command} ${commandArgs.join(' ')}`);
            process.stdout.write(Buffer.concat(output));
            timings.push(`${stage} ${Math.round((Date.now() - started) / 1000)} s`);
            resolve(status ?? 1);
          });
        }),
    ),
  );
}

const building = !cli.values['no-build'] && only !== 'unit';
if (!cli.values['no-check'] && !only) {
  // The build's first steps — the product images drawn, the fonts cut (a fresh clone's build: 60 s, 22 s
  // once they exist) — beside the type check and the linters, which are one thread each: the build then
  // finds them made. Not the Astro build itself: it and the type check both write .astro/.
  /** @type {[string, string, string[]][]} */
  const steps = [
    ['check', 'npm', ['run', 'check']],
    ['lint', 'npm', ['run', 'lint']],
  ];
  if (building) steps.push(['images', 'node', ['scripts/gen-images.ts']], ['fonts', 'node', ['scripts/subset-fonts.ts']]);
  for (const status of await runTogether(steps)) if (status !== 0) failedSteps++;
}

if (building) {
  if (run('build', 'npm', ['run', 'build']) !== 0) {
    console.log('\ntests: 0 passed, 1 failed (the build failed)');
    process.exit(1);
  }
}

const projects = only === 'unit' || only === 'integration' ? [only] : only === 'e2e' ? [] : ['unit', 'integration'];
if (projects.length > 0) {
  const out = `${reportDir}/vitest.json`;
  const status = run(projects.join(' + '), 'npx', [
    'vitest',
    'run',
    ...projects.flatMap((p) => ['--project', p]),
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${out}`,
  ]);
  if (status !== 0) failedSteps++;
  if (existsSync(out)) {
    const report = JSON.parse(readFileSync(out, 'utf8'));
    totals.passed += report.numPassedTests;
    totals.failed += report.numFailedTests;
    totals.skipped += report.numPendingTests + (report.numTodoTests ?? 0);
  }
}

if (!cli.values['no-e2e'] && (!only || only === 'e2e')) {
  const out = `${reportDir}/playwright.json`;
  const status = run('e2e', 'npx', ['playwright', 'test', '--reporter=list,json'], { PLAYWRIGHT_JSON_OUTPUT_NAME: out });
  if (status !== 0) failedSteps++;
  if (existsSync(out)) {
    const stats = JSON.parse(readFileSync(out, 'utf8')).stats;
    totals.passed += stats.expected + stats.flaky;
    totals.failed += stats.unexpected;
    totals.skipped += stats.skipped;
  }
}

// A step that failed without reporting a failed test (a crash, a broken setup) still fails the run.
if (failedSteps > 0 && totals.failed === 0) totals.failed = failedSteps;
const slowest = slowestFiles({ vitest: `${reportDir}/vitest.json`, playwright: `${reportDir}/playwright.json` });
if (slowest.length) console.log(`\nslowest files:\n${slowest.map(([seconds, file]) => `  ${seconds} s  ${file}`).join('\n')}`);
console.log(`\ntime: ${timings.join(', ')}; ${Math.round((Date.now() - suiteStarted) / 1000)} s in all`);
console.log(`machine: the reference work took ${machine} ms (scripts/test.mjs referenceWork; docs/performance.md compares runs by it)`);
console.log(`tests: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(failedSteps > 0 || totals.failed > 0 ? 1 : 0);
