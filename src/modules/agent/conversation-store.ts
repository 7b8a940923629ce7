import { sql } from 'kysely';
import type { Db } from '../../db/connection.ts';
import type { CallEvent, TranscriptTurn } from '../../voice/provider.ts';
import { VENDORS } from '../../voice/vendors.ts';

/**
 * What our agent heard and said on a call (agent_conversations, migration 0015), kept as the
 * conversation goes so the call's end finds it at whichever process Twilio reports to.
 * Invariant: one row per call, written only by the process holding the call's socket, except
 * answered_by (the answering-machine callback, at any process).
 */
export type AgentOutcome = { actionStatus: 'interested' | 'scheduled' | 'transferred' | null; reason: string };

export interface ConversationUpdate {
  transcript?: TranscriptTurn[];
  outcome?: AgentOutcome;
  endedBy?: 'HUMAN' | 'AI';
  transferTo?: string;
  /** The person asked not to be called again (the do_not_call tool). */
  optOut?: boolean;
}

export async function saveConversation(db: Db, callId: number, update: ConversationUpdate): Promise<void> {
  const values = {
    call_id: callId,
    transcript: JSON.stringify(update.transcript ?? []),
    action_status: update.outcome?.actionStatus ?? null,
    action_status_reason: update.outcome?.reason ?? null,
    ended_by: update.endedBy ?? null,
    transfer_to: update.transferTo ?? null,
    opt_out: update.optOut === true,
  };
  // A field the update leaves out keeps its stored value.
  await sql`
    INSERT INTO agent_conversations (call_id, transcript, action_status, action_status_reason, ended_by, transfer_to, opt_out)
    SELECT ${values.call_id}, ${values.transcript}::jsonb, ${values.action_status}, ${values.action_status_reason}, ${values.ended_by}, ${values.transfer_to}, ${values.opt_out}
    WHERE EXISTS (SELECT 1 FROM calls WHERE id = ${callId})
    ON CONFLICT (call_id) DO UPDATE SET
      transcript = CASE WHEN ${update.transcript !== undefined} THEN EXCLUDED.transcript ELSE agent_conversations.transcript END,
      action_status = CASE WHEN ${update.outcome !== undefined} THEN EXCLUDED.action_status ELSE agent_conversations.action_status END,
      action_status_reason = CASE WHEN ${update.outcome !== undefined} THEN EXCLUDED.action_status_reason ELSE agent_conversations.action_status_reason END,
      ended_by = coalesce(EXCLUDED.ended_by, agent_conversations.ended_by),
      transfer_to = coalesce(EXCLUDED.transfer_to, agent_conversations.transfer_to),
      opt_out = agent_conversations.opt_out OR EXCLUDED.opt_out,
      updated_at = now()`.execute(db);
}

export async function saveAnsweredBy(db: Db, callId: number, answeredBy: string): Promise<void> {
  await sql`
    INSERT INTO agent_conversations (call_id, answered_by) SELECT ${callId}, ${answeredBy} WHERE EXISTS (SELECT 1 FROM calls WHERE id = ${callId})
    ON CONFLICT (call_id) DO UPDATE SET answered_by = EXCLUDED.answered_by, updated_at = now()`.execute(db);
}

/**
 * The end of a call our agent held, completed with what the agent recorded: the transcript, the
 * outcome it marked (a transfer is `transferred`), who ended the call, and a machine that
 * answered (a completed call is then `voicemail`).
 */
export async function withAgentConversations(db: Db, events: CallEvent[]): Promise<CallEvent[]> {
  const ended = events.filter((e) => e.type === 'ended');
  if (ended.length === 0) return events;
  // A call Twilio reports without our id (an inbound call's number callback) is found by Twilio's.
  const bySid = new Map<string, number>();
  const unnamed = ended.filter((e) => e.callId === null).map((e) => e.providerCallId);
  if (unnamed.length > 0) {
    const refs = await db.selectFrom('call_provider_refs').select(['call_id', 'provider_call_id']).where('provider_call_id', 'in', unnamed).execute();
    for (const r of refs) bySid.set(r.provider_call_id, Number(r.call_id));
  }
  const callOf = (e: CallEvent) => e.callId ?? bySid.get(e.providerCallId) ?? null;
  const ids = ended.flatMap((e) => (callOf(e) === null ? [] : [callOf(e)!]));
  if (ids.length === 0) return events;
  const rows = await db.selectFrom('agent_conversations').selectAll().where('call_id', 'in', ids).execute();
  const byCall = new Map(rows.map((r) => [Number(r.call_id), r]));
  return events.map((event) => {
    const id = event.type === 'ended' ? callOf(event) : null;
    const row = id === null ? undefined : byCall.get(id);
    if (!row) return event;
    const machine = VENDORS.twilio.agent.isMachine(row.answered_by);
    const transcript = Array.isArray(row.transcript) ? (row.transcript as TranscriptTurn[]) : [];
    return {
      ...event,
      ...(transcript.length > 0 ? { transcript } : {}),
      ...(row.transfer_to ? { actionStatus: 'transferred' as const, actionStatusReason: `transferred to ${row.transfer_to}` }
        : row.action_status_reason !== null ? { actionStatus: row.action_status as CallEvent['actionStatus'], actionStatusReason: row.action_status_reason } : {}),
      ...(row.ended_by ? { endedBy: row.ended_by as 'HUMAN' | 'AI' } : {}),
      ...(row.opt_out ? { optOutBy: 'assistant' as const } : {}),
      ...(machine && event.status === 'finished' ? { status: 'voicemail' as const, endedReason: `an answering machine took the call (${row.answered_by})` } : {}),
    };
  });
}
