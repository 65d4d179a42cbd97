// How the shop's server process is started, wherever it is (npm start, npm run serve, the tests, the
// benchmarks), measured in docs/performance.md ("Memory"):
// - a young generation of 4 MB semi-spaces instead of V8's default, which sizes them from the machine's
//   memory: on a 24 GB machine the heap held ~170 MB for ~45 MB of live objects;
// - glibc's malloc serving allocations of 64 KB and more with their own mappings, so the memory of
//   transient large buffers (compression windows, page bodies, query results) goes back to the system
//   when freed instead of staying in the process: resident memory after warm-up 406 → 294 MB on PGlite.
//   Ignored by other C libraries.
// - `gc()` exposed, for the one full collection src/lib/memory-release.ts runs when the server falls quiet
//   (V8 alone keeps its old generation at the size of the last burst for minutes).
export const SERVER_NODE_FLAGS = ['--max-semi-space-size=4', '--expose-gc'];
export const SERVER_ENV = { MALLOC_MMAP_THRESHOLD_: '65536' };
// `npm run import` (scripts/import.ts) adds one: WebAssembly compiled by Liftoff only. On the embedded
// database V8 otherwise recompiles PGlite's hot functions with TurboFan as the import starts, and the
// compiler's working memory took the process from ~350 to ~750 MB for a moment; the import ran no slower
// without it (docs/performance.md "Catalogue import", third session). And the old generation grows by 60 %
// between full collections instead of V8's factor of up to 4: the import's live heap is ~30 MB, yet V8
// let it reach 130-170 MB of garbage before collecting (peak 363 → 287 MB; fourth session).
export const IMPORT_NODE_FLAGS = [...SERVER_NODE_FLAGS, '--liftoff-only', '--heap-growing-percent=60'];

/**
 * How to start the built server (scripts/server.mjs) with these settings, for `spawn(command, args,
 * { env, … })` in npm run serve, the tests and the benchmarks. `env` is laid over the process's own;
 * `flags` replaces SERVER_NODE_FLAGS and then leaves SERVER_ENV out too (the benchmark's
 * BENCH_NODE_FLAGS, to measure the server without these settings).
 * @param {Record<string, string | undefined>} [env]
 * @param {string[]} [flags]
 * @returns {{ command: string; args: string[]; env: Record<string, string | undefined> }}
 */
export function serverProcess(env = {}, flags) {
  return {
    command: process.execPath,
    args: [...(flags ?? SERVER_NODE_FLAGS), 'scripts/server.mjs'],
    env: { ...(flags ? {} : SERVER_ENV), ...process.env, ...env },
  };
}
