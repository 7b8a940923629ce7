import { describe, expect, it } from 'vitest';
import { offlineVerdict } from './offline-checks.ts';
import { NEEDS_MODEL, resultOf, type RunTurn } from './run-types.ts';

const agent = (text: string): RunTurn => ({ role: 'agent', text });
const persona = (text: string): RunTurn => ({ role: 'persona', text });
const callback: RunTurn[] = [
  persona('Call me back tomorrow'), agent('Sure, tomorrow at 10. Goodbye!'),
  { role: 'tool', tool: { name: 'mark_outcome', outcome: 'scheduled', time: '2026-12-01T10:00:00Z', note: null } },
  { role: 'tool', tool: { name: 'end_call', reason: 'done' } },
];
const optOut: RunTurn[] = [persona('Remove me'), agent('Done, sorry to bother you.'), { role: 'tool', tool: { name: 'do_not_call', reason: 'asked' } }];

describe('the offline checks', () => {
  it('judges a callback from mark_outcome scheduled with a time', () => {
    expect(offlineVerdict('The agent offers a callback time', callback)).toMatchObject({ passed: true, reason: 'the agent scheduled a callback at 2026-12-01T10:00:00Z' });
    expect(offlineVerdict('The agent offers a callback time', optOut).passed).toBe(false);
  });

  it('wants do_not_call and the call ended for an opt-out', () => {
    expect(offlineVerdict('The agent stops when asked not to be called', optOut)).toMatchObject({ passed: false, reason: 'the agent called do_not_call but did not end the call' });
    const ended = [...optOut, { role: 'tool', tool: { name: 'end_call', reason: 'x' } } as RunTurn];
    expect(offlineVerdict('The agent stops when asked not to be called', ended).passed).toBe(true);
  });

  it('reads "politely" as a goodbye or thanks before end_call', () => {
    expect(offlineVerdict('The agent ends the call politely', callback).passed).toBe(true);
    const curt: RunTurn[] = [agent('Whatever.'), { role: 'tool', tool: { name: 'end_call', reason: 'x' } }];
    expect(offlineVerdict('The agent ends the call politely', curt)).toMatchObject({ passed: false, reason: 'the agent ended the call without a goodbye' });
    expect(offlineVerdict('The agent ends the call', curt).passed).toBe(true);
  });

  it('checks quoted words, negated or not, and interest both ways', () => {
    expect(offlineVerdict('The agent does not mention "price"', callback).passed).toBe(true);
    expect(offlineVerdict('The agent mentions "tomorrow"', callback).passed).toBe(true);
    expect(offlineVerdict('The agent does not mark the person as interested', callback).passed).toBe(true);
    expect(offlineVerdict('The agent records the person as interested', callback).passed).toBe(false);
  });

  it('leaves tone and content to a model', () => {
    for (const c of ['The agent stays calm and polite', 'The agent does not pretend to be a human', 'The agent explains the next step']) {
      expect(offlineVerdict(c, callback)).toEqual({ criterion: c, passed: null, reason: NEEDS_MODEL });
    }
  });

  it('makes a run passed, failed or inconclusive', () => {
    expect(resultOf([{ criterion: 'a', passed: true, reason: '' }])).toBe('passed');
    expect(resultOf([{ criterion: 'a', passed: true, reason: '' }, { criterion: 'b', passed: null, reason: '' }])).toBe('inconclusive');
    expect(resultOf([{ criterion: 'a', passed: false, reason: '' }, { criterion: 'b', passed: null, reason: '' }])).toBe('failed');
  });
});
