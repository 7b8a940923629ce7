import { isIP } from 'node:net';
import { blockedAddressReason } from '../shared/ssrf-guard.ts';

/**
 * A campaign's SIP route (`campaign_sip`, issue 29): the `sip:`/`sips:` URI of the customer's trunk
 * or PBX, as RFC 3261 writes it (`sip:[user@]host[:port][;param=value...]`). Only what a vendor
 * needs to dial it is accepted: no password in the URI (credentials belong in a voice connection,
 * sealed at rest), no headers (`?`), and a host on the public internet.
 */
export interface SipUri {
  scheme: 'sip' | 'sips';
  /** The user part (an extension, a number, a name); null when the URI names only the host. */
  user: string | null;
  /** Lower-cased; an IPv6 literal keeps its brackets. */
  host: string;
  port: number | null;
  transport: SipTransport | null;
  /** The other URI parameters, as written (lower-cased names). */
  params: Record<string, string>;
}

export const SIP_TRANSPORTS = ['udp', 'tcp', 'tls', 'ws', 'wss'] as const;
export type SipTransport = (typeof SIP_TRANSPORTS)[number];

export type SipUriParse = { ok: true; uri: SipUri } | { ok: false; msg: string; type: string };

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
// RFC 3261's user characters (unreserved, escaped and user-unreserved), without ':' (a password follows it).
const USER = /^(?:[A-Za-z0-9\-_.!~*'()&=+$,;?/]|%[0-9A-Fa-f]{2})+$/;
/** Names that never leave the machine or the local network, whatever a resolver answers. */
const LOCAL_NAMES = /(^|\.)(localhost|local|localdomain|internal|home\.arpa|lan)$/;

const fail = (msg: string, type = 'value_error.sip_uri'): SipUriParse => ({ ok: false, msg, type });

export function parseSipUri(text: string): SipUriParse {
  const m = /^(sips?):(.*)$/i.exec(text.trim());
  if (!m) return fail('must be a SIP URI starting with sip: or sips: (e.g. sip:trunk.example.com;transport=tls)');
  const scheme = m[1]!.toLowerCase() as 'sip' | 'sips';
  let rest = m[2]!;
  if (rest.includes('?')) return fail('SIP URI headers (after "?") are not accepted; give only the address of the trunk');
  const at = rest.lastIndexOf('@');
  let user: string | null = null;
  if (at >= 0) {
    const userinfo = rest.slice(0, at);
    if (userinfo.includes(':')) return fail('credentials must not be written into the URI: put the trunk\'s username and password in a voice connection of kind sip_trunk', 'value_error.sip_uri.credentials');
    if (!USER.test(userinfo)) return fail(`"${userinfo}" is not a valid user part of a SIP URI`);
    user = userinfo;
    rest = rest.slice(at + 1);
  }
  const [hostport = '', ...paramParts] = rest.split(';');
  const hp = /^(\[[0-9a-fA-F:.]+\]|[^:[\]]+)(?::(\d{1,5}))?$/.exec(hostport);
  if (!hp) return fail(`"${hostport}" is not a host[:port] of a SIP URI`);
  const host = hp[1]!.toLowerCase();
  const port = hp[2] === undefined ? null : Number(hp[2]);
  if (port !== null && (port < 1 || port > 65535)) return fail(`port ${hp[2]} is out of range (1-65535)`);
  const hostProblem = sipHostProblem(host);
  if (hostProblem) return fail(hostProblem, 'value_error.sip_uri.host');
  const params: Record<string, string> = {};
  let transport: SipTransport | null = null;
  for (const part of paramParts) {
    if (part === '') return fail('an empty URI parameter (";;") is not valid');
    const [name = '', value = ''] = part.split('=', 2);
    const key = name.toLowerCase();
    if (!/^[a-z0-9\-_.!~*'()%]+$/i.test(key)) return fail(`"${name}" is not a valid URI parameter name`);
    if (key === 'transport') {
      const t = value.toLowerCase();
      if (!(SIP_TRANSPORTS as readonly string[]).includes(t)) return fail(`transport must be one of ${SIP_TRANSPORTS.join(', ')}`);
      transport = t as SipTransport;
    } else {
      params[key] = value;
    }
  }
  if (scheme === 'sips' && transport !== null && transport !== 'tls' && transport !== 'wss') return fail('a sips: URI is carried over TLS: its transport can only be tls or wss');
  return { ok: true, uri: { scheme, user, host, port, transport, params } };
}

/** Why a trunk's host may not be dialled, or null. Names are checked as written (a name is resolved when dialled, by the vendor). */
export function sipHostProblem(host: string): string | null {
  const bare = host.replace(/^\[|\]$/g, '');
  if (isIP(bare)) {
    const reason = blockedAddressReason(bare);
    return reason && `the trunk's host must be a public address: ${reason}`;
  }
  if (host.startsWith('[')) return `${host} is not an IPv6 address`;
  const name = host.replace(/\.$/, '');
  if (!name.includes('.') || LOCAL_NAMES.test(name)) return `the trunk's host must be a public name or address: ${host} is a local name`;
  if (name.length > 253 || !name.split('.').every((l) => LABEL.test(l))) return `"${host}" is not a valid host name`;
  if (/^\d+$/.test(name.split('.').at(-1)!)) return `"${host}" is not a valid host name or IPv4 address`;
  return null;
}

/** The URI a vendor dials for one call: the trunk with the contact's E.164 number as its user part. */
export function sipUriForNumber(uri: SipUri, e164: string): string {
  const port = uri.port === null ? '' : `:${uri.port}`;
  const params = [...(uri.transport ? [`transport=${uri.transport}`] : []), ...Object.entries(uri.params).map(([k, v]) => (v === '' ? k : `${k}=${v}`))];
  return `${uri.scheme}:${e164}@${uri.host}${port}${params.map((p) => `;${p}`).join('')}`;
}
