// `npm run test:changed [-- --since REF]`: the tests that touch what changed since main (committed or not),
// for the edit loop; `npm test` stays the whole suite. Chosen so:
// - unit and integration: vitest's own `--changed`, the test files whose imports reach a changed file, and
//   changed test files themselves;
// - end-to-end: changed specs, and the specs of a changed feature (src/features/cart/… → tests/e2e/cart.spec.ts,
//   by the folder's name; the layout's files → every spec, since every page has the frame);
// - the build, only when integration or e2e tests were chosen and the build is older than the sources.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { prepareTestEnvironment } from './test-env.mjs';
import { commandLine } from './cli.ts';
import { buildIsStale } from './build-state.mjs';

// As in npm test (scripts/test-env.mjs).
prepareTestEnvironment();
const cli = commandLine('npm run test:changed -- [--since REF]', { options: { since: { type: 'string', default: 'main' } } });
const since = cli.values.since;
const git = (...args) => spawnSync('git', args, { encoding: 'utf8' }).stdout.split('\n').filter(Boolean);
const base = git('merge-base', 'HEAD', since)[0] ?? since;
const changed = [...new Set([...git('diff', '--name-only', base), ...git('ls-files', '--others', '--exclude-standard')])].filter(existsSync);
if (changed.length === 0) {
  console.log(`Nothing changed since ${since}.`);
  process.exit(0);
}
console.log(`Changed since ${since}: ${changed.length} file(s).`);

const specs = readdirSync('tests/e2e').filter((f) => f.endsWith('.spec.ts'));
const e2e = new Set(changed.filter((f) => f.startsWith('tests/e2e/') && f.endsWith('.spec.ts')));
for (const file of changed) {
  const feature = /^src\/features\/([^/]+)\//.exec(file)?.[1];
  if (feature === 'layout' || file.startsWith('src/layouts/') || file === 'tests/e2e/fixtures.ts' || file === 'tests/e2e/helpers.ts')
    for (const spec of specs) e2e.add(`tests/e2e/${spec}`);
  else if (feature) for (const spec of specs.filter((s) => s.startsWith(feature))) e2e.add(`tests/e2e/${spec}`);
}

// What vitest would run, asked first: the build is needed only for integration tests.
const listed = spawnSync('npx', ['vitest', 'list', '--changed', base, '--project', 'unit', '--project', 'integration', '--filesOnly', '--json'], {
  encoding: 'utf8',
});
/** @returns {{ file: string, projectName?: string }[]} */
const parsed = () => {
  try {
    return JSON.parse(listed.stdout.slice(listed.stdout.indexOf('[')));
  } catch {
    return [];
  }
};
const vitestFiles = parsed();
const integration = vitestFiles.some((f) => f.projectName === 'integration' || f.file.includes('/tests/integration/'));
console.log(`vitest: ${vitestFiles.length} file(s)${integration ? ' (integration among them)' : ''}; e2e: ${e2e.size} spec(s).`);

let failed = false;
const run = (command, args) => {
  console.log(`\n$ ${command} ${args.join(' ')}`);
  if ((spawnSync(command, args, { stdio: 'inherit' }).status ?? 1) !== 0) failed = true;
};
if ((integration || e2e.size > 0) && buildIsStale()) run('npm', ['run', 'build']);
if (vitestFiles.length > 0) run('npx', ['vitest', 'run', '--changed', base, '--project', 'unit', '--project', 'integration']);
if (e2e.size > 0) run('npx', ['playwright', 'test', ...e2e]);
process.exit(failed ? 1 : 0);
