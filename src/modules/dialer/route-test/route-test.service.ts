import type { Deps } from '../../../deps.ts';
import { conflict, forbidden, HttpError } from '../../../http/errors.ts';
import { requirePhone } from '../../../shared/phone.ts';
import { parseSipUri, sipUriForNumber } from '../../../voice/sip-uri.ts';
import type { Principal } from '../../auth/principal.ts';
import { recordAudit, type AuditRequest } from '../../audit/audit.service.ts';
import { requireCampaign } from '../../campaigns/campaign-access.ts';
import { complianceOf, quietBounds } from '../../compliance/compliance-settings.ts';
import { isOpen, isUnrestricted, nextOpening } from '../../contact-lifecycle/calling-window.ts';
import { windowRuleFor } from '../../contact-lifecycle/contact-window.ts';
import { suppressedReason, suppressionsOf } from '../../contact-lifecycle/reach-law.ts';
import { startCalls } from '../outbound/start-calls.ts';
import { writeRouteTestCall } from './route-test-call.ts';
import type { RouteTestAnswer } from './route-test.operations.ts';

/**
 * "Test the route" (issue 29): one call, now, from an Outbound campaign through its campaign_sip
 * (and SIP trunk) to a number the operator types, so the trunk's answer (call_data.sip_response_code)
 * is seen before the campaign calls anyone. It is a test call: call_type null (the analytics'
 * `none`), no attempt, no webhook, score or text, its contact's status untouched. The law holds as
 * for any call (do-not-call, the number's calling window and quiet hours, the frequency caps, which
 * count test calls) and so do the limits (the
 * campaign's concurrent calls, the account's cap, the vendor's pacing). Owner only: it is a call at
 * the account's cost through its carrier credentials, audited (sip_trunk.route_tested).
 */
export async function testCampaignRoute(deps: Deps, input: { principal: Principal; campaignId: number; phoneNumber: string; request?: AuditRequest }): Promise<RouteTestAnswer> {
  const { principal } = input;
  const campaign = await requireCampaign(deps.db, principal, input.campaignId);
  if (principal.kind !== 'user') throw forbidden();
  if (!campaign.campaign_sip) throw conflict('The campaign has no campaign_sip: set the SIP route (and its trunk) first, then test it');
  if (campaign.campaign_type !== 'Outbound') throw conflict('An Inbound campaign\'s campaign_sip is the address callers reach it on; test it by calling that address');
  if (campaign.is_archive) throw conflict('The campaign is archived; unarchive it to test its route');
  const parsed = parseSipUri(campaign.campaign_sip);
  if (!parsed.ok) throw conflict(`The campaign's campaign_sip is not a SIP route a call can take: ${parsed.msg}`);
  const phone = requirePhone(input.phoneNumber, deps.config.DEFAULT_COUNTRY, ['body', 'phone_number']).e164;
  const now = deps.clock.now();
  const suppressed = (await suppressionsOf(deps.db, [{ ownerId: campaign.owner_id, phone }], now)).get(`${campaign.owner_id}|${phone}`);
  if (suppressed) throw conflict(`${phone} is on the account's do-not-call list (${suppressedReason(suppressed)}); it is not called, not even to test`);
  const compliance = (await complianceOf(deps.db, [campaign.owner_id])).get(campaign.owner_id)!;
  // In the zone of the campaign's contact with the number when there is one (its timezone may be set), else the number's.
  const known = await deps.db.selectFrom('contacts').select(['timezone', 'status']).where('campaign_id', '=', campaign.id).where('phone_number', '=', phone).executeTakeFirst();
  if (known?.status === 'do_not_disturb') throw conflict(`${phone} is a contact of this campaign who is not to be called (do_not_disturb); it is not called, not even to test`);
  const rule = await windowRuleFor(campaign, { timezone: known?.timezone ?? null, phone_number: phone }, quietBounds(compliance));
  if (!isUnrestricted(rule) && !isOpen(rule, now)) {
    const next = nextOpening(rule, now);
    throw conflict(`${phone} is outside the campaign's calling window and the account's quiet hours now (${rule.zones.join(', ')}); ${next ? `it opens at ${next.toISOString()}` : 'the window never opens'}`);
  }

  const starting = await writeRouteTestCall(deps, { campaignId: campaign.id, phone, now, caps: compliance });
  await recordAudit(deps.db, {
    principal, request: input.request, kind: 'sip_trunk.route_tested', subject: { type: 'campaign', id: campaign.id },
    details: { call_id: starting.id, sip_trunk_id: campaign.sip_trunk_id === null ? null : Number(campaign.sip_trunk_id) },
  });
  deps.live.wake();
  await startCalls(deps, [starting]);
  const call = await deps.db.selectFrom('calls').select(['id', 'status', 'from_number', 'to_number', 'call_data', 'call_ended_by_reason'])
    .where('id', '=', starting.id).executeTakeFirst();
  if (!call) throw new HttpError(500, 'The test call was withdrawn before it started');
  const data = (call.call_data ?? {}) as { sip_response_code?: number; ended_reason?: string };
  return {
    call_id: Number(call.id), status: call.status, from_number: call.from_number, to_number: call.to_number ?? phone,
    sip_uri: sipUriForNumber(parsed.uri, phone), sip_response_code: data.sip_response_code ?? null,
    ended_reason: call.status === 'in progress' ? null : call.call_ended_by_reason ?? data.ended_reason ?? null,
  };
}
