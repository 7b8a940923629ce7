import { describe, expect, it } from 'vitest';
import { GroupCommitBatcher } from './event-batcher.ts';

/** A batcher over numbers whose "transaction" doubles each item; records each call's items. */
function recording(options: { maxItems?: number; maxConcurrent?: number; failOn?: number } = {}) {
  const together: number[][] = [];
  const alone: number[][] = [];
  let release: () => void = () => {};
  let gate = Promise.resolve();
  const apply = async (log: number[][], items: number[]) => {
    log.push(items);
    await gate;
    if (options.failOn !== undefined && items.includes(options.failOn)) throw new Error(`bad item ${options.failOn}`);
    return items.map((x) => x * 2);
  };
  const batcher = new GroupCommitBatcher<number, number>({
    applyTogether: (items) => apply(together, items),
    applyAlone: (items) => apply(alone, items),
    maxItems: options.maxItems ?? 100,
    maxConcurrent: options.maxConcurrent ?? 1,
  });
  return {
    batcher, together, alone,
    hold() {
      gate = new Promise((r) => (release = r));
    },
    release: () => release(),
  };
}

describe('GroupCommitBatcher', () => {
  it('applies a request at once when idle, and requests that wait meanwhile together, each answered with its own results', async () => {
    const r = recording();
    r.hold();
    const first = r.batcher.submit([1]);
    const second = r.batcher.submit([2, 3]);
    const third = r.batcher.submit([4]);
    r.release();
    expect(await first).toEqual([2]);
    expect(await second).toEqual([4, 6]);
    expect(await third).toEqual([8]);
    // The first went alone (nothing to combine); the two that waited shared one batch.
    expect(r.alone).toEqual([[1]]);
    expect(r.together).toEqual([[2, 3, 4]]);
  });

  it('never combines past maxItems, but still applies a single request larger than that', async () => {
    const r = recording({ maxItems: 3 });
    r.hold();
    const running = r.batcher.submit([0]);
    const waiting = [r.batcher.submit([1, 2]), r.batcher.submit([3, 4]), r.batcher.submit([5, 6, 7, 8])];
    r.release();
    await running;
    expect(await Promise.all(waiting)).toEqual([[2, 4], [6, 8], [10, 12, 14, 16]]);
    expect(r.together).toEqual([]);
    expect(r.alone.slice(1)).toEqual([[1, 2], [3, 4], [5, 6, 7, 8]]);
  });

  it('when a combined batch fails, applies each request alone so only the one with the bad item fails', async () => {
    const r = recording({ failOn: 5 });
    r.hold();
    const running = r.batcher.submit([0]);
    const good = r.batcher.submit([1, 2]);
    const bad = r.batcher.submit([5]);
    const alsoGood = r.batcher.submit([7]);
    r.release();
    await running;
    expect(await good).toEqual([2, 4]);
    await expect(bad).rejects.toThrow('bad item 5');
    expect(await alsoGood).toEqual([14]);
    expect(r.together).toEqual([[1, 2, 5, 7]]);
  });

  it('runs at most maxConcurrent batches at once', async () => {
    const r = recording({ maxConcurrent: 2, maxItems: 1 });
    r.hold();
    const all = [1, 2, 3, 4].map((x) => r.batcher.submit([x]));
    await new Promise((res) => setTimeout(res, 10));
    expect(r.alone.length + r.together.length).toBe(2);
    r.release();
    expect(await Promise.all(all)).toEqual([[2], [4], [6], [8]]);
  });
});
