import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Admission } from './admission.ts';

describe('admission to the renderer', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('lets the first requests in, queues the next ones in order and refuses past the queue', async () => {
    const gate = new Admission({ active: 2, waiting: 2, maxWaitMs: 1000 });
    expect(gate.enter()).toBe(true);
    expect(gate.enter()).toBe(true);
    const third = gate.enter();
    const fourth = gate.enter();
    expect(gate.enter()).toBe(false);
    expect(gate.waiting).toBe(2);
    gate.leave();
    await expect(third).resolves.toBe(true);
    expect(gate.active).toBe(2);
    expect(gate.waiting).toBe(1);
    gate.leave();
    await expect(fourth).resolves.toBe(true);
    expect(gate.refused).toBe(1);
  });

  it('refuses a request that waited too long, and it no longer holds a place', async () => {
    const gate = new Admission({ active: 1, waiting: 5, maxWaitMs: 1000 });
    expect(gate.enter()).toBe(true);
    const waiting = gate.enter();
    vi.advanceTimersByTime(1001);
    await expect(waiting).resolves.toBe(false);
    expect(gate.waiting).toBe(0);
    gate.leave();
    expect(gate.active).toBe(0);
    expect(gate.enter()).toBe(true);
  });
});
