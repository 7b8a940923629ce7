import { sql } from 'kysely';
import type { Deps } from '../../../deps.ts';
import type { CallEvent } from '../../../voice/provider.ts';
import { actionStatusFromAnalysis, type ActionStatusRule } from '../../assistants/action-status-rules.ts';

/**
 * A vendor's post-call analysis becomes the call's action_status through its assistant's
 * rules (the first rule that matches), unless the event already says it. Read per batch of
 * events: one query for the assistants of the calls the events name.
 */
export async function withActionStatus(deps: Deps, events: CallEvent[]): Promise<CallEvent[]> {
  const analysed = events.filter((e) => e.analysis && e.actionStatus == null);
  if (analysed.length === 0) return events;
  const callIds = analysed.flatMap((e) => (e.callId === null ? [] : [e.callId]));
  const providerIds = analysed.flatMap((e) => (e.callId === null ? [e.providerCallId] : []));
  // One indexed lookup per way of naming a call (an OR across them, one on the LEFT JOIN's
  // side, makes the planner scan every call: a cost per report that grows with the table).
  const rulesJoin = sql`JOIN campaigns cp ON cp.id = k.campaign_id
    JOIN assistants a ON a.id = coalesce((k.call_data->>'assistant_id')::bigint, cp.assistant_id) AND a.owner_id = k.owner_id`;
  const { rows } = await sql<{ id: number; p: string | null; rules: unknown }>`
    SELECT k.id, NULL::text AS p, a.action_status_rules AS rules FROM calls k ${rulesJoin} WHERE k.id = ANY(${callIds}::bigint[])
    UNION ALL
    SELECT k.id, r.provider_call_id, a.action_status_rules FROM call_provider_refs r JOIN calls k ON k.id = r.call_id ${rulesJoin}
    WHERE r.provider_call_id = ANY(${providerIds}::text[])
    UNION ALL
    SELECT k.id, k.external_session_id, a.action_status_rules FROM calls k ${rulesJoin} WHERE k.external_session_id = ANY(${providerIds}::text[])`.execute(deps.db);
  const byCall = new Map(rows.map((r) => [r.id, r.rules]));
  const byProvider = new Map(rows.filter((r) => r.p).map((r) => [r.p!, r.rules]));
  return events.map((e) => {
    if (!e.analysis || e.actionStatus != null) return e;
    const rules = (e.callId !== null ? byCall.get(e.callId) : byProvider.get(e.providerCallId)) as ActionStatusRule[] | undefined;
    const status = rules ? actionStatusFromAnalysis(rules, e.analysis) : null;
    return status ? { ...e, actionStatus: status, actionStatusReason: `assistant rule on the vendor's analysis` } : e;
  });
}
