// What every Node process of a test run starts with (npm test, npm run test:changed, and so the runners,
// the shops they start and the commands they try), measured in docs/performance.md ("The suite in 8
// minutes, again"):
// - the code V8 compiled for each module kept and reused (Node checks each entry against the file): a
//   shop's start 4.1 → 3.5 CPU-seconds;
// - drizzle-orm's own imports resolved without Node's format lookup (tests/support/esm-fast-path.mjs):
//   importing it 1.0 → 0.2 s in each test file's worker and each command.
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

export function prepareTestEnvironment() {
  process.env.NODE_COMPILE_CACHE ??= resolve('node_modules/.cache/node-compile-cache');
  const preload = `--import=${pathToFileURL(resolve('tests/support/esm-fast-path.mjs')).href}`;
  const options = process.env.NODE_OPTIONS ?? '';
  if (!options.includes(preload)) process.env.NODE_OPTIONS = `${options} ${JSON.stringify(preload)}`.trim();
}
