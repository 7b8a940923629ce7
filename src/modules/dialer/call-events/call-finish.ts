import { sql, type Transaction } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import type { Deps } from '../../../deps.ts';
import type { TerminalCallStatus, TranscriptTurn } from '../../../voice/provider.ts';
import { enqueueWebhookDeliveries } from '../../webhooks/enqueue-deliveries.ts';
import { retryStep, windowRuleFor } from '../../contact-lifecycle/contact-window.ts';
import { complianceOf, quietBounds, type ComplianceSettings } from '../../compliance/compliance-settings.ts';
import { contactAfterCall, type AttemptOutcome } from '../../contact-lifecycle/after-call.ts';
import { moveContactsAfterCalls, type ContactStep } from '../../contact-lifecycle/contact-lifecycle.repository.ts';
import { FUNDS } from '../../contact-lifecycle/next-action.ts';
import { refreshUsage } from '../../contact-lifecycle/usage-limit.ts';
import { queueTextsAfterCalls } from '../../messaging/follow-ups.ts';
import { failingCampaigns, judgeCampaigns, lockCampaignRows } from '../../breaker/breaker-trip.ts';
import { findOptOut, optOutReason, suppressOptOuts, type OptOutFinding } from './opt-out.ts';
import { insertCallsEnded, insertCampaignEvents } from '../../live/live-events.repository.ts';
import { withOperatorAct, type OperatorAct } from '../../calls/operator-acts.ts';
import { markConsent } from '../../privacy/recording-consent/call-recordings.ts';
import { enqueueCallScores } from '../../quality/scorecards/call-scores.repository.ts';

/**
 * A call's end and what follows from it. Invariant: a call ends once, and with it its
 * contact takes its next step (the status machine), its campaign's usage is refreshed and its
 * webhook deliveries and follow-up texts are written, all in the transaction that ends it.
 *
 * Lock order: the caller holds the call rows (call-locks.ts, id order); then the contacts,
 * FOR UPDATE in id order; then the campaign rows the batch writes or counts under (pauses,
 * usage, the circuit breaker), FOR NO KEY UPDATE in id order before any is written
 * (breaker/breaker-trip.ts lockCampaignRows); then the webhook delivery rows inserted.
 */

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
  /** The vendor's post-call analysis, kept in call_data.analysis. */
  analysis?: Record<string, unknown>;
  /** The assistant or the LLM found an opt-out before the end was applied (see opt-out.ts). */
  optOutBy?: 'assistant' | 'llm';
  /** The vendor asked the person for consent to record (call_data.recording.consent). */
  recordingConsent?: boolean;
  /** The trunk's SIP final response (call_data.sip_response_code). */
  sipCode?: number;
  /** Set by finishCalls: the person asked not to be called again (call_data.opt_out). */
  optOut?: OptOutFinding | null;
}

/** A call row locked FOR UPDATE by the caller, still `in progress`. */
export interface LockedCall {
  id: number;
  status: string;
  contact_id: number;
  campaign_id: number;
  call_type: string | null;
  start_time: Date | null;
  /** The vendor that carried the call (null: the service's default, VOICE_PROVIDER). */
  provider: string | null;
  /** An operator's end or transfer of the call (call_data.operator), read with the lock: it decides the outcome. */
  operator?: OperatorAct | null;
}


type ContactPatch = ContactStep & { attempts: number };

// Every terminal call status is an outcome the lifecycle knows, and no other (both directions).
const sameOutcomes: [TerminalCallStatus, AttemptOutcome] extends [AttemptOutcome, TerminalCallStatus] ? true : never = true;
void sameOutcomes;

/**
 * Ends calls in the caller's transaction, a whole batch in a handful of statements (the
 * event rate is bound by round trips, not by rows): the call rows, their contacts' next
 * step (the status machine in docs/dialer.md), paused campaigns, usage, and the webhook
 * delivery rows. Every call must be locked and `in progress`.
 */
export async function finishCalls(trx: Trx, deps: Deps, items: { call: LockedCall; outcome: CallOutcome }[]): Promise<void> {
  if (items.length === 0) return;
  const now = deps.clock.now();
  const ended = items.map(({ call, outcome: o }) => ({
    call,
    o,
    // The provider's end time, kept within [start, now] (a clock skew cannot move it outside).
    end: o.at && o.at > (call.start_time ?? new Date(0)) && o.at <= now ? o.at : now,
  }));
  // An operator who ended or transferred the call decides its outcome, not the vendor's reading of the hang-up.
  for (const e of ended) e.o = withOperatorAct({ ...e.o, optOut: findOptOut(e.o) }, e.call.operator ?? undefined);
  await updateCallRows(trx, ended);
  for (const { call, o } of ended) if (o.recordingConsent !== undefined) await markConsent(trx, call.id, o.recordingConsent);

  const contacts = await lockContacts(trx, ended.map((e) => e.call.contact_id));
  const campaigns = await readCampaigns(trx, ended.map((e) => e.call.campaign_id));
  const patches: ContactPatch[] = [];
  const optOuts: Parameters<typeof suppressOptOuts>[1] = [];
  const pause = new Set<number>();
  // Quiet hours of the contacts' accounts, read once a retry needs them: a retry is never
  // scheduled (and shown) inside them.
  let compliance: Map<number, ComplianceSettings> | undefined;
  for (const { call, o, end } of ended) {
    const contact = contacts.get(call.contact_id);
    const campaign = campaigns.get(call.campaign_id)!;
    // An opt-out suppresses the number whatever became of the contact meanwhile.
    if (contact && o.optOut) optOuts.push({ ownerId: contact.owner_id, phone: contact.phone_number, callId: call.id, reason: optOutReason(call.id, o.optOut) });
    // A contact someone changed during the call (do_not_disturb, paused...) keeps its new status;
    // a test call (call_type null: the route test) never moved its contact.
    if (!contact || contact.status !== 'in progress' || call.call_type === null) continue;
    // The provider never placed it (refusal, no funds): the attempt does not count.
    const refund = o.refundAttempt === true || o.status === 'insufficient funds';
    const attempts = refund ? Math.max(0, contact.calls_attempts - 1) : contact.calls_attempts;
    const next = contactAfterCall({ callStatus: o.status, callType: call.call_type, attempts, maxAttempts: campaign.max_call_attempts, callInterval: campaign.call_interval, now: end });
    let set: Omit<ContactStep, 'id'>;
    if (o.optOut) {
      // The law before the campaign's retry rules: no follow-up call, whatever the call's status.
      set = { status: 'do_not_disturb', at: null, next: { code: 'suppressed', reason: optOutReason(call.id, o.optOut) } };
    } else if (o.refundAttempt && o.status === 'failed') {
      set = { status: 'call_scheduled', at: new Date(now.getTime() + 60_000), next: { code: 'vendor_refused', reason: 'provider refused the call (retryable); retrying in 1 min, attempt not counted' } };
    } else if (next.kind === 'funds') {
      pause.add(campaign.id);
      set = { status: 'awaiting_queue', at: null, next: FUNDS };
    } else if (next.kind === 'retry') {
      compliance ??= await complianceOf(trx, [...contacts.values()].map((c) => c.owner_id));
      set = retryStep(await windowRuleFor(campaign, contact, quietBounds(compliance.get(contact.owner_id)!)), next);
    } else {
      set = { status: next.status, at: null, next: next.next };
    }
    patches.push({ id: contact.id, attempts, ...set });
    contact.status = set.status; // one contact ends once even if two of its calls end in this batch
  }
  await moveContactsAfterCalls(trx, patches);
  await suppressOptOuts(trx, optOuts);
  // The campaigns the circuit breaker judges: those with a failed call in this batch.
  const failing = failingCampaigns(ended.map(({ call, o }) => ({ campaignId: call.campaign_id, callType: call.call_type, status: o.status })));
  // The campaign rows this batch writes or counts under (pauses, usage, the breaker) are locked
  // in id order before any is written, as every batch does, so two batches cannot deadlock on them.
  await lockCampaignRows(trx, [...campaigns.values()]
    .filter((c) => pause.has(c.id) || failing.has(c.id) || (c.limit_unit !== null && c.limit_value !== null)).map((c) => c.id));
  for (const campaign of [...campaigns.values()].sort((a, b) => a.id - b.id)) {
    if (pause.has(campaign.id)) await trx.updateTable('campaigns').set({ is_paused: true }).where('id', '=', campaign.id).execute();
    if (campaign.limit_unit !== null && campaign.limit_value !== null) await refreshUsage(trx, campaign, now);
  }
  // After the funds pause: a campaign it paused is not judged again (its reason is the funds).
  const trips = await judgeCampaigns(trx, [...failing], now);
  await insertCampaignEvents(trx, [
    ...[...pause].sort((a, b) => a - b).map((campaignId) => ({ campaignId, type: 'campaign.paused' as const, data: { reason: 'insufficient_funds' } })),
    ...trips.map((t) => ({ campaignId: t.campaign_id, type: 'campaign.paused' as const, data: { reason: 'failure_rate', failures: t.failures, attempts: t.attempts, window_seconds: t.window_seconds } })),
  ]);
  // Last: the board shows the contact's step and the call as they commit.
  await insertCallsEnded(trx, ended.map((e) => e.call.id));
  // A test call (call_type null) reached the operator, not a contact: nothing goes to the CRM, is scored or texted.
  const campaignCalls = ended.filter((e) => e.call.call_type !== null);
  await enqueueWebhookDeliveries(trx, campaignCalls.map((e) => e.call.id));
  // After the deliveries: the score waits for them (call-scores.repository.ts), and a card that is off writes nothing.
  await enqueueCallScores(trx, campaignCalls.map((e) => e.call.id));
  await queueTextsAfterCalls(trx, deps.jobWakes, campaignCalls.map(({ call, o, end }) => ({
    callId: call.id, contactId: call.contact_id, campaignId: call.campaign_id, status: o.status,
    actionStatus: o.actionStatus ?? null, callType: call.call_type, end, optedOut: Boolean(o.optOut),
  })));
  for (const { call, o } of ended) deps.metrics.callsEnded.inc({ status: o.status, provider: call.provider ?? deps.voice.name });
}

async function updateCallRows(trx: Trx, ended: { call: LockedCall; o: CallOutcome; end: Date }[]) {
  const col = <T>(f: (e: (typeof ended)[number]) => T) => ended.map(f);
  const data = col(({ o }) => JSON.stringify({
    ended_reason: o.endedReason ?? o.status,
    ...(o.transcript && { transcript: o.transcript }),
    ...(o.analysis && { analysis: o.analysis }),
    ...(o.optOut && { opt_out: o.optOut }),
    ...(o.sipCode !== undefined && { sip_response_code: o.sipCode }),
  }));
  await sql`
    UPDATE calls k SET status = u.status, end_time = u.end_time, call_duration = u.duration, cost = u.cost,
      action_status = u.action_status, action_status_reason = u.action_reason,
      call_ended_by = u.ended_by, call_ended_by_reason = u.ended_reason,
      record_url = coalesce(k.record_url, u.record_url),
      -- The provider's id from the end event, else the one saved at dial time (call_provider_refs).
      external_session_id = coalesce(k.external_session_id, u.provider_id, r.provider_call_id),
      call_data = coalesce(k.call_data, '{}'::jsonb) || u.data::jsonb
        || CASE WHEN coalesce(u.provider_id, r.provider_call_id) IS NULL THEN '{}'::jsonb
                ELSE jsonb_build_object('provider_call_id', coalesce(u.provider_id, r.provider_call_id)) END,
      updated_at = now()
    FROM unnest(
      ${col((e) => e.call.id)}::bigint[], ${col((e) => e.o.status)}::text[], ${col((e) => e.end)}::timestamptz[],
      ${col((e) => e.o.durationSec ?? 0)}::int[], ${col((e) => e.o.cost ?? 0)}::float8[],
      ${col((e) => e.o.actionStatus ?? null)}::text[], ${col((e) => e.o.actionStatusReason ?? null)}::text[],
      ${col((e) => e.o.endedBy ?? null)}::text[], ${col((e) => e.o.endedReason ?? null)}::text[],
      ${col((e) => e.o.recordUrl ?? null)}::text[], ${col((e) => e.o.providerCallId ?? null)}::text[], ${data}::text[]
    ) AS u(id, status, end_time, duration, cost, action_status, action_reason, ended_by, ended_reason, record_url, provider_id, data)
    LEFT JOIN call_provider_refs r ON r.call_id = u.id
    WHERE k.id = u.id`.execute(trx);
}

interface FinishContact {
  id: number;
  status: string;
  calls_attempts: number;
  timezone: string | null;
  phone_number: string;
  owner_id: number;
}

/** Locks the contacts in id order (the dialer's claim and other batches lock the same way). */
async function lockContacts(trx: Trx, ids: number[]): Promise<Map<number, FinishContact>> {
  const { rows } = await sql<FinishContact>`
    SELECT id, status, calls_attempts, timezone, phone_number, owner_id FROM contacts
    WHERE id = ANY(${[...new Set(ids)].sort((a, b) => a - b)}::bigint[]) ORDER BY id FOR UPDATE`.execute(trx);
  return new Map(rows.map((r) => [r.id, r]));
}

async function readCampaigns(trx: Trx, ids: number[]) {
  const rows = await trx.selectFrom('campaigns')
    .select(['id', 'max_call_attempts', 'call_interval', 'work_schedule', 'limit_start', 'limit_end', 'limit_value', 'limit_unit'])
    .select([sql<string | null>`call_allowed_from_time::text`.as('call_allowed_from_time'), sql<string | null>`call_allowed_to_time::text`.as('call_allowed_to_time')])
    .where('id', 'in', [...new Set(ids)]).execute();
  return new Map(rows.map((r) => [r.id, r]));
}
