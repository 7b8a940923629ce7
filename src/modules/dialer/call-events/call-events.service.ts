import { sql, type Transaction } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import type { Deps } from '../../../deps.ts';
import { isTerminalCallStatus, type CallEvent } from '../../../voice/provider.ts';
import { routeKey, type Route } from '../../../voice/registry.ts';
import { finishCalls, type CallOutcome, type LockedCall } from './call-finish.ts';
import { GroupCommitBatcher } from './event-batcher.ts';
import { lockCalls, storeEventIds } from './call-locks.ts';
import { enqueueWebhookDeliveries } from '../../webhooks/enqueue-deliveries.ts';
import { publishCallProgress } from './live-progress.ts';
import { redactCallEvents } from '../../privacy/redaction-policy/redact-call-events.ts';

export { type CallOutcome } from './call-finish.ts';

type Trx = Transaction<Database>;
type Outcome = 'applied' | 'ended' | 'duplicate' | 'unknown';
// Enough to amortise a commit over many calls, small enough to keep row locks short.
const EVENTS_PER_TRANSACTION = 1000;

/** Per Deps (deps.callEventBatchers), so two apps in one process never share a batch. */
export type CallEventBatchers = Map<string, GroupCommitBatcher<CallEvent, Outcome>>;

/**
 * Records provider events. Each event id is stored once (a repeat is ignored); a
 * terminal status is sticky: later events only fill fields that are still empty.
 * Concurrent deliveries are applied together (see event-batcher.ts). Only calls of `route`, the
 * route whose credentials verified the events, are touched (route-scope.ts): an event naming a
 * call of another route is an unknown call's.
 */
export async function applyCallEvents({ deps, route, events: received }: { deps: Deps; route: Route; events: CallEvent[] }) {
  // What the person said is redacted by their call's rule before anything below stores or shows it.
  const events = await redactCallEvents(deps.db, received);
  // Progress events change nothing stored (applyBatch): a vendor's ringing and answered
  // messages and transcript turns, most of its traffic, cost no transaction; the live stream shows them.
  await publishCallProgress(deps, route, events);
  if (!events.some(isStored)) return { applied: events.length, duplicates: 0, unknownCalls: 0 };
  const outcomes = await batcherFor(deps, route).submit(events);
  // A slot may have been freed: wake this process's dialer once the change is committed.
  if (outcomes.includes('ended')) {
    deps.dialerWake.wake();
    deps.live.wake();
  }
  return {
    applied: outcomes.filter((o) => o === 'applied' || o === 'ended').length,
    duplicates: outcomes.filter((o) => o === 'duplicate').length,
    unknownCalls: outcomes.filter((o) => o === 'unknown').length,
  };
}

function batcherFor(deps: Deps, route: Route) {
  const byRoute = deps.callEventBatchers;
  let batcher = byRoute.get(routeKey(route));
  if (!batcher) {
    batcher = new GroupCommitBatcher<CallEvent, Outcome>({
      applyTogether: (events) => applyInOneTransaction(deps, route, events),
      applyAlone: async (events) => {
        try {
          return await applyInOneTransaction(deps, route, events);
        } catch (error) {
          if (events.length === 1) throw error;
          // A deadlock or one bad event must not lose the others: apply them one by one,
          // in the same order a whole batch uses.
          const out: Outcome[] = new Array(events.length);
          for (const { e, i } of inEventOrder(events)) out[i] = (await applyInOneTransaction(deps, route, [e]))[0]!;
          return out;
        }
      },
      maxItems: EVENTS_PER_TRANSACTION,
      maxConcurrent: 2,
    });
    byRoute.set(routeKey(route), batcher);
  }
  return batcher;
}

const isStored = (e: CallEvent) => e.type === 'ended' || e.type === 'recording';

const KIND_ORDER = { ringing: 0, answered: 1, turn: 2, ended: 3, recording: 4 } as const;

/** By call, then time and kind, so one call's events apply in the order they happened. */
function inEventOrder(events: CallEvent[], callOf: (e: CallEvent) => number = (e) => e.callId ?? 0): { e: CallEvent; i: number }[] {
  return events.map((e, i) => ({ e, i }))
    .sort(({ e: a }, { e: b }) => callOf(a) - callOf(b) || a.at.getTime() - b.at.getTime() || KIND_ORDER[a.type] - KIND_ORDER[b.type]);
}

/** Applies events in one transaction (applyBatch puts them in event order); the outcomes are in the events' order. */
function applyInOneTransaction(deps: Deps, route: Route, events: CallEvent[]): Promise<Outcome[]> {
  return deps.db.transaction().execute((trx) => applyBatch(trx, deps, route, events));
}

/**
 * Within one transaction: lock the calls, store the event ids (a repeat is a duplicate),
 * end the calls still in progress, then fill what later events add (recording links,
 * a second end event's fields) where still empty.
 */
async function applyBatch(trx: Trx, deps: Deps, route: Route, events: CallEvent[]): Promise<Outcome[]> {
  const outcomes: Outcome[] = events.map(() => 'applied');
  // Progress events change nothing the API shows; only end and recording events are stored.
  const stored = events.map((e, i) => ({ e, i })).filter(({ e }) => isStored(e));
  if (stored.length === 0) return outcomes;
  const calls = await lockCalls(trx,
    stored.flatMap(({ e }) => (e.callId !== null ? [e.callId] : [])),
    stored.flatMap(({ e }) => (e.callId === null && e.providerCallId ? [e.providerCallId] : [])),
    { route, defaultProvider: deps.config.VOICE_PROVIDER });
  const matched: { e: CallEvent; i: number; call: LockedCall }[] = [];
  for (const { e, i } of stored) {
    const call = (e.callId !== null ? calls.byId.get(e.callId) : calls.byProviderId.get(e.providerCallId)) ?? undefined;
    if (call) matched.push({ e, i, call });
    else outcomes[i] = 'unknown';
  }
  // Events named only by the provider's id now know their call: order them among its other events.
  const callIdOf = new Map(matched.map((m) => [m.e, m.call.id]));
  const ordered = inEventOrder(matched.map((m) => m.e), (e) => callIdOf.get(e)!).map(({ i }) => matched[i]!);
  // Event ids are unique per route, not per vendor: an id another account's connection
  // stored first (it may have learnt the vendor's call id) never shadows this route's event.
  const fresh = await storeEventIds(trx, routeKey(route), matched.map(({ e, call }) => ({ eventId: e.eventId, callId: call.id, type: e.type })));

  const finishes: { call: LockedCall; outcome: CallOutcome }[] = [];
  // Fills of a call still in progress apply before the ends (they happened first); the
  // others after, as one event after another would.
  const fillsBefore = new Map<number, Fill>();
  const fillsAfter = new Map<number, Fill>();
  for (const { e, i, call } of ordered) {
    if (!fresh.delete(e.eventId)) {
      outcomes[i] = 'duplicate';
      continue;
    }
    if (e.type === 'ended' && e.status && call.status === 'in progress') {
      finishes.push({ call, outcome: eventOutcome(e) });
      call.status = e.status;
      outcomes[i] = 'ended';
    } else {
      // Several fills of one call merge, the earliest value of each field winning (as "fill if empty" would).
      const fills = call.status === 'in progress' ? fillsBefore : fillsAfter;
      const prior = fills.get(call.id);
      const next = fillOf(e);
      fills.set(call.id, prior ? mergeFill(prior, next) : next);
    }
  }
  // A fill that follows the end of a call ending in this same batch rides on the end's row
  // update (one write of the row instead of two; vendors under load send the end and the recording together).
  for (const { call, outcome } of finishes) {
    const fill = fillsAfter.get(call.id);
    if (fill && foldFill(outcome, fill)) fillsAfter.delete(call.id);
  }
  await fillEmpty(trx, fillsBefore);
  await finishCalls(trx, deps, finishes);
  await fillEmpty(trx, fillsAfter);
  // An action status that comes after the end (Retell's call_analyzed follows call_ended) may
  // now match an only-interested webhook the end did not; deliveries already written stay as they are.
  await enqueueWebhookDeliveries(trx, [...fillsAfter].flatMap(([id, f]) => (f.ended && f.actionStatus ? [id] : [])));
  return outcomes;
}

function eventOutcome(e: CallEvent): CallOutcome {
  return {
    status: e.status ?? 'failed', at: e.at, providerCallId: e.providerCallId,
    ...(e.durationSec !== undefined && { durationSec: e.durationSec }), ...(e.cost !== undefined && { cost: e.cost }),
    ...(e.transcript && { transcript: e.transcript }), ...(e.actionStatus !== undefined && { actionStatus: e.actionStatus }),
    ...(e.actionStatusReason !== undefined && { actionStatusReason: e.actionStatusReason }), ...(e.endedBy !== undefined && { endedBy: e.endedBy }),
    ...(e.endedReason && { endedReason: e.endedReason }), ...(e.recordUrl && { recordUrl: e.recordUrl }),
    ...(e.analysis && { analysis: e.analysis }), ...(e.refundAttempt && { refundAttempt: true }),
    ...(e.optOutBy && { optOutBy: e.optOutBy }), ...(e.recordingConsent !== undefined && { recordingConsent: e.recordingConsent }),
    ...(e.sipCode !== undefined && { sipCode: e.sipCode }),
  };
}

type Fill = CallOutcome & { ended: boolean };

/** What an event that does not end a call may fill: terminal fields only from an end event. */
function fillOf(e: CallEvent): Fill {
  if (e.type === 'ended') return { ...eventOutcome(e), ended: true };
  return {
    status: e.status ?? 'failed', providerCallId: e.providerCallId, ended: false,
    ...(e.transcript && { transcript: e.transcript }), ...(e.recordUrl && { recordUrl: e.recordUrl }),
  };
}

function mergeFill<T extends Fill>(a: T, b: T): T {
  const out = { ...a } as Record<string, unknown>;
  for (const [k, v] of Object.entries(b)) if (out[k] === undefined || out[k] === null) out[k] = v;
  out.ended = a.ended || b.ended;
  if (!a.transcript?.length && b.transcript?.length) out.transcript = b.transcript;
  return out as T;
}

/**
 * Folds a fill into the end that precedes it, with the result the two writes in a row
 * would give (the end writes its fields, the fill sets only those still empty). Returns
 * false when that cannot be expressed as one write (a transcript that only the fill has
 * depends on what the row held before).
 */
function foldFill(end: CallOutcome, fill: Fill): boolean {
  if (!end.transcript?.length && fill.transcript?.length) return false;
  end.recordUrl ??= fill.recordUrl;
  end.providerCallId ??= fill.providerCallId;
  end.analysis ??= fill.analysis;
  if (fill.ended) {
    // The end always writes duration and cost; action status and ended-by may be empty.
    end.actionStatus ??= fill.actionStatus;
    end.endedBy ??= fill.endedBy;
  }
  return true;
}

/** Ends a call the dialer itself decided about (refused by the provider, reconciled). */
export async function finishCall({ deps, callId, outcome, eventId }: { deps: Deps; callId: number; outcome: CallOutcome; eventId?: string }): Promise<boolean> {
  const done = await deps.db.transaction().execute(async (trx) => {
    const call = (await lockCalls(trx, [callId], [])).byId.get(callId);
    if (!call || call.status !== 'in progress') return false;
    if (eventId) await storeEventIds(trx, 'dialer', [{ eventId, callId, type: 'ended' }]);
    await finishCalls(trx, deps, [{ call, outcome }]);
    return true;
  });
  if (done) {
    deps.dialerWake.wake();
    deps.live.wake();
  }
  return done;
}

/** Fills fields later events add, where the call row has none yet; terminal fields only from end events. */
async function fillEmpty(trx: Trx, fills: Map<number, Fill>) {
  if (fills.size === 0) return;
  const list = [...fills].sort(([a], [b]) => a - b);
  const col = <T>(f: (o: Fill) => T) => list.map(([, o]) => f(o));
  await sql`
    UPDATE calls k SET
      record_url = coalesce(k.record_url, u.record_url),
      external_session_id = coalesce(k.external_session_id, u.provider_id),
      call_duration = CASE WHEN u.ended THEN coalesce(k.call_duration, u.duration) ELSE k.call_duration END,
      cost = CASE WHEN u.ended THEN coalesce(k.cost, u.cost) ELSE k.cost END,
      action_status = CASE WHEN u.ended THEN coalesce(k.action_status, u.action_status) ELSE k.action_status END,
      call_ended_by = CASE WHEN u.ended THEN coalesce(k.call_ended_by, u.ended_by) ELSE k.call_ended_by END,
      call_data = CASE WHEN u.provider_id IS NULL THEN '{}'::jsonb ELSE jsonb_build_object('provider_call_id', u.provider_id) END
        || coalesce(k.call_data, '{}'::jsonb)
        || CASE WHEN u.transcript IS NOT NULL AND coalesce(jsonb_array_length(k.call_data->'transcript'), 0) = 0
             THEN jsonb_build_object('transcript', u.transcript::jsonb) ELSE '{}'::jsonb END
        || CASE WHEN u.analysis IS NOT NULL AND k.call_data->'analysis' IS NULL
             THEN jsonb_build_object('analysis', u.analysis::jsonb) ELSE '{}'::jsonb END,
      updated_at = now()
    FROM unnest(${list.map(([id]) => id)}::bigint[], ${col((o) => o.ended)}::boolean[], ${col((o) => o.recordUrl ?? null)}::text[],
                ${col((o) => o.providerCallId ?? null)}::text[], ${col((o) => o.durationSec ?? null)}::int[], ${col((o) => o.cost ?? null)}::float8[],
                ${col((o) => o.actionStatus ?? null)}::text[], ${col((o) => o.endedBy ?? null)}::text[],
                ${col((o) => (o.transcript?.length ? JSON.stringify(o.transcript) : null))}::text[],
                ${col((o) => (o.analysis ? JSON.stringify(o.analysis) : null))}::text[])
      AS u(id, ended, record_url, provider_id, duration, cost, action_status, ended_by, transcript, analysis)
    WHERE k.id = u.id`.execute(trx);
}

export { isTerminalCallStatus };
