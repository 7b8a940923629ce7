
import type { Deps } from '../../../deps.ts';
import { applyCallEvents, finishCall } from './call-events.service.ts';

/**
 * Nothing stays `in progress` forever: a call older than the provider's longest call
 * plus a margin (no end event came, or the process died around the dial) is settled
 * with the provider's own record (fetchCall); when the provider cannot tell, the call
 * ends `failed` with a reason and its contact follows the retry rules, as it does when the
 * provider stays unreachable for three times that. A call the provider still reports as
 * live after twice that time is hung up and `terminated`.
 */
/** A call whose provider stays unreachable ends failed after this many reconcile periods. */
const UNREACHABLE_FACTOR = 3;

export async function reconcileStaleCalls({ deps, limit = 100 }: { deps: Deps; limit?: number }): Promise<number> {
  const now = deps.clock.now();
  const after = deps.voice.capabilities.reconcileAfterMs;
  const stale = await deps.db.selectFrom('calls').select(['id', 'start_time'])
    .select((eb) => eb.fn.coalesce('external_session_id', eb.selectFrom('call_provider_refs as r').select('r.provider_call_id').whereRef('r.call_id', '=', 'calls.id')).as('external_session_id'))
    .where('status', '=', 'in progress')
    .where('start_time', '<', new Date(now.getTime() - after))
    .orderBy('start_time').limit(limit).execute();
  const age = (call: { start_time: Date | null }) => now.getTime() - (call.start_time?.getTime() ?? 0);
  let settled = 0;
  for (const call of stale) {
    const providerCallId = call.external_session_id ?? `${deps.voice.name}-${call.id}`;
    let fetched = null;
    try {
      fetched = deps.voice.fetchCall ? await deps.voice.fetchCall(providerCallId, call.id) : null;
    } catch {
      // The provider is unreachable: ask again on the next round, but not forever.
      if (age(call) < UNREACHABLE_FACTOR * after) continue;
      if (await finishCall({ deps, callId: call.id, eventId: `reconcile-${call.id}`, outcome: { status: 'failed', endedReason: 'no end event received and the provider could not be reached to settle the call (reconciled)' } })) settled++;
      continue;
    }
    if (fetched?.state === 'ended') {
      await applyCallEvents({ deps, provider: deps.voice.name, events: [{ ...fetched.event, callId: call.id }] });
      // Its record could not end the call (its event was seen already, say): end it here.
      await finishCall({ deps, callId: call.id, eventId: `reconcile-${call.id}`, outcome: { status: 'failed', endedReason: "the provider's record of the call did not end it (reconciled)" } });
      settled++;
      continue;
    }
    if (fetched?.state === 'in progress') {
      if (age(call) < 2 * after) continue;
      await deps.voice.hangup(providerCallId).catch(() => {});
      if (await finishCall({ deps, callId: call.id, eventId: `reconcile-${call.id}`, outcome: { status: 'terminated', endedReason: 'exceeded the maximum call duration; hung up by the dialer', endedBy: 'AI' } })) settled++;
      continue;
    }
    if (await finishCall({ deps, callId: call.id, eventId: `reconcile-${call.id}`, outcome: { status: 'failed', endedReason: 'no end event received and the provider has no record of the call (reconciled)' } })) settled++;
  }
  return settled;
}

