import { sql } from 'kysely';
import type { Deps } from '../../../deps.ts';
import { HttpError } from '../../../http/errors.ts';
import { requirePhone } from '../../../shared/phone.ts';
import { hasInProcessCalls } from '../../../voice/provider.ts';
import type { Principal } from '../../auth/principal.ts';
import { campaignVisibleTo } from '../../campaigns/campaign-access.ts';
import { promptsOfCalls } from '../../campaigns/campaign-prompts.ts';
import { saveProviderIds } from '../provider-call-ids.ts';
import { recordInboundCall } from './inbound-call.ts';
import { campaignsAtSipAddress, sipAddressKey, sipCaller } from './sip-address.ts';

/**
 * The simulator's inbound call to one of an Inbound campaign's numbers (recordInboundCall).
 * Afterwards the contact ends `finished` after a conversation and otherwise takes the final
 * status of the table (no call-back retries).
 */
export async function simulateInbound({ deps, principal, from, to }: { deps: Deps; principal: Principal; from: string; to: string }) {
  if (deps.voice.name !== 'sim' || !hasInProcessCalls(deps.voice)) throw new HttpError(404, 'Not Found');
  const caller = sipAddressKey(from) ? sipCaller(from, deps.config.DEFAULT_COUNTRY) : requirePhone(from, deps.config.DEFAULT_COUNTRY, ['body', 'from']).e164;
  // `to` may be an Inbound campaign's SIP address (its campaign_sip): the campaign is found by it.
  const sipTo = sipAddressKey(to);
  const sipIds = sipTo ? await campaignsAtSipAddress(deps.db, to) : [];
  const number = sipTo ? `sip:${sipTo}` : requirePhone(to, deps.config.DEFAULT_COUNTRY, ['body', 'to']).e164;
  const campaign = await deps.db
    .selectFrom('campaigns')
    .select(['campaigns.id', 'campaigns.owner_id', 'campaigns.title'])
    .where(campaignVisibleTo(principal, 'campaigns.id', 'campaigns.owner_id'))
    .where('campaigns.campaign_type', '=', 'Inbound')
    .where('campaigns.is_archive', '=', false)
    .where('campaigns.is_paused', '=', false)
    .where((eb) => eb.or([
      ...(sipIds.length ? [eb('campaigns.id', 'in', sipIds)] : []),
      eb('campaigns.campaign_phone', '=', number),
      eb.exists(eb.selectFrom('phone_numbers as p').select(sql<number>`1`.as('one')).whereRef('p.campaign_id', '=', 'campaigns.id').where('p.phone_number', '=', number)),
    ]))
    .orderBy('campaigns.id')
    .limit(1)
    .executeTakeFirst();
  if (!campaign) throw new HttpError(404, sipTo ? 'No active Inbound campaign has this SIP address (campaign_sip)' : 'No active Inbound campaign owns this number');

  const result = await recordInboundCall(deps, { campaign, caller, number, provider: deps.voice.name, connectionId: null, assistantId: null });
  const prompts = await promptsOfCalls(deps.db, [{ id: result.call.id, campaignId: campaign.id, promptHistoryId: result.uses.promptHistoryId }]);
  const started = await deps.voice.startCall({
    callId: result.call.id, from: caller, to: number, campaignId: campaign.id, prompt: prompts.get(result.call.id) ?? null,
    contactData: (result.contact.contact_data ?? {}) as Record<string, unknown>, direction: 'inbound',
  });
  deps.metrics.callsStarted.inc({ provider: deps.voice.name, direction: 'inbound' });
  await saveProviderIds(deps.db, [{ callId: result.call.id, providerCallId: started.providerCallId }]);
  return { call_id: result.call.id, contact_id: result.contact.id, campaign_id: campaign.id, contact_created: result.created, status: 'in progress', start_time: result.call.start_time };
}
