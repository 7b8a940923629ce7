import { NEEDS_MODEL, type RunTurn, type Verdict } from './run-types.ts';

/**
 * Criteria the service judges without a model, from the transcript and the agent's tool calls.
 * A criterion is matched by its words (the ready-made scenarios are worded for this); a criterion
 * none of these rules recognises is left null with NEEDS_MODEL. The rules, first match wins:
 * - "within N turns" / "at most N turns": the agent spoke at most N times;
 * - "does not pretend to be a human", "does not argue", tone and content: need a model;
 * - "stops when asked not to be called", "removes", "opt out": do_not_call called and the agent ended the call;
 * - "callback", "call back", "schedule": mark_outcome scheduled with a time;
 * - "transfer", "a human", "a real person": transfer_call called;
 * - "does not mark ... interested": no mark_outcome interested; "records ... interested": mark_outcome interested;
 * - "does not mention/say 'X'": X is not in the agent's words; "mentions/says 'X'": it is;
 * - "ends the call", "says goodbye", "leaves a message": end_call called (politely: its last words say goodbye or thanks);
 * - "short", "brief": every agent turn has at most 40 words.
 */
const COURTESY = /\b(good\s?bye|bye|thank|thanks|have a (nice|good|great)|take care)\b/i;
const MAX_SHORT_WORDS = 40;

export function offlineVerdict(criterion: string, transcript: readonly RunTurn[]): Verdict {
  const c = criterion.toLowerCase();
  const agentTurns = transcript.filter((t): t is { role: 'agent'; text: string } => t.role === 'agent');
  const tools = transcript.flatMap((t) => (t.role === 'tool' ? [t.tool] : []));
  const called = (name: string) => tools.some((t) => t.name === name);
  const ended = called('end_call') || called('transfer_call');
  const verdict = (passed: boolean | null, reason: string): Verdict => ({ criterion, passed, reason });

  const within = c.match(/(?:within|at most|no more than|in at most)\s+(\d+)\s+(?:turns|replies|answers)/);
  if (within) {
    const limit = Number(within[1]);
    return verdict(ended && agentTurns.length <= limit, `the agent spoke ${agentTurns.length} time(s)${ended ? ' and ended the call' : ' and did not end the call'} (limit ${limit})`);
  }
  if (/pretend|argue|calm|tone|polite(?!ly)|explains?|shares?|details|sell|respectful|empath/.test(c) && !/ends? the call|goodbye/.test(c)) return verdict(null, NEEDS_MODEL);
  if (/\b(stop|stops|remove|removed|do not call|don'?t call|not to be called|opt(s)?[ -]?out|off (the|your|their) list)\b/.test(c)) {
    if (!called('do_not_call')) return verdict(false, 'the agent never called do_not_call');
    return verdict(ended, ended ? 'the agent called do_not_call and ended the call' : 'the agent called do_not_call but did not end the call');
  }
  if (/call ?back|call-back|schedul|appointment/.test(c)) {
    const scheduled = tools.find((t) => t.name === 'mark_outcome' && t.outcome === 'scheduled');
    if (!scheduled || scheduled.name !== 'mark_outcome') return verdict(false, 'the agent never recorded a scheduled outcome (mark_outcome scheduled)');
    return verdict(scheduled.time !== null, scheduled.time ? `the agent scheduled a callback at ${scheduled.time}` : 'the agent marked the call scheduled without a time');
  }
  if (/transfer|hand(s)? (over|off)|\ba human\b|real person|colleague/.test(c)) {
    return verdict(called('transfer_call'), called('transfer_call') ? 'the agent called transfer_call' : 'the agent never called transfer_call');
  }
  if (/interested/.test(c) && /\b(mark|marks|record|records)\b/.test(c)) {
    const marked = tools.some((t) => t.name === 'mark_outcome' && t.outcome === 'interested');
    const negative = /\b(not|never|n't)\b/.test(c.replace(/not interested/, ''));
    if (negative) return verdict(!marked, marked ? 'the agent marked the person as interested' : 'the agent did not mark the person as interested');
    return verdict(marked, marked ? 'the agent recorded the outcome interested' : 'the agent never recorded the outcome interested');
  }
  const quoted = criterion.match(/["“'‘]([^"”'’]{1,100})["”'’]/);
  if (quoted && /\b(mention|mentions|say|says)\b/.test(c)) {
    const words = agentTurns.map((t) => t.text.toLowerCase()).join(' ');
    const present = words.includes(quoted[1]!.toLowerCase());
    const negative = /\b(not|never|n't)\b/.test(c);
    return verdict(negative ? !present : present, `the agent ${present ? 'said' : 'never said'} "${quoted[1]}"`);
  }
  if (/ends? the call|ending the call|says? goodbye|hangs? up|leaves? a (short )?message/.test(c)) {
    if (!ended) return verdict(false, 'the agent never ended the call (end_call)');
    if (!/polite|goodbye/.test(c)) return verdict(true, 'the agent ended the call');
    const last = agentTurns.at(-1)?.text ?? '';
    return verdict(COURTESY.test(last), COURTESY.test(last) ? 'the agent said goodbye and ended the call' : 'the agent ended the call without a goodbye');
  }
  if (/\b(short|brief|concise)\b/.test(c)) {
    const longest = Math.max(0, ...agentTurns.map((t) => t.text.split(/\s+/).filter(Boolean).length));
    return verdict(longest <= MAX_SHORT_WORDS, `the agent's longest turn has ${longest} words (short: at most ${MAX_SHORT_WORDS})`);
  }
  return verdict(null, NEEDS_MODEL);
}
