import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { createClaimWorker, UNFINISHED, type JobSource } from './claim-worker.ts';

const log = pino({ level: 'silent' });

/** An in-memory job table: the claim-worker's mechanics without a database. */
function table(ids: number[]) {
  const open = [...ids];
  const seen = { completed: [] as number[][], released: [] as number[], failed: [] as number[], claims: [] as number[] };
  return { open, seen };
}

describe('claim-worker', () => {
  it('claims into its free slots, writes outcomes in batches, and hands back what it claimed but did not start on stop', async () => {
    const { open, seen } = table([1, 2, 3, 4, 5, 6]);
    let gate!: () => void;
    const held = new Promise<void>((resolve) => (gate = resolve));
    const source: JobSource<number, number> = {
      claim: async (_w, limit) => {
        seen.claims.push(limit);
        return open.splice(0, limit);
      },
      process: async (id) => {
        if (id <= 2) await held;
        return id * 10;
      },
      complete: async (_w, outcomes) => void seen.completed.push(outcomes),
      release: async (_w, jobs) => void seen.released.push(...jobs),
      fail: async (_w, id) => void seen.failed.push(id),
    };
    // Two slots, and a pacing that claims four at once: two wait in the queue.
    const worker = createClaimWorker({
      name: 'test', log, source, tickMs: 10, concurrency: 2,
      pacing: { claimLimit: ({ queued }) => (queued === 0 ? 4 : 0), finished: () => false },
    });
    worker.start();
    await expect.poll(() => seen.claims.length).toBeGreaterThan(0);
    const stopped = worker.stop();
    gate();
    await stopped;
    // Jobs 1 and 2 finish and their outcomes are written; a stopping worker starts nothing new, so 3 and 4 go back.
    expect(seen.completed.flat().sort()).toEqual([10, 20]);
    expect(seen.released.sort()).toEqual([3, 4]);
    expect(open).toEqual([5, 6]);
    expect(seen.failed).toEqual([]);
  });

  it('releases a job stopped part-way, hands a thrown job to fail(), and keeps going', async () => {
    const { open, seen } = table([1, 2, 3]);
    const source: JobSource<number> = {
      claim: async (_w, limit) => open.splice(0, limit),
      process: async (id, session) => {
        if (id === 1) throw new Error('boom');
        if (id === 3) {
          while (!session.stopped) await new Promise((resolve) => setTimeout(resolve, 5));
          return UNFINISHED;
        }
      },
      release: async (_w, jobs) => void seen.released.push(...jobs),
      fail: async (_w, id) => void seen.failed.push(id),
    };
    const worker = createClaimWorker({ name: 'test', log, source, tickMs: 10_000 });
    worker.start();
    await expect.poll(() => open.length).toBe(0);
    await worker.stop();
    expect(seen.failed).toEqual([1]);
    expect(seen.released).toEqual([3]);
  });
});
