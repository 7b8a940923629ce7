/**
 * One per-process budget of LLM requests (LLM_CONCURRENCY slots), shared by the webhook
 * extraction and the call scoring. Two priorities: `first` (a customer's webhook waits on it)
 * and `later` (call scoring). A freed slot goes to a waiting `first` before any `later`, and
 * `later` holds at most half the slots (at least one), so a webhook extraction that arrives
 * while scoring runs finds a slot free unless the webhooks themselves fill the budget.
 */
export type LlmPriority = 'first' | 'later';

export interface LlmBudget {
  readonly slots: number;
  /** Runs fn once a slot of this priority is free; the slot is freed when fn settles. */
  run<T>(priority: LlmPriority, fn: () => Promise<T>): Promise<T>;
  /** Slots in use and requests waiting, by priority (metrics and tests). */
  state(): { busy: Record<LlmPriority, number>; waiting: Record<LlmPriority, number> };
}

export function createLlmBudget(slots: number): LlmBudget {
  const laterMax = Math.max(1, Math.floor(slots / 2));
  const busy: Record<LlmPriority, number> = { first: 0, later: 0 };
  const waiting: Record<LlmPriority, (() => void)[]> = { first: [], later: [] };
  const free = () => slots - busy.first - busy.later;

  /** Hands free slots to the waiting: all of `first`, then `later` within its share. */
  function dispatch() {
    while (free() > 0 && waiting.first.length > 0) {
      busy.first++;
      waiting.first.shift()!();
    }
    while (free() > 0 && waiting.first.length === 0 && busy.later < laterMax && waiting.later.length > 0) {
      busy.later++;
      waiting.later.shift()!();
    }
  }

  return {
    slots,
    async run(priority, fn) {
      await new Promise<void>((resolve) => {
        waiting[priority].push(resolve);
        dispatch();
      });
      try {
        return await fn();
      } finally {
        busy[priority]--;
        dispatch();
      }
    },
    state: () => ({ busy: { ...busy }, waiting: { first: waiting.first.length, later: waiting.later.length } }),
  };
}
