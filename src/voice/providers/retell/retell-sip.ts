import type { PhoneNumberImportParams, PhoneNumberUpdateParams } from 'retell-sdk/resources/phone-number';
import type { SipCallRoute } from '../../sip-codes.ts';
import { parseSipUri } from '../../sip-uri.ts';

/**
 * Retell's side of a customer's SIP trunk (issue 29), pure: Retell sends calls through a trunk from
 * a number imported with the trunk's termination URI (`host[:port]`, as Retell writes a Twilio
 * elastic trunk's `….pstn.twilio.com`), its transport (TLS, TCP or UDP; sips: is TLS; ws/wss
 * have none, Retell's default TCP) and the trunk's digest credentials. Outbound agents are not
 * bound: each call names its agent (override_agent_id).
 */
export function trunkTermination(route: SipCallRoute): { termination_uri: string; transport?: string } {
  const parsed = parseSipUri(route.trunkUri);
  if (!parsed.ok) throw new Error(`campaign_sip is not a SIP URI: ${parsed.msg}`);
  const { scheme, host, port, transport } = parsed.uri;
  const wire = scheme === 'sips' ? 'TLS' : transport === 'tls' || transport === 'tcp' || transport === 'udp' ? transport.toUpperCase() : null;
  return { termination_uri: port ? `${host}:${port}` : host, ...(wire ? { transport: wire } : {}) };
}

export function buildImportNumber(route: SipCallRoute, from: string): PhoneNumberImportParams {
  return {
    phone_number: from,
    ...trunkTermination(route),
    ...(route.username ? { sip_trunk_auth_username: route.username, sip_trunk_auth_password: route.password ?? '' } : {}),
    nickname: `SIP trunk ${route.trunkId ?? ''}`.trim(),
  };
}

/** A changed trunk: the imported number points at the trunk as it is now (update-phone-number's field names). */
export function buildUpdateNumber(route: SipCallRoute): PhoneNumberUpdateParams {
  return {
    ...trunkTermination(route),
    ...(route.username ? { auth_username: route.username, auth_password: route.password ?? '' } : {}),
  };
}
