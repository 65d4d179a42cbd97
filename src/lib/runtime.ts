// The process's life-cycle (docs/operations.md "Stopping and restarting"): starting → ready → draining.
// The front (scripts/server.mjs, loaded from src/) moves it; the server's bundle (dist/) reads it for
// /api/ready and hangs its work on it — the housekeeping jobs start when the process is ready, and the
// jobs, the mail outbox and the database are closed, in that order, when it stops. Both copies of this
// module see one state: it lives on a global. Relative imports only.

export type Phase = 'starting' | 'ready' | 'draining';

interface Hook {
  name: string;
  /** Lower first: the jobs stop before the outbox is flushed, the database closes last. */
  order: number;
  run: () => unknown;
}

interface Runtime {
  phase: Phase;
  readyHooks: Pick<Hook, 'name' | 'run'>[];
  stopHooks: Hook[];
}

const KEY = Symbol.for('brandshop.runtime');
const holder = globalThis as { [KEY]?: Runtime };
const state: Runtime = (holder[KEY] ??= { phase: 'starting', readyHooks: [], stopHooks: [] });

export const STOP_ORDER = { jobs: 10, outbox: 20, database: 90 } as const;

export function phase(): Phase {
  return state.phase;
}

/** Work to start once the process serves (the scheduler): at once when it already does. */
export function whenReady(name: string, run: () => unknown): void {
  if (state.readyHooks.some((h) => h.name === name)) return;
  state.readyHooks.push({ name, run });
  if (state.phase === 'ready') void Promise.resolve().then(run);
}

/** Work to finish before the process exits; one hook per name (a module loaded twice registers once). */
export function beforeExit(name: string, order: number, run: () => unknown): void {
  state.stopHooks = [...state.stopHooks.filter((h) => h.name !== name), { name, order, run }];
}

/** The process answers: readiness turns 200 and the ready hooks run (once: the phase never returns to starting). */
export function markReady(): void {
  if (state.phase !== 'starting') return;
  state.phase = 'ready';
  for (const hook of state.readyHooks) void Promise.resolve().then(hook.run);
}

/** The process is stopping: readiness turns 503 and stays so. */
export function markDraining(): void {
  state.phase = 'draining';
}

/**
 * Runs the stop hooks in their order, each within `limitMs` (a hook that hangs must not keep the
 * process from exiting); reports each hook's failure or overrun to `report` and carries on.
 */
export async function runStopHooks(limitMs: number, report: (name: string, outcome: 'failed' | 'timed out', error?: unknown) => void): Promise<void> {
  for (const hook of [...state.stopHooks].sort((a, b) => a.order - b.order)) {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const overrun = new Promise<'timed out'>((resolve) => (timer = setTimeout(() => resolve('timed out'), limitMs)));
    try {
      const outcome = await Promise.race([Promise.resolve().then(hook.run), overrun]);
      if (outcome === 'timed out') report(hook.name, 'timed out');
    } catch (error) {
      report(hook.name, 'failed', error);
    } finally {
      clearTimeout(timer);
    }
  }
}
