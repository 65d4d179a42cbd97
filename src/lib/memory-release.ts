// Gives memory back to the system when the server falls quiet (docs/performance.md, "Memory";
// docs/decisions/013). A burst of renders leaves two kinds of memory the process no longer uses but
// still holds: V8's old generation, sized for the burst, and glibc's main heap, where the small buffers
// of rendering and compression were freed between live ones and so can never be returned from its top.
// Measured on PostgreSQL at 2,000 products: 107 MB of the 276 MB resident after a warm-up was free memory
// of glibc's heap. Once the server has been idle for a few seconds after some traffic, this runs one full
// garbage collection (when the process was started with --expose-gc, scripts/server-flags.mjs) and
// glibc's malloc_trim(0), through koffi's foreign-function call (no compiler needed; prebuilt N-API).
// Under steady traffic it does nothing: the memory is in use then.
// Relative imports only: scripts/server.mjs loads this file through Node's type stripping.
import { createRequire } from 'node:module';
import { logger } from './log.ts';

type Trim = (pad: number) => number;

/** glibc's malloc_trim, or null where there is none (musl, macOS, Windows) or koffi cannot load. */
function loadMallocTrim(): Trim | null {
  if (process.platform !== 'linux') return null;
  try {
    const koffi = createRequire(import.meta.url)('koffi') as { load(name: string): { func(signature: string): Trim } };
    return koffi.load('libc.so.6').func('int malloc_trim(size_t)');
  } catch {
    return null;
  }
}

export interface MemoryRelease {
  /** Whether glibc's heap can be trimmed here (Linux with glibc, koffi loaded). */
  trims: boolean;
  /** A request came in: the server is busy, and there will be something to release after it. */
  touch(): void;
  /** Release now (what the idle timer does); the time it took in ms. */
  release(): number;
  stop(): void;
}

/** `idleMs`: how long without a request counts as quiet. */
export function releaseMemoryWhenIdle(idleMs = 5_000): MemoryRelease {
  const trim = loadMallocTrim();
  const gc = (globalThis as { gc?: (options?: object) => void }).gc;
  let lastRequest = 0;
  let dirty = false;
  const release = () => {
    const started = performance.now();
    gc?.({ type: 'major', execution: 'sync', flavor: 'last-resort' });
    trim?.(0);
    dirty = false;
    return performance.now() - started;
  };
  const timer = setInterval(() => {
    if (!dirty || Date.now() - lastRequest < idleMs) return;
    const ms = release();
    logger.debug({ ms: Math.round(ms * 10) / 10, rssMb: Math.round(process.memoryUsage.rss() / 1_048_576) }, 'memory released');
  }, idleMs);
  timer.unref();
  return {
    trims: trim !== null,
    touch() {
      lastRequest = Date.now();
      dirty = true;
    },
    release,
    stop: () => clearInterval(timer),
  };
}
