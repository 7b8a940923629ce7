import type { Db } from '../../../db/connection.ts';
import type { CallEvent, TranscriptTurn } from '../../../voice/provider.ts';
import { callRedactions, type CallRedaction } from './call-redaction.ts';
import type { Redactor } from '../redaction/redaction.ts';

// Events already redacted by their call's rule: the events route redacts before the LLM reads
// them and applyCallEvents again before it stores them (the reconciler's fetched calls come only
// there); the second pass skips these. An event a later step copied (an outcome added to an end)
// is redacted again, which changes nothing: a marker is never read as a value.
const redacted = new WeakSet<CallEvent>();
const hasText = (e: CallEvent) => !redacted.has(e) && (Boolean(e.turn?.text) || (e.transcript?.length ?? 0) > 0 || e.analysis !== undefined);

/** Turns with their text redacted; the rest of each turn as it was. */
export function redactTurns(redactor: Redactor, turns: TranscriptTurn[]): TranscriptTurn[] {
  return turns.map((t) => (t.text ? { ...t, text: redactor.redact(t.text).text } : t));
}

/**
 * A vendor's events with what the person said redacted by their call's rule, before anything
 * reads, stores or shows them (the LLM's opt-out and outcome checks, the live stream, the call row): turns and transcripts where the rule
 * names `transcript`, the vendor's analysis where it names `call_data`. Events of calls not
 * found here (no id yet) pass as they are: only events that name a call are stored.
 */
export async function redactCallEvents(db: Db, events: CallEvent[]): Promise<CallEvent[]> {
  const ids = events.flatMap((e) => (e.callId !== null && hasText(e) ? [e.callId] : []));
  if (ids.length === 0) return events;
  const rules = await callRedactions(db, ids);
  return events.map((e) => {
    const rule = e.callId === null || !hasText(e) ? null : rules.get(e.callId) ?? null;
    if (!rule) return e;
    const out = redactEvent(e, rule);
    redacted.add(out);
    return out;
  });
}

function redactEvent(e: CallEvent, { redactor, places }: CallRedaction): CallEvent {
  const out = { ...e };
  if (places.has('transcript')) {
    if (e.turn?.text) out.turn = { ...e.turn, text: redactor.redact(e.turn.text).text };
    if (e.transcript) out.transcript = redactTurns(redactor, e.transcript);
  }
  if (places.has('call_data') && e.analysis) out.analysis = redactor.redactDeep(e.analysis).value;
  return out;
}
