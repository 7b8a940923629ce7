/**
 * Group commit for provider events. Vendors post events one request at a time (or in
 * small batches) and many at once under load; applying each request in its own
 * transaction makes commits and round trips the ceiling. Requests that arrive while a
 * batch is being applied wait and are applied together in the next one, so an idle
 * service answers at once and a busy one applies hundreds of events per transaction.
 *
 * If a combined batch fails (one malformed event, a deadlock), each request is applied
 * again on its own, so one sender's bad event cannot fail another sender's request.
 */
export interface BatcherOptions<E, R> {
  applyTogether: (items: E[]) => Promise<R[]>;
  applyAlone: (items: E[]) => Promise<R[]>;
  /** Most items in one combined batch. */
  maxItems: number;
  /** Batches applied at the same time (each is its own transaction). */
  maxConcurrent: number;
}

interface Waiting<E, R> {
  items: E[];
  resolve: (results: R[]) => void;
  reject: (error: unknown) => void;
}

export class GroupCommitBatcher<E, R> {
  private readonly queue: Waiting<E, R>[] = [];
  private running = 0;

  constructor(private readonly options: BatcherOptions<E, R>) {}

  /** Resolves with one result per item, in the items' order, once they are committed. */
  submit(items: E[]): Promise<R[]> {
    if (items.length === 0) return Promise.resolve([]);
    return new Promise<R[]>((resolve, reject) => {
      this.queue.push({ items, resolve, reject });
      this.drain();
    });
  }

  private drain() {
    while (this.running < this.options.maxConcurrent && this.queue.length > 0) {
      const batch: Waiting<E, R>[] = [];
      let size = 0;
      // Always take one request, even one larger than maxItems; then fill up to the bound.
      do {
        const next = this.queue.shift()!;
        batch.push(next);
        size += next.items.length;
      } while (this.queue.length > 0 && size + this.queue[0]!.items.length <= this.options.maxItems);
      this.running++;
      void this.apply(batch).finally(() => {
        this.running--;
        this.drain();
      });
    }
  }

  private async apply(batch: Waiting<E, R>[]) {
    if (batch.length > 1) {
      try {
        const results = await this.options.applyTogether(batch.flatMap((w) => w.items));
        let at = 0;
        for (const w of batch) {
          w.resolve(results.slice(at, at + w.items.length));
          at += w.items.length;
        }
        return;
      } catch {
        // Fall through: each request on its own, each with its own answer.
      }
    }
    for (const w of batch) {
      try {
        w.resolve(await this.options.applyAlone(w.items));
      } catch (error) {
        w.reject(error);
      }
    }
  }
}
