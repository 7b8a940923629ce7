import { sql } from 'kysely';
import type { Deps } from '../../../deps.ts';
import type { Db } from '../../../db/connection.ts';
import { templateContext } from '../../../voice/call-template.ts';
import { spokenContent } from '../../../voice/call-content.ts';
import { assistantsByIds } from '../../assistants/assistants.repository.ts';
import { VoiceProviderError, type StartCallRequest } from '../../../voice/provider.ts';
import { providerFor, routeKey, type Route } from '../../../voice/registry.ts';
import { promptsOfCalls } from '../../campaigns/campaign-prompts.ts';
import { saveProviderIds } from '../provider-call-ids.ts';
import { finishCall } from '../call-events/call-events.service.ts';
import type { ClaimedContact } from './due-contacts-claim.ts';
import type { DialCampaign } from './concurrency-locks.ts';
import { blockRoute } from './vendor-pacing.ts';
import { suppressedReason, suppressionsOf } from '../../contact-lifecycle/reach-law.ts';
import { withdrawAttempt, type ContactStep } from '../../contact-lifecycle/contact-lifecycle.repository.ts';
import { decideRecordings } from '../../privacy/recording-consent/call-recordings.ts';
import { keepSipCallerIds, sipRoutesFor } from './sip-routes.ts';
import { vendorNumberFor } from '../../sip-trunks/vendor-numbers.ts';

/** How long a route waits after a vendor's rate refusal that named no Retry-After. */
const REFUSAL_BACKOFF_MS = 5_000;

export interface StartingCall {
  id: number;
  contact: ClaimedContact;
  campaign: DialCampaign;
  route: Route;
  from: string | null;
  /** The prompt version the call recorded (its variant's under an experiment); null: the campaign has no prompt history. */
  promptHistoryId: number | null;
  /** The assistant the call uses: its variant's, else the campaign's. */
  assistantId: number | null;
  /** A test of the campaign's route (route-test/): refused, it ends with the reason; its contact took no attempt to give back. */
  routeTest?: boolean;
}

/**
 * After the round commits: asks each call's provider to dial, with its assistant and prompt (the
 * ones the round recorded for the call: its experiment variant's, else the campaign's) and the
 * contact's and campaign's placeholders filled. Our call id is the vendor's idempotency key
 * (in the call's metadata); a call whose start failed without a known outcome is left to the
 * reconciler, which asks the vendor for it (findCall) instead of dialling again.
 */
export async function startCalls(deps: Deps, calls: StartingCall[]): Promise<void> {
  // The last look at the do-not-call list: a number suppressed after its call was written is not dialled.
  const suppressed = await suppressionsOf(deps.db, calls.map((c) => ({ ownerId: c.contact.owner_id, phone: c.contact.phone_number })), deps.clock.now());
  if (suppressed.size > 0) {
    const withdrawn = calls.filter((c) => suppressed.has(`${c.contact.owner_id}|${c.contact.phone_number}`));
    for (const call of withdrawn) {
      const reason = suppressedReason(suppressed.get(`${call.contact.owner_id}|${call.contact.phone_number}`)!);
      if (call.routeTest) await endRefusedCall(deps, call.id, new VoiceProviderError('rejected', `${reason}; not dialled`, false));
      else await withdrawSuppressedCall(deps.db, call, reason);
    }
    calls = calls.filter((c) => !withdrawn.includes(c));
    if (calls.length === 0) return;
  }
  const campaignIds = [...new Set(calls.map((c) => c.campaign.id))];
  const [prompts, details, assistants] = await Promise.all([
    promptsOfCalls(deps.db, calls.map((c) => ({ id: c.id, campaignId: c.campaign.id, promptHistoryId: c.promptHistoryId }))),
    deps.db.selectFrom('campaigns').select(['id', 'description', 'campaign_data', 'campaign_sip', 'sip_trunk_id']).where('id', 'in', campaignIds).execute(),
    assistantsByIds(deps.db, calls.flatMap((c) => (c.assistantId === null ? [] : [c.assistantId]))),
  ]);
  const detailOf = new Map(details.map((d) => [d.id, d]));
  // Kept on each call before any is dialled: the vendor may fetch the call's words at once.
  const recordings = await decideRecordings(deps.db, calls.map((c) => ({ id: c.id, campaignId: c.campaign.id, phone: c.contact.phone_number })));
  const sipRoutes = await sipRoutesFor(deps, calls.map((c) => ({ id: c.id, to: c.contact.phone_number, from: c.from, campaign: detailOf.get(c.campaign.id) ?? { id: c.campaign.id, campaign_sip: null, sip_trunk_id: null } })));
  await keepSipCallerIds(deps.db, calls, sipRoutes);
  const started: { callId: number; providerCallId: string }[] = [];
  await Promise.all(calls.map(async (call) => {
    const { id, contact, campaign, route } = call;
    const context = templateContext(contact, { ...campaign, ...detailOf.get(campaign.id) });
    const assistant = call.assistantId === null ? null : assistants.get(call.assistantId) ?? null;
    const prompt = prompts.get(id) ?? null;
    const sip = sipRoutes.get(id);
    const from = sip && !(sip instanceof Error) ? sip.from : call.from;
    const request: StartCallRequest = {
      callId: id, from, fromProviderNumberId: providerNumberId(campaign, from), to: contact.phone_number, campaignId: campaign.id,
      contactData: contact.contact_data ?? {}, direction: 'outbound', ...spokenContent(deps.config.PUBLIC_BASE_URL, { context, prompt, assistant, route }),
      recording: recordings.get(id) ?? null, sip: sip && !(sip instanceof Error) ? sip.sip : null,
    };
    try {
      if (sip instanceof Error) throw sip;
      const provider = await providerFor(deps, route);
      // Vapi and Retell call through a trunk from a number made for it once (vendor-numbers.ts).
      if (request.sip && provider.sipNumbers) request.fromProviderNumberId = await vendorNumberFor(deps, routeKey(route), provider.sipNumbers, request.sip, request.from);
      const result = await provider.startCall(request);
      started.push({ callId: id, providerCallId: result.providerCallId });
      deps.metrics.callsStarted.inc({ provider: provider.name, direction: 'outbound' });
    } catch (error) {
      // A refusal has a known outcome; any other failure leaves the outcome unknown, and
      // the reconciler asks the provider once the call's maximum duration has passed.
      if (!(error instanceof VoiceProviderError)) return;
      if (error.code === 'rate_limited' && !call.routeTest) await withdrawRefusedCall(deps, call, error);
      else await endRefusedCall(deps, id, error);
    }
  }));
  await saveProviderIds(deps.db, started);
}

function providerNumberId(campaign: DialCampaign, from: string | null): string | null {
  if (from === null || !campaign.phones) return null;
  const i = campaign.phones.indexOf(from);
  return i >= 0 ? campaign.phone_ids?.[i] ?? null : null;
}

async function endRefusedCall(deps: Deps, callId: number, error: VoiceProviderError) {
  const status = error.code === 'invalid_number' ? 'invalid number' : error.code === 'insufficient_funds' ? 'insufficient funds' : 'failed';
  await finishCall({
    deps,
    callId,
    outcome: { status, endedReason: `provider refused the call: ${error.code}: ${error.message}`, refundAttempt: error.retryable },
  });
}

/** A call written but not dialled because its number was suppressed meanwhile: no call, no attempt, the contact do_not_disturb. */
async function withdrawSuppressedCall(db: Db, call: StartingCall, reason: string) {
  await withdrawCall(db, call, { status: 'do_not_disturb', at: null, next: { code: 'suppressed', reason: `${reason}; suppressed after the call was queued, not dialled` } });
}

/**
 * The vendor refused for its concurrency or rate limit: no call was placed, so none is kept.
 * The call row goes, its contact returns to the queue with its attempt given back, and the
 * route waits (Retry-After, else REFUSAL_BACKOFF_MS) in every process.
 */
async function withdrawRefusedCall(deps: Deps, call: StartingCall, error: VoiceProviderError) {
  const until = new Date(deps.clock.now().getTime() + (error.retryAfterMs ?? REFUSAL_BACKOFF_MS));
  await blockRoute(deps.db, call.route, until);
  await withdrawCall(deps.db, call, { status: 'call_scheduled', at: until, next: { code: 'vendor_refused', reason: `${call.route.provider} refused the call for its limits (${error.message}); retrying, attempt not counted` } });
  deps.log.warn({ route: routeKey(call.route), until }, 'voice vendor refused a call for its limits; route backs off');
}

/** Removes a call that was never placed and gives its contact's attempt back, with the contact's next step. */
async function withdrawCall(db: Db, call: StartingCall, step: Omit<ContactStep, 'id'>) {
  await db.transaction().execute(async (trx) => {
    // Lock order of an event batch: the call, then its contact.
    const { rows } = await sql<{ id: number }>`SELECT id FROM calls WHERE id = ${call.id} AND status = 'in progress' FOR UPDATE`.execute(trx);
    if (rows.length === 0) return;
    await sql`SELECT id FROM contacts WHERE id = ${call.contact.id} FOR UPDATE`.execute(trx);
    await sql`DELETE FROM calls WHERE id = ${call.id}`.execute(trx);
    await withdrawAttempt(trx, { id: call.contact.id, ...step });
  });
}
