import { sql, type Transaction } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import type { Deps } from '../../../deps.ts';
import { conflict, HttpError } from '../../../http/errors.ts';
import { providerFor, VoiceNotConfiguredError } from '../../../voice/registry.ts';
import { promptVersionsFor } from '../../campaigns/campaign-prompts.ts';
import { capVerdicts, type FrequencyCaps } from '../../contact-lifecycle/reach-law.ts';
import { insertContacts } from '../../contacts/contacts.repository.ts';
import { insertCallsStarted } from '../../live/live-events.repository.ts';
import { accountBusyReason, lockAccountCapacity, outboundRoom } from '../account-capacity.ts';
import { routeOf } from '../outbound/call-routes.ts';
import { lockCampaigns, lockGlobalRoom, type DialCampaign } from '../outbound/concurrency-locks.ts';
import type { ClaimedContact } from '../outbound/due-contacts-claim.ts';
import type { StartingCall } from '../outbound/start-calls.ts';
import { isPaced, takeRouteSlots } from '../outbound/vendor-pacing.ts';

type Trx = Transaction<Database>;

/** The call to write: the number, the time, and the account's frequency caps (read once by the caller, not per lock attempt). */
interface RouteTestCallInput {
  campaignId: number;
  phone: string;
  now: Date;
  caps: FrequencyCaps;
}

/** How often, and how far apart, the campaign's dialer lock is tried while a round holds it. */
const CAMPAIGN_LOCK_TRIES = 40;
const CAMPAIGN_LOCK_PAUSE_MS = 50;

const tooBusy = (why: string) => new HttpError(429, `Not now: ${why}. The test call counts like any call; try again when a call ends`);

/**
 * Writes the test call's row under the dialer's locks, in a dialling round's order
 * (concurrency-locks.ts): the service-wide cap (waited), the campaign's lock (tried, as a round
 * tries it: nobody waits for a campaign lock, so a held one is tried again in a new transaction),
 * the account's capacity (waited), the number's frequency-cap lock, the vendor route's pacing row,
 * then the call row. The limits are counted under them, so a test call never takes a campaign,
 * account, service, number or vendor over its cap. The call is to the campaign's contact with that number, else to one made for it with
 * status finished (never queued by this); the contact's status is not touched, so the call's end
 * takes no step for it (call-finish.ts skips a test call's contact).
 */
export async function writeRouteTestCall(deps: Deps, input: RouteTestCallInput): Promise<StartingCall> {
  for (let attempt = 0; attempt < CAMPAIGN_LOCK_TRIES; attempt++) {
    const written = await deps.db.transaction().execute((trx) => writeUnderLocks(trx, deps, input));
    if (written) return written;
    await new Promise((resolve) => setTimeout(resolve, CAMPAIGN_LOCK_PAUSE_MS));
  }
  throw tooBusy('the dialer is busy with this campaign');
}

async function writeUnderLocks(trx: Trx, deps: Deps, input: RouteTestCallInput): Promise<StartingCall | null> {
  if (deps.config.MAX_CONCURRENT_CALLS > 0 && (await lockGlobalRoom(trx, deps.config.MAX_CONCURRENT_CALLS)) <= 0) {
    throw tooBusy(`the service's ${deps.config.MAX_CONCURRENT_CALLS} concurrent calls (MAX_CONCURRENT_CALLS) are in use`);
  }
  const campaign = (await lockCampaigns(trx, [input.campaignId])).get(input.campaignId);
  if (!campaign) return null;
  if (campaign.concurrent_call_limit && campaign.live >= campaign.concurrent_call_limit) {
    throw tooBusy(`the campaign's ${campaign.concurrent_call_limit} concurrent calls (concurrent_call_limit) are in use`);
  }
  const capacity = (await lockAccountCapacity(trx, [campaign.owner_id])).get(campaign.owner_id);
  if (capacity && outboundRoom(capacity) <= 0) throw tooBusy(accountBusyReason(capacity));
  // The number's frequency caps, counted under its lock as a round counts them (test calls count too).
  const { caps } = input;
  const allowedAt = (await capVerdicts(trx, [{ ownerId: campaign.owner_id, phone: input.phone }], new Map([[campaign.owner_id, caps]]), input.now)).get(`${campaign.owner_id}|${input.phone}`);
  if (allowedAt) {
    throw conflict(`${input.phone} has had ${caps.maxPerDay} calls in 24 hours or ${caps.maxPerWeek} in 7 days from this account (the frequency caps, test calls included); the next is allowed at ${allowedAt.toISOString()}`);
  }
  const route = routeOf(campaign, deps.config.VOICE_PROVIDER);
  const provider = await providerFor(deps, route).catch((error: unknown) => {
    if (error instanceof VoiceNotConfiguredError) throw conflict(`The campaign's voice provider cannot place calls: ${error.message}`);
    throw error;
  });
  if (isPaced(provider.pacing)) {
    const { granted, retryAt } = await takeRouteSlots(trx, deps, route, provider.pacing, 1, input.now);
    if (granted === 0) throw tooBusy(`${route.provider}'s lines for this account are in use (vendor pacing) until about ${retryAt.toISOString()}`);
  }
  const contact = await contactFor(trx, campaign, input.phone);
  const version = (await promptVersionsFor(trx, [campaign.id])).get(campaign.id) ?? null;
  const from = campaign.phones?.[0] ?? campaign.campaign_phone;
  const callData = { provider: route.provider, ...(campaign.assistant_id !== null && { assistant_id: campaign.assistant_id }), route_test: true };
  // call_type NULL: a test call (the analytics' `none`). The unique live-call indexes refuse a
  // second call to the number or the contact while one is in progress.
  const { rows } = await sql<{ id: number }>`
    INSERT INTO calls (owner_id, campaign_id, contact_id, status, from_number, to_number, start_time, call_type, campaign_title, contact_data, call_data, provider, voice_connection_id, prompt_history_id)
    VALUES (${campaign.owner_id}, ${campaign.id}, ${contact.id}, 'in progress', ${from}, ${input.phone}, ${input.now}, NULL, ${campaign.title},
            ${JSON.stringify(contact.contact_data ?? {})}::jsonb, ${JSON.stringify(callData)}::jsonb, ${route.provider}, ${route.connectionId}, ${version})
    ON CONFLICT DO NOTHING RETURNING id`.execute(trx);
  if (!rows[0]) throw conflict(`${input.phone} is in a call now; test again when it ends`);
  await insertCallsStarted(trx, [rows[0].id]);
  return { id: Number(rows[0].id), contact, campaign, route, from, promptHistoryId: version, assistantId: campaign.assistant_id, routeTest: true };
}

/** The campaign's contact with the number, else one made for the test (status finished: nothing queues it). */
async function contactFor(trx: Trx, campaign: DialCampaign, phone: string): Promise<ClaimedContact> {
  const find = () => trx.selectFrom('contacts')
    .select(['id', 'campaign_id', 'owner_id', 'phone_number', 'timezone', 'contact_data', 'calls_attempts', 'status', 'next_action_time'])
    .where('campaign_id', '=', campaign.id).where('phone_number', '=', phone).executeTakeFirst();
  let row = await find();
  if (!row) {
    await insertContacts(trx, campaign.owner_id, [{
      campaign_id: campaign.id, phone_number: phone, status: 'finished', contact_data: {}, creation_method: 'manual', source: 'route_test',
      next_action_code: 'completed', next_action_reason: 'made for a test of the campaign\'s SIP route; not queued',
    }]);
    row = await find();
    if (!row) throw conflict(`${phone} could not be written as a contact of this campaign; try again`);
  }
  return {
    id: Number(row.id), campaign_id: Number(row.campaign_id), owner_id: Number(row.owner_id), phone_number: row.phone_number, timezone: row.timezone,
    contact_data: (row.contact_data ?? null) as Record<string, unknown> | null, calls_attempts: row.calls_attempts ?? 0, status: row.status,
    next_action_time: row.next_action_time ?? new Date(0),
  };
}
