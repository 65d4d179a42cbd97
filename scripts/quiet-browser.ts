// Waits for a freshly started Chromium to go quiet before a measured page load. The full browser, even
// headless, starts its own WebUI renderer (the address bar's popup, "WebUI Top Renderer" in a trace) and
// keeps one core busy with it for 2–4 s after start: traces on this 2-core host showed 2.2–4.3 s of its
// tasks inside a page's first 5 s in some launches and none in others, and those launches' pages painted
// 0.6–0.8 s later (docs/performance.md "The instrument's own noise"). Lighthouse multiplies what it observes,
// so a load measured in the browser's first seconds counted that work as the page's.
import { readdirSync, readFileSync } from 'node:fs';

const TICK_MS = 1000 / 100; // USER_HZ on Linux

/** CPU time (ms) of a process and all its descendants, read from /proc. */
function treeCpuMs(root: number): number {
  const parent = new Map<number, number>();
  const cpu = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      // The command may hold spaces and parentheses: fields start after the last ')'.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      parent.set(Number(name), Number(fields[1]));
      cpu.set(Number(name), (Number(fields[11]) + Number(fields[12])) * TICK_MS);
    } catch {
      // The process ended while the table was read.
    }
  }
  let total = 0;
  for (const [pid, ms] of cpu) {
    for (let p: number | undefined = pid; p && p > 1; p = parent.get(p))
      if (p === root) {
        total += ms;
        break;
      }
  }
  return total;
}

/**
 * Resolves once the browser's processes together used under `quietMs` of CPU in each of three
 * half-second windows in a row, or after `maxMs`. Answers how long it waited. Off Linux it returns at once.
 */
export async function quietBrowser(pid: number | undefined, { quietMs = 40, maxMs = 20_000 } = {}): Promise<number> {
  if (!pid || process.platform !== 'linux') return 0;
  const start = Date.now();
  let last = treeCpuMs(pid);
  let calm = 0;
  while (calm < 3 && Date.now() - start < maxMs) {
    await new Promise((done) => setTimeout(done, 500));
    const now = treeCpuMs(pid);
    calm = now - last < quietMs ? calm + 1 : 0;
    last = now;
  }
  return Date.now() - start;
}

/** The Chromium that Playwright started from this process (a direct child: Debian's wrapper execs the binary). */
export function launchedChromiumPid(): number | undefined {
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[1]) === process.pid && /chrom/i.test(stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')))) return Number(name);
    } catch {
      // gone
    }
  }
  return undefined;
}
