import { sql, type Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { Deps } from '../../deps.ts';
import { isTerminalCallStatus, type CallEvent, type TerminalCallStatus, type TranscriptTurn } from '../../voice/provider.ts';
import { enqueueWebhookDeliveries } from '../webhooks/enqueue-deliveries.ts';
import { nextOpening } from './calling-window.ts';
import { windowRuleFor } from './contact-window.ts';
import { contactAfterCall } from './status-machine.ts';
import { refreshUsage } from './usage.ts';
import { NO_WINDOW_REASON, wakeDialer } from './wake.ts';

type Trx = Transaction<Database>;

export interface CallOutcome {
  status: TerminalCallStatus;
  at?: Date;
  durationSec?: number;
  cost?: number;
  transcript?: TranscriptTurn[];
  actionStatus?: string | null;
  actionStatusReason?: string | null;
  endedBy?: string | null;
  endedReason?: string;
  recordUrl?: string;
  providerCallId?: string;
  /** The provider never placed the call: the attempt is not counted. */
  refundAttempt?: boolean;
}

export const FUNDS_REASON = 'campaign paused: insufficient funds with the voice provider';

/**
 * Records provider events. Each event id is stored once (a repeat is ignored); a
 * terminal status is sticky: later events only fill fields that are still empty.
 */
export async function applyCallEvents({ deps, provider, events }: { deps: Deps; provider: string; events: CallEvent[] }) {
  // One transaction per delivery (a vendor batches events): commits, not queries, bound
  // the event rate. Calls are locked in id order so two batches cannot deadlock on them.
  const order = { ringing: 0, answered: 1, ended: 2, recording: 3 } as const;
  const sorted = [...events].sort((a, b) => (a.callId ?? 0) - (b.callId ?? 0) || a.at.getTime() - b.at.getTime() || order[a.type] - order[b.type]);
  let outcomes: Outcome[];
  try {
    outcomes = await deps.db.transaction().execute(async (trx) => {
      const out: Outcome[] = [];
      for (const event of sorted) out.push(await applyOne(trx, deps, provider, event));
      return out;
    });
  } catch (error) {
    if (sorted.length === 1) throw error;
    // A deadlock or one bad event must not lose the others: apply them one by one.
    outcomes = [];
    for (const event of sorted) outcomes.push(await deps.db.transaction().execute((trx) => applyOne(trx, deps, provider, event)));
  }
  // A slot may have been freed: wake this process's dialer once the change is committed.
  if (outcomes.includes('ended')) wakeDialer();
  return {
    applied: outcomes.filter((o) => o === 'applied' || o === 'ended').length,
    duplicates: outcomes.filter((o) => o === 'duplicate').length,
    unknownCalls: outcomes.filter((o) => o === 'unknown').length,
  };
}

type Outcome = 'applied' | 'ended' | 'duplicate' | 'unknown';

async function applyOne(trx: Trx, deps: Deps, provider: string, event: CallEvent): Promise<Outcome> {
  // Progress events change nothing the API shows; only end and recording events are stored.
  if (event.type === 'ringing' || event.type === 'answered') return 'applied';
  const call = await lockCall(trx, event.callId, event.providerCallId);
  if (!call) return 'unknown';
  const fresh = await trx.insertInto('voice_events')
    .values({ provider, event_id: event.eventId, call_id: call.id, event_type: event.type })
    .onConflict((oc) => oc.doNothing()).returning('event_id').executeTakeFirst();
  if (!fresh) return 'duplicate';
  if (event.type === 'ended' && event.status && call.status === 'in progress') {
    await finishInTrx(trx, deps, call, eventOutcome(event));
    call.status = event.status;
    return 'ended';
  }
  await fillEmpty(trx, call.id, eventOutcome(event), event);
  return 'applied';
}

function eventOutcome(e: CallEvent): CallOutcome {
  return {
    status: e.status ?? 'failed', at: e.at, providerCallId: e.providerCallId,
    ...(e.durationSec !== undefined && { durationSec: e.durationSec }), ...(e.cost !== undefined && { cost: e.cost }),
    ...(e.transcript && { transcript: e.transcript }), ...(e.actionStatus !== undefined && { actionStatus: e.actionStatus }),
    ...(e.actionStatusReason !== undefined && { actionStatusReason: e.actionStatusReason }), ...(e.endedBy !== undefined && { endedBy: e.endedBy }),
    ...(e.endedReason && { endedReason: e.endedReason }), ...(e.recordUrl && { recordUrl: e.recordUrl }),
  };
}

interface LockedCall {
  id: number;
  status: string;
  contact_id: number;
  campaign_id: number;
  call_type: string | null;
  start_time: Date | null;
}

async function lockCall(trx: Trx, callId: number | null, providerCallId: string | null): Promise<LockedCall | undefined> {
  let q = trx.selectFrom('calls').select(['id', 'status', 'contact_id', 'campaign_id', 'call_type', 'start_time']).forUpdate();
  if (callId !== null) q = q.where('id', '=', callId);
  else if (providerCallId) q = q.where('external_session_id', '=', providerCallId);
  else return undefined;
  return q.executeTakeFirst();
}

/** Ends a call the dialer itself decided about (refused by the provider, reconciled). */
export async function finishCall({ deps, callId, outcome, eventId }: { deps: Deps; callId: number; outcome: CallOutcome; eventId?: string }): Promise<boolean> {
  return deps.db.transaction().execute(async (trx) => {
    const call = await lockCall(trx, callId, null);
    if (!call || call.status !== 'in progress') return false;
    if (eventId) {
      await trx.insertInto('voice_events').values({ provider: 'dialer', event_id: eventId, call_id: call.id, event_type: 'ended' })
        .onConflict((oc) => oc.doNothing()).execute();
    }
    await finishInTrx(trx, deps, call, outcome);
    return true;
  }).then((done) => {
    if (done) wakeDialer();
    return done;
  });
}

async function fillEmpty(trx: Trx, callId: number, o: CallOutcome, event: CallEvent) {
  const patch: Record<string, unknown> = {};
  if (o.providerCallId) patch.provider_call_id = o.providerCallId;
  await sql`
    UPDATE calls SET
      record_url = coalesce(record_url, ${o.recordUrl ?? null}),
      external_session_id = coalesce(external_session_id, ${o.providerCallId ?? null}),
      ${event.type === 'ended' ? sql`
      call_duration = coalesce(call_duration, ${o.durationSec ?? null}::int),
      cost = coalesce(cost, ${o.cost ?? null}::float8),
      action_status = coalesce(action_status, ${o.actionStatus ?? null}),
      call_ended_by = coalesce(call_ended_by, ${o.endedBy ?? null}),` : sql``}
      call_data = ${JSON.stringify(patch)}::jsonb || coalesce(call_data, '{}'::jsonb)
        ${o.transcript?.length ? sql`|| CASE WHEN coalesce(jsonb_array_length(call_data->'transcript'), 0) = 0 THEN jsonb_build_object('transcript', ${JSON.stringify(o.transcript)}::jsonb) ELSE '{}'::jsonb END` : sql``},
      updated_at = now()
    WHERE id = ${callId}`.execute(trx);
}

async function finishInTrx(trx: Trx, deps: Deps, call: LockedCall, o: CallOutcome) {
  const now = deps.clock.now();
  // The provider's end time, kept within [start, now] (a clock skew cannot move it outside).
  const end = o.at && o.at > (call.start_time ?? new Date(0)) && o.at <= now ? o.at : now;
  const data: Record<string, unknown> = { ended_reason: o.endedReason ?? o.status };
  if (o.transcript) data.transcript = o.transcript;
  if (o.providerCallId) data.provider_call_id = o.providerCallId;
  await sql`
    UPDATE calls SET status = ${o.status}, end_time = ${end}, call_duration = ${o.durationSec ?? 0}::int, cost = ${o.cost ?? 0}::float8,
      action_status = ${o.actionStatus ?? null}, action_status_reason = ${o.actionStatusReason ?? null},
      call_ended_by = ${o.endedBy ?? null}, call_ended_by_reason = ${o.endedReason ?? null},
      record_url = coalesce(record_url, ${o.recordUrl ?? null}),
      external_session_id = coalesce(external_session_id, ${o.providerCallId ?? null}),
      call_data = coalesce(call_data, '{}'::jsonb) || ${JSON.stringify(data)}::jsonb, updated_at = now()
    WHERE id = ${call.id}`.execute(trx);

  const contact = await trx.selectFrom('contacts').select(['id', 'status', 'calls_attempts', 'timezone', 'phone_number']).where('id', '=', call.contact_id).forUpdate().executeTakeFirst();
  const campaign = await trx.selectFrom('campaigns')
    .select(['id', 'max_call_attempts', 'call_interval', 'work_schedule', 'limit_start', 'limit_end', 'limit_value', 'limit_unit'])
    .select([sql<string | null>`call_allowed_from_time::text`.as('call_allowed_from_time'), sql<string | null>`call_allowed_to_time::text`.as('call_allowed_to_time')])
    .where('id', '=', call.campaign_id).executeTakeFirstOrThrow();
  // A contact someone changed during the call (do_not_disturb, paused...) keeps its new status.
  if (contact && contact.status === 'in progress') {
    // The provider never placed it (refusal, no funds): the attempt does not count.
    const refund = o.refundAttempt === true || o.status === 'insufficient funds';
    const attempts = refund ? Math.max(0, contact.calls_attempts - 1) : contact.calls_attempts;
    const next = contactAfterCall({ callStatus: o.status, callType: call.call_type, attempts, maxAttempts: campaign.max_call_attempts, callInterval: campaign.call_interval, now: end });
    let set: { status: string; next_action_time: Date | null; next_action_reason: string };
    if (o.refundAttempt && o.status === 'failed') {
      set = { status: 'call_scheduled', next_action_time: new Date(now.getTime() + 60_000), next_action_reason: `provider refused the call (retryable); retrying in 1 min, attempt not counted` };
    } else if (next.kind === 'funds') {
      await trx.updateTable('campaigns').set({ is_paused: true }).where('id', '=', campaign.id).execute();
      set = { status: 'awaiting_queue', next_action_time: null, next_action_reason: FUNDS_REASON };
    } else if (next.kind === 'retry') {
      const rule = await windowRuleFor(campaign, contact);
      const at = nextOpening(rule, next.at);
      set = at ? { status: 'call_scheduled', next_action_time: at, next_action_reason: at > next.at ? `${next.reason}; moved to the next calling window` : next.reason } : { status: 'awaiting_queue', next_action_time: null, next_action_reason: NO_WINDOW_REASON };
    } else {
      set = { status: next.status, next_action_time: null, next_action_reason: next.reason };
    }
    await trx.updateTable('contacts')
      .set({ ...set, calls_attempts: attempts, updated_at: sql<Date>`now()` })
      .where('id', '=', contact.id).execute();
  }
  if (campaign.limit_unit !== null && campaign.limit_value !== null) await refreshUsage(trx, campaign, now);
  await enqueueWebhookDeliveries(trx, call.id);
}

export { isTerminalCallStatus };
