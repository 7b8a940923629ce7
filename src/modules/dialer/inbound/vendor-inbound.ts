import { sql } from 'kysely';
import type { Deps } from '../../../deps.ts';
import { HttpError } from '../../../http/errors.ts';
import { templateContext } from '../../../voice/call-template.ts';
import type { InboundCallRequest, StartCallRequest, VendorAnswer, VoiceProvider } from '../../../voice/provider.ts';
import type { Route } from '../../../voice/registry.ts';
import { normalisePhone } from '../../../shared/phone.ts';
import { promptsOfCalls } from '../../campaigns/campaign-prompts.ts';
import { saveProviderIds } from '../provider-call-ids.ts';
import { spokenContent } from '../../../voice/call-content.ts';
import { assistantsByIds } from '../../assistants/assistants.repository.ts';
import { recordInboundCall } from './inbound-call.ts';
import { campaignsAtSipAddress, sipAddressKey, sipCaller } from './sip-address.ts';

/**
 * A vendor asks which assistant answers a call to one of our numbers (Vapi's assistant-request,
 * Retell's call_inbound). The number's active Inbound campaign whose calls take this route
 * (its assistant's provider and connection; without an assistant, VOICE_PROVIDER's own
 * credentials) answers: the caller is found or created, an inbound call recorded, and the
 * vendor gets the campaign's assistant with the placeholders filled. No such campaign, or the
 * caller already in a call: the vendor's refusal.
 */
export async function answerVendorInbound(deps: Deps, provider: VoiceProvider, route: Route, request: InboundCallRequest): Promise<VendorAnswer> {
  // A call to a SIP address (a Twilio SIP Domain) finds the campaign by its campaign_sip (sip-address.ts).
  const sipTo = sipAddressKey(request.to);
  const sipIds = sipTo ? await campaignsAtSipAddress(deps.db, request.to) : [];
  const number = sipTo ? `sip:${sipTo}` : normalisePhone(request.to, deps.config.DEFAULT_COUNTRY)?.e164 ?? request.to;
  const caller = sipAddressKey(request.from) ? sipCaller(request.from, deps.config.DEFAULT_COUNTRY) : normalisePhone(request.from, deps.config.DEFAULT_COUNTRY)?.e164 ?? request.from;
  const isDefault = route.connectionId === null && route.provider === deps.config.VOICE_PROVIDER;
  const { rows } = await sql<{ id: number; owner_id: number; title: string; description: string | null; campaign_type: string; campaign_phone: string | null; campaign_data: unknown; assistant_id: number | null }>`
    SELECT cp.id, cp.owner_id, cp.title, cp.description, cp.campaign_type, cp.campaign_phone, cp.campaign_data, cp.assistant_id
    FROM campaigns cp LEFT JOIN assistants a ON a.id = cp.assistant_id AND a.owner_id = cp.owner_id
    WHERE cp.campaign_type = 'Inbound' AND NOT cp.is_archive AND NOT cp.is_paused
      AND (${sipIds.length ? sql`cp.id IN (${sql.join(sipIds)})` : sql`FALSE`} OR cp.campaign_phone = ${number} OR EXISTS (
        SELECT 1 FROM phone_numbers p WHERE p.campaign_id = cp.id AND (p.phone_number = ${number} OR p.provider_number_id = ${request.toProviderNumberId})))
      AND ((a.id IS NOT NULL AND a.provider = ${route.provider} AND a.voice_connection_id IS NOT DISTINCT FROM ${route.connectionId}::bigint)
           OR (a.id IS NULL AND ${isDefault}::boolean))
    ORDER BY cp.id LIMIT 1`.execute(deps.db);
  const campaign = rows[0];
  if (!campaign) return provider.answerInbound!(request, null);
  let recorded;
  try {
    recorded = await recordInboundCall(deps, { campaign, caller, number, provider: route.provider, connectionId: route.connectionId, assistantId: campaign.assistant_id });
  } catch (error) {
    if (error instanceof HttpError) return provider.answerInbound!(request, null);
    throw error;
  }
  const context = templateContext({ ...recorded.contact, phone_number: caller }, campaign);
  // The call's own assistant and prompt version: its experiment variant's, else the campaign's.
  const { assistantId, promptHistoryId } = recorded.uses;
  const assistant = assistantId === null ? null : (await assistantsByIds(deps.db, [assistantId])).get(assistantId) ?? null;
  const prompt = (await promptsOfCalls(deps.db, [{ id: recorded.call.id, campaignId: campaign.id, promptHistoryId }])).get(recorded.call.id) ?? null;
  const call: StartCallRequest = {
    callId: recorded.call.id, from: caller, to: number, campaignId: campaign.id, direction: 'inbound',
    contactData: (recorded.contact.contact_data ?? {}) as Record<string, unknown>, ...spokenContent(deps.config.PUBLIC_BASE_URL, { context, prompt, assistant, route }),
  };
  await saveProviderIds(deps.db, [{ callId: recorded.call.id, providerCallId: request.providerCallId }]);
  deps.metrics.callsStarted.inc({ provider: provider.name, direction: 'inbound' });
  return provider.answerInbound!(request, call);
}
