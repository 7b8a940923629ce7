import { sql } from 'kysely';
import type { Deps } from '../../../deps.ts';
import type { CallEvent, FetchedCall, VoiceProvider } from '../../../voice/provider.ts';
import { providerFor } from '../../../voice/registry.ts';
import { saveProviderIds } from '../provider-call-ids.ts';
import { applyCallEvents, finishCall } from './call-events.service.ts';

/**
 * Nothing stays `in progress` forever: a call older than its provider's longest call plus a
 * margin (no end event came, or the process died around the dial) is settled with the
 * provider's own record (fetchCall; for a call whose vendor id was never saved, found first by
 * our call id with findCall, so a lost answer to startCall never becomes a second call); when
 * the provider cannot tell, the call ends `failed` with a reason and its contact follows the
 * retry rules, as it does when the provider stays unreachable for three times that. A call the
 * provider still reports as live after twice that time is hung up and `terminated`.
 */
/** A call whose provider stays unreachable ends failed after this many reconcile periods. */
const UNREACHABLE_FACTOR = 3;
/**
 * A vendor call without the vendor's id this long after it was written: the answer to its
 * startCall never arrived (the process stopped, the network failed). Well past a startCall's
 * own timeout, so a start still in flight in another process is never taken for one.
 */
export const ORPHAN_AFTER_MS = 30_000;

export async function reconcileStaleCalls({ deps, limit = 100 }: { deps: Deps; limit?: number }): Promise<number> {
  const { rows: routes } = await sql<{ provider: string; connection_id: number | null }>`
    SELECT DISTINCT coalesce(provider, call_data->>'provider', ${deps.config.VOICE_PROVIDER}::text) AS provider, voice_connection_id AS connection_id
    FROM calls WHERE status = 'in progress'`.execute(deps.db);
  let settled = 0;
  for (const route of routes) {
    const provider = await providerFor(deps, { provider: route.provider, connectionId: route.connection_id }).catch(() => null);
    if (provider?.findCall) settled += await adoptOrphans(deps, route, provider, limit);
    settled += await reconcileRoute(deps, route, provider, limit);
  }
  return settled;
}

const routeCalls = (deps: Deps, route: { provider: string; connection_id: number | null }) => deps.db.selectFrom('calls')
  .where('status', '=', 'in progress')
  .where(sql<string>`coalesce(provider, call_data->>'provider', ${deps.config.VOICE_PROVIDER}::text)`, '=', route.provider)
  .where(sql<number | null>`voice_connection_id`, route.connection_id === null ? 'is' : '=', route.connection_id);

/**
 * Vendor calls whose startCall answer never arrived: the vendor is asked by our call id. A call
 * it placed gets its id saved, and is settled at once if the vendor says it already ended (its
 * end came while no process listened); otherwise its events and the reconciler find it; a call
 * it never placed ends `failed` with the attempt given back, so its contact is called again once,
 * not twice. An unreachable vendor is asked again next round.
 */
async function adoptOrphans(deps: Deps, route: { provider: string; connection_id: number | null }, provider: VoiceProvider, limit: number) {
  const before = new Date(deps.clock.now().getTime() - ORPHAN_AFTER_MS);
  const orphans = await routeCalls(deps, route).select('id')
    .where('external_session_id', 'is', null)
    .where((eb) => eb.not(eb.exists(eb.selectFrom('call_provider_refs as r').select('r.call_id').whereRef('r.call_id', '=', 'calls.id'))))
    .where('start_time', '<', before)
    .orderBy('id').limit(limit).execute();
  let settled = 0;
  for (const { id } of orphans) {
    let found: string | null;
    try {
      found = await provider.findCall!(id);
    } catch {
      continue;
    }
    if (found !== null) {
      await saveProviderIds(deps.db, [{ callId: id, providerCallId: found }]);
      // Its end may have come while no process listened (a restart): the vendor's record settles it now.
      const fetched = await provider.fetchCall?.(found, id).catch(() => null);
      if (fetched?.state === 'ended' && (await applyCallEvents({ deps, route: { provider: route.provider, connectionId: route.connection_id }, events: await withAgent(deps, provider, [{ ...fetched.event, callId: id }]) })).applied > 0) settled++;
    } else if (await finishCall({ deps, callId: id, eventId: `reconcile-${id}`, outcome: { status: 'failed', endedReason: 'the vendor never placed the call (its start was interrupted); attempt not counted', refundAttempt: true } })) settled++;
  }
  return settled;
}

async function reconcileRoute(deps: Deps, route: { provider: string; connection_id: number | null }, provider: VoiceProvider | null, limit: number) {
  const now = deps.clock.now();
  // A provider that cannot be used any more (its settings or connection removed) is not asked;
  // its calls end after the unreachable period, by the default provider's clock.
  const after = (provider ?? deps.voice).capabilities.reconcileAfterMs;
  const stale = await routeCalls(deps, route).select(['id', 'start_time'])
    .select((eb) => eb.fn.coalesce('external_session_id', eb.selectFrom('call_provider_refs as r').select('r.provider_call_id').whereRef('r.call_id', '=', 'calls.id')).as('external_session_id'))
    .where('start_time', '<', new Date(now.getTime() - after))
    .orderBy('start_time').limit(limit).execute();
  const age = (call: { start_time: Date | null }) => now.getTime() - (call.start_time?.getTime() ?? 0);
  const end = async (callId: number, outcome: Parameters<typeof finishCall>[0]['outcome']) =>
    (await finishCall({ deps, callId, eventId: `reconcile-${callId}`, outcome })) ? 1 : 0;
  let settled = 0;
  for (const call of stale) {
    let providerCallId = call.external_session_id;
    let fetched: FetchedCall = null;
    try {
      if (!provider) throw new Error('provider not configured');
      if (providerCallId === null && provider.findCall) providerCallId = await provider.findCall(call.id);
      providerCallId ??= provider.findCall ? null : `${provider.name}-${call.id}`;
      fetched = providerCallId !== null && provider.fetchCall ? await provider.fetchCall(providerCallId, call.id) : null;
    } catch {
      // The provider is unreachable: ask again on the next round, but not forever.
      if (age(call) < UNREACHABLE_FACTOR * after) continue;
      settled += await end(call.id, { status: 'failed', endedReason: 'no end event received and the provider could not be reached to settle the call (reconciled)' });
      continue;
    }
    if (fetched?.state === 'ended') {
      await applyCallEvents({ deps, route: { provider: route.provider, connectionId: route.connection_id }, events: await withAgent(deps, provider!, [{ ...fetched.event, callId: call.id }]) });
      // Its record could not end the call (its event was seen already, say): end it here.
      await end(call.id, { status: 'failed', endedReason: "the provider's record of the call did not end it (reconciled)" });
      settled++;
      continue;
    }
    if (fetched?.state === 'in progress') {
      if (age(call) < 2 * after) continue;
      await provider!.hangup(providerCallId!).catch(() => {});
      settled += await end(call.id, { status: 'terminated', endedReason: 'exceeded the maximum call duration; hung up by the dialer', endedBy: 'AI' });
      continue;
    }
    settled += await end(call.id, { status: 'failed', endedReason: 'no end event received and the provider has no record of the call (reconciled)' });
  }
  return settled;
}

/** A call our own agent held keeps what the agent recorded (transcript, outcome) when it is settled here. */
const withAgent = (deps: Deps, provider: VoiceProvider, events: CallEvent[]) => (provider.runsConversation ? deps.completeAgentCallEnds(events) : events);
