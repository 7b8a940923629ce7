import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { Agent, buildConnector, type Dispatcher } from 'undici';

/**
 * Outgoing requests to user-chosen URLs (webhooks) must not reach the service's own
 * network. The check runs where the socket is opened, on the address actually
 * connected to, so a DNS answer that changes between a check and the connect
 * (rebinding) cannot pass. IP literals in any spelling (decimal 2130706433, octal
 * 0177.0.0.1, hex, IPv4-mapped IPv6) are normalised by the WHATWG URL parser and
 * by ipaddr.js before the check.
 */
/** What to do about a refusal, said with it: the refusal alone left developers testing a local receiver stuck. */
export const SSRF_HINT = 'to reach a receiver on this machine or a private network during local development, set WEBHOOK_ALLOW_PRIVATE_NETWORKS=true';

export class SsrfBlockedError extends Error {
  readonly code = 'ERR_SSRF_BLOCKED';
  constructor(reason: string) {
    super(`blocked by SSRF protection: ${reason} (${SSRF_HINT})`);
  }
}

/** Resolves a host name to every address it has (injectable for tests). */
export type Resolver = (hostname: string) => Promise<{ address: string; family: number }[]>;

const systemResolver: Resolver = (hostname) =>
  new Promise((resolve, reject) =>
    dnsLookup(hostname, { all: true, verbatim: true }, (error, addresses) => (error ? reject(error) : resolve(addresses))),
  );

/** Why an address may not be connected to, or null when it is a public unicast address. */
export function blockedAddressReason(address: string): string | null {
  let ip: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    ip = ipaddr.parse(address.replace(/^\[|\]$/g, ''));
  } catch {
    return `${address} is not an IP address`;
  }
  if (ip.kind() === 'ipv6' && (ip as ipaddr.IPv6).isIPv4MappedAddress()) {
    const inner = blockedAddressReason((ip as ipaddr.IPv6).toIPv4Address().toString());
    return inner && `${address} is an IPv4-mapped form (${inner})`;
  }
  // The deprecated IPv4-compatible form ::a.b.c.d (::/96), e.g. [::127.0.0.1]: ipaddr.js calls it
  // unicast, yet a stack that still routes it reaches the embedded IPv4 address.
  const range = ip.range();
  if (range === 'unicast' && ip.kind() === 'ipv6' && (ip as ipaddr.IPv6).parts.slice(0, 6).every((p) => p === 0)) return `${ip.toString()} is an IPv4-compatible IPv6 address`;
  // Only ordinary public unicast is allowed: everything ipaddr.js classifies otherwise
  // (loopback, private, linkLocal, carrierGradeNat, uniqueLocal, multicast, unspecified,
  // broadcast, reserved, 6to4/teredo/NAT64 forms that embed IPv4...) is refused.
  return range === 'unicast' ? null : `${ip.toString()} is a ${range} address`;
}

/** Parses a URL host (as new URL gives it) into an IP literal, or null for a name. */
export function ipLiteralOf(hostname: string): string | null {
  const bare = hostname.replace(/^\[|\]$/g, '');
  if (isIP(bare)) return bare;
  // Shorthand IPv4 forms the URL parser did not already normalise (e.g. from raw input).
  if (/^[0-9a-fx.]+$/i.test(bare) && ipaddr.IPv4.isValid(bare)) return ipaddr.IPv4.parse(bare).toString();
  return null;
}

/**
 * Whether a URL host is covered by the integration's allowed hosts. An entry matches the
 * host itself and any subdomain of it: "example.com" allows example.com and
 * api.example.com, not badexample.com. Comparison is case-insensitive.
 */
export function hostAllowed(hostname: string, allowedHosts: string[]): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  return allowedHosts.some((entry) => {
    const e = entry.toLowerCase().replace(/^\*?\./, '').replace(/\.$/, '');
    return e !== '' && (host === e || host.endsWith(`.${e}`));
  });
}

export interface GuardOptions {
  /** Local development only: lets requests reach loopback and private networks. */
  allowPrivateNetworks: boolean;
  resolver?: Resolver;
  connectTimeoutMs?: number;
}

type LookupCallback = (error: Error | null, address: string | LookupAddress[], family?: number) => void;

/** A dns.lookup-compatible function that refuses blocked addresses. */
export function guardedLookup(options: GuardOptions) {
  const resolver = options.resolver ?? systemResolver;
  return (hostname: string, lookupOptions: { all?: boolean }, callback: LookupCallback) => {
    resolver(hostname).then(
      (addresses) => {
        if (addresses.length === 0) return callback(new Error(`${hostname} did not resolve`), '');
        if (!options.allowPrivateNetworks) {
          // One bad answer refuses the host: a mixed answer is how rebinding is usually tried.
          for (const a of addresses) {
            const reason = blockedAddressReason(a.address);
            if (reason) return callback(new SsrfBlockedError(`${hostname} resolves to ${reason}`), '');
          }
        }
        if (lookupOptions.all) return callback(null, addresses);
        const first = addresses[0]!;
        return callback(null, first.address, first.family);
      },
      (error: Error) => callback(error, ''),
    );
  };
}

/** An undici dispatcher that checks every connection's address before it is opened. */
export function createGuardedDispatcher(options: GuardOptions & { connections?: number }): Dispatcher {
  const base = buildConnector({ lookup: guardedLookup(options) as never, timeout: options.connectTimeoutMs ?? 10_000 });
  const connect: buildConnector.connector = (connectOptions, callback) => {
    // net.connect skips lookup for IP literals, so those are checked here.
    const literal = ipLiteralOf(connectOptions.hostname);
    if (literal && !options.allowPrivateNetworks) {
      const reason = blockedAddressReason(literal);
      if (reason) return callback(new SsrfBlockedError(reason), null);
    }
    return base(connectOptions, callback);
  };
  return new Agent({ connect, connections: options.connections ?? 64, keepAliveTimeout: 4_000 });
}

/** The SSRF refusal inside an undici error chain, if that is what failed. */
export function ssrfReasonOf(error: unknown): string | null {
  for (let e: unknown = error, depth = 0; e && depth < 6; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof SsrfBlockedError || (e as { code?: string }).code === 'ERR_SSRF_BLOCKED') return (e as Error).message;
  }
  return null;
}

/**
 * Why a webhook host would be refused, said when the URL is saved rather than at its first send:
 * an IP literal in any spelling, a `localhost` name, or a name whose DNS answer now includes a
 * blocked address. Null when it may be reached, and also when the name does not resolve within
 * `timeoutMs` (a receiver not set up yet is no reason to refuse the form): the connect-time check
 * above still refuses whatever the name resolves to when a request is sent, so this is advice
 * given early, never the guard itself.
 */
export async function blockedHostReason(hostname: string, options: { resolver?: Resolver; timeoutMs?: number } = {}): Promise<string | null> {
  const literal = ipLiteralOf(hostname);
  if (literal) return blockedAddressReason(literal);
  const name = hostname.toLowerCase().replace(/\.$/, '');
  // RFC 6761: localhost and its subdomains are loopback whatever a resolver says.
  if (name === 'localhost' || name.endsWith('.localhost')) return `${hostname} is a loopback name`;
  const resolver = options.resolver ?? systemResolver;
  let timer: NodeJS.Timeout | undefined;
  const gaveUp = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), options.timeoutMs ?? 2_000);
  });
  try {
    const addresses = await Promise.race([resolver(name).catch(() => null), gaveUp]);
    for (const a of addresses ?? []) {
      const reason = blockedAddressReason(a.address);
      if (reason) return `${hostname} resolves to ${reason}`;
    }
    return null;
  } finally {
    clearTimeout(timer);
  }
}
