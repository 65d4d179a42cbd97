// How many requests the front lets into Astro at once (scripts/server.mjs). Rendering is CPU work on one
// thread: past a few renders at once they only queue, each holding its memory, and every visitor behind
// them waits — a flood of distinct pages (a new filter each time) took p99 to 5.7 s and /api/health to
// 4.9 s (docs/performance.md, "Flood"). So at most `active` requests are inside at once, up to `waiting`
// more queue for at most `maxWaitMs`, and the rest are refused at once (503 with Retry-After), which
// costs the shop nothing. Cached pages and built files never enter: the front answers them before.
// Relative imports only: loaded by Node from src/.

export interface AdmissionLimits {
  active: number;
  waiting: number;
  maxWaitMs: number;
}

/**
 * PGlite runs its queries on the server's own thread, so renders beyond a few only queue; on PostgreSQL
 * a render spends part of its time waiting for the database, and more of them overlap usefully.
 */
export const ADMISSION_LIMITS: Record<'pglite' | 'postgres', AdmissionLimits> = {
  pglite: { active: 4, waiting: 32, maxWaitMs: 1000 },
  postgres: { active: 16, waiting: 64, maxWaitMs: 1000 },
};

export class Admission {
  #active = 0;
  readonly #queue: { admit: () => void; refuse: () => void; timer: ReturnType<typeof setTimeout> }[] = [];
  readonly #limits: AdmissionLimits;
  refused = 0;

  constructor(limits: AdmissionLimits) {
    this.#limits = limits;
  }

  /** true when the request may go in (call leave() when it is answered), false when it is refused. */
  enter(): boolean | Promise<boolean> {
    if (this.#active < this.#limits.active) {
      this.#active++;
      return true;
    }
    if (this.#queue.length >= this.#limits.waiting) return this.#refuse();
    return new Promise<boolean>((resolve) => {
      const entry = {
        admit: () => {
          clearTimeout(entry.timer);
          this.#active++;
          resolve(true);
        },
        refuse: () => resolve(this.#refuse()),
        timer: setTimeout(() => {
          this.#queue.splice(this.#queue.indexOf(entry), 1);
          entry.refuse();
        }, this.#limits.maxWaitMs),
      };
      this.#queue.push(entry);
    });
  }

  leave(): void {
    this.#active--;
    this.#queue.shift()?.admit();
  }

  get active(): number {
    return this.#active;
  }

  get waiting(): number {
    return this.#queue.length;
  }

  #refuse(): false {
    this.refused++;
    return false;
  }
}
