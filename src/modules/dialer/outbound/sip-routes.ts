import { sql } from 'kysely';
import type { Deps } from '../../../deps.ts';
import { VoiceProviderError } from '../../../voice/provider.ts';
import type { SipCallRoute } from '../../../voice/sip-codes.ts';
import { parseSipUri, sipUriForNumber } from '../../../voice/sip-uri.ts';
import { openSipTrunks } from '../../sip-trunks/sip-trunks.repository.ts';

export interface SipCampaign {
  id: number;
  campaign_sip: string | null;
  sip_trunk_id: number | null;
}

/**
 * The SIP route of each outbound call of a campaign with a campaign_sip (issue 29): the trunk's URI
 * with the contact's number, the trunk's credentials, and the caller ID: the one the dialer chose
 * when the trunk owns it (or lists no numbers), else the trunk's first number (a carrier refuses
 * a caller ID it does not own). A campaign_sip stored before it was validated and not a SIP URI
 * is a refusal of the call, with the reason.
 */
export async function sipRoutesFor(deps: Pick<Deps, 'db' | 'secrets'>, calls: { id: number; to: string; from: string | null; campaign: SipCampaign }[]) {
  const routed = calls.filter((c) => c.campaign.campaign_sip);
  const trunks = await openSipTrunks(deps.db, deps.secrets, routed.flatMap((c) => (c.campaign.sip_trunk_id === null ? [] : [Number(c.campaign.sip_trunk_id)])));
  const routes = new Map<number, { sip: SipCallRoute; from: string | null } | VoiceProviderError>();
  for (const call of routed) {
    const parsed = parseSipUri(call.campaign.campaign_sip!);
    if (!parsed.ok) {
      routes.set(call.id, new VoiceProviderError('rejected', `the campaign's campaign_sip is not a SIP route the call can take: ${parsed.msg}`, false));
      continue;
    }
    const trunk = call.campaign.sip_trunk_id === null ? null : trunks.get(Number(call.campaign.sip_trunk_id)) ?? null;
    const owned = trunk?.caller_ids ?? [];
    const from = owned.length === 0 || (call.from !== null && owned.includes(call.from)) ? call.from : owned[0]!;
    routes.set(call.id, {
      from,
      sip: {
        uri: sipUriForNumber(parsed.uri, call.to), trunkUri: call.campaign.campaign_sip!, trunkId: trunk ? Number(trunk.id) : null,
        username: trunk?.username ?? null, password: trunk?.password ?? null, gateways: trunk?.gateways ?? [], callerIds: owned,
      },
    });
  }
  return routes;
}

/**
 * The call rows show the caller ID the trunk call goes out from: the round wrote the dialer's
 * choice (or none, for a vendor that picks its own number) before the route was known.
 */
export async function keepSipCallerIds(db: Deps['db'], calls: { id: number; from: string | null }[], routes: Awaited<ReturnType<typeof sipRoutesFor>>) {
  const changed = calls.flatMap((c) => {
    const route = routes.get(c.id);
    return route && !(route instanceof Error) && route.from !== null && route.from !== c.from ? [{ id: c.id, from: route.from }] : [];
  });
  if (changed.length === 0) return;
  // One statement for the round's calls (one per call cost a trunk campaign a fifth of its dialling rate, bench:sip).
  await sql`
    UPDATE calls k SET from_number = u.f FROM unnest(${changed.map((c) => c.id)}::bigint[], ${changed.map((c) => c.from)}::text[]) AS u(id, f)
    WHERE k.id = u.id`.execute(db);
}
