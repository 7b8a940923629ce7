import type { Vapi } from '@vapi-ai/server-sdk';
import { statusOfSipCode, type SipCallRoute } from '../../sip-codes.ts';
import { parseSipUri } from '../../sip-uri.ts';
import type { CallEvent } from '../../provider.ts';

/**
 * Vapi's side of a customer's SIP trunk (issue 29), pure: Vapi sends a call through a trunk only
 * from a BYO phone number bound to a `byo-sip-trunk` credential. The credential carries the
 * trunk's gateways (the trunk's own list, else the campaign_sip host with its port) with the
 * campaign_sip's transport as outboundProtocol, and the trunk's digest credentials as its
 * outboundAuthenticationPlan; outboundLeadingPlusEnabled keeps the contact's E.164 `+`.
 */

/** campaign_sip's transport as Vapi's outboundProtocol (sips: is TLS); ws/wss have none: Vapi's default (UDP). */
function protocolOf(scheme: 'sip' | 'sips', transport: string | null): Vapi.SipTrunkGatewayOutboundProtocol | undefined {
  if (scheme === 'sips' || transport === 'tls') return 'tls';
  if (transport === 'tcp' || transport === 'udp') return transport;
  return undefined;
}

/** `host[:port]` (an IPv6 literal in brackets) as a gateway. */
function gateway(address: string, protocol: Vapi.SipTrunkGatewayOutboundProtocol | undefined): Vapi.SipTrunkGateway {
  const m = /^(\[[^\]]+\]|[^:]+)(?::(\d{1,5}))?$/.exec(address.trim());
  const ip = m ? m[1]!.replace(/^\[|\]$/g, '') : address.trim();
  return { ip, ...(m?.[2] ? { port: Number(m[2]) } : {}), outboundEnabled: true, inboundEnabled: false, ...(protocol ? { outboundProtocol: protocol } : {}) };
}

export function buildSipCredential(route: SipCallRoute): Vapi.CreateByoSipTrunkCredentialDto & { provider: 'byo-sip-trunk' } {
  const parsed = parseSipUri(route.trunkUri);
  if (!parsed.ok) throw new Error(`campaign_sip is not a SIP URI: ${parsed.msg}`);
  const { scheme, host, port, transport } = parsed.uri;
  const protocol = protocolOf(scheme, transport);
  const gateways = route.gateways.length > 0
    ? route.gateways.map((g) => gateway(g, protocol))
    : [gateway(port ? `${host}:${port}` : host, protocol)];
  return {
    provider: 'byo-sip-trunk',
    name: `trunk ${route.trunkId ?? ''} ${host}`.slice(0, 40),
    gateways,
    ...(route.username ? { outboundAuthenticationPlan: { authUsername: route.username, authPassword: route.password ?? '' } } : {}),
    outboundLeadingPlusEnabled: true,
  };
}

/** The BYO number calls go out from: a caller ID the trunk owns, bound to the credential. */
export function buildByoNumber(from: string, credentialId: string): Vapi.CreateByoPhoneNumberDto & { provider: 'byo-phone-number' } {
  return {
    provider: 'byo-phone-number',
    name: `trunk caller ID ${from}`.slice(0, 40),
    number: from,
    credentialId,
    // Our caller IDs are E.164 (sip-trunks schema); a PBX extension would need the check off.
    numberE164CheckEnabled: /^\+[1-9]\d{6,14}$/.test(from),
  };
}

/**
 * The SIP code in one of Vapi's endedReasons (`call.in-progress.error-providerfault-outbound-sip-480-temporarily-unavailable`):
 * the trunk's own answer, which decides the status as it does on every vendor (sip-codes.ts).
 */
export function sipOutcome(endedReason: string | null | undefined): Pick<CallEvent, 'status' | 'sipCode'> | null {
  const m = /-sip-(\d{3})(?:-|$)/.exec(endedReason ?? '');
  if (!m) return null;
  const code = Number(m[1]);
  const outcome = statusOfSipCode(code);
  return outcome ? { status: outcome.status, sipCode: code } : null;
}
