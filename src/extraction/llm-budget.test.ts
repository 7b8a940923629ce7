import { describe, expect, it } from 'vitest';
import { createLlmBudget } from './llm-budget.ts';
import { withLlmBudget } from './index.ts';
import type { ExtractionInput, Extractor } from './extractor.ts';

/** A gate the test opens: the LLM request "in flight" until then. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}
const tick = () => new Promise((resolve) => setImmediate(resolve));

/** An extractor that records the order requests reach the "LLM" and holds each until its gate opens. */
function recordingExtractor() {
  const order: string[] = [];
  const gates = new Map<string, ReturnType<typeof gate>>();
  const extractor: Extractor = {
    name: 'llm',
    async extract(input) {
      const who = input.instructions.who!;
      order.push(who);
      const g = gate();
      gates.set(who, g);
      await g.opened;
      return { payload: {}, nulls: [], method: 'llm:fake' };
    },
  };
  return { extractor, order, release: (who: string) => gates.get(who)!.open() };
}
const input = (who: string, priority?: 'first' | 'later'): ExtractionInput => ({
  schema: { type: 'object', properties: {}, required: [], additionalProperties: false }, instructions: { who }, transcript: [], contact: {},
  call: { from_number: null, to_number: null, call_duration: null, start_time: null, end_time: null, call_type: null, action_status: null, status: 'finished' },
  ...(priority ? { priority } : {}),
});

describe('the LLM budget shared by webhook extraction and call scoring', () => {
  it('under a full budget, a webhook extraction queued after scoring goes first', async () => {
    const llm = recordingExtractor();
    const budgeted = withLlmBudget(llm.extractor, createLlmBudget(2));
    const running = [budgeted.extract(input('webhook-1')), budgeted.extract(input('webhook-2'))];
    await tick();
    expect(budgeted.budget.state().busy).toEqual({ first: 2, later: 0 });
    // Both slots busy: a scoring request waits, then a webhook extraction arrives after it.
    const scoring = budgeted.extract(input('scoring', 'later'));
    await tick();
    const webhook = budgeted.extract(input('webhook-3'));
    await tick();
    expect(budgeted.budget.state().waiting).toEqual({ first: 1, later: 1 });
    llm.release('webhook-1');
    await running[0];
    await tick();
    expect(llm.order).toEqual(['webhook-1', 'webhook-2', 'webhook-3']);
    llm.release('webhook-2');
    await running[1];
    await tick();
    expect(llm.order).toEqual(['webhook-1', 'webhook-2', 'webhook-3', 'scoring']);
    llm.release('webhook-3');
    llm.release('scoring');
    await Promise.all([webhook, scoring]);
    expect(budgeted.budget.state()).toEqual({ busy: { first: 0, later: 0 }, waiting: { first: 0, later: 0 } });
  });

  it('scoring holds at most half the slots, so a webhook extraction arriving while scoring runs finds one free', async () => {
    const llm = recordingExtractor();
    const budgeted = withLlmBudget(llm.extractor, createLlmBudget(4));
    const scorings = ['s1', 's2', 's3'].map((who) => budgeted.extract(input(who, 'later')));
    await tick();
    expect(llm.order).toEqual(['s1', 's2']);
    const webhook = budgeted.extract(input('webhook'));
    await tick();
    expect(llm.order).toEqual(['s1', 's2', 'webhook']);
    llm.release('webhook');
    await webhook;
    llm.release('s1');
    await scorings[0];
    await tick();
    expect(llm.order).toEqual(['s1', 's2', 'webhook', 's3']);
    llm.release('s2');
    llm.release('s3');
    await Promise.all(scorings);
  });

  it('frees the slot when the request fails', async () => {
    const budget = createLlmBudget(1);
    await expect(budget.run('first', async () => { throw new Error('LLM down'); })).rejects.toThrow('LLM down');
    expect(await budget.run('later', async () => 'next')).toBe('next');
    expect(budget.state().busy).toEqual({ first: 0, later: 0 });
  });
});
