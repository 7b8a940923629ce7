import { randomUUID } from 'node:crypto';
import type { Vapi } from '@vapi-ai/server-sdk';

/**
 * The fake Vapi's SIP side (issue 29), from Vapi's published types: POST/GET /credential for
 * `byo-sip-trunk` credentials (gateways, outboundAuthenticationPlan), POST/GET/PATCH /phone-number
 * for `byo-phone-number` numbers bound to one, with Vapi's 400 bodies (message arrays). A call from
 * a BYO number goes to the credential's first outbound gateway with its auth plan: the fake records
 * that leg and ends the call as Vapi reports a trunk's refusals (its endedReasons with the code).
 */
export interface FakeVapiSipOptions {
  /** gateway host -> the digest credentials the trunk expects; other credentials are refused with 403. */
  sipAuth?: Record<string, { username: string; password: string }>;
  /** customer number -> the trunk's final answer to calls through it (default 200). */
  sipCodes?: Record<string, number>;
}

/** The trunk leg of one call from a BYO number: where Vapi would send the INVITE, and how. */
export interface FakeVapiSipLeg {
  callId: string;
  gateway: Vapi.SipTrunkGateway;
  auth: { username: string; password: string } | null;
  leadingPlus: boolean;
  to: string;
  code: number;
}

type Answer = { status: number; body: unknown };
const nest = (statusCode: number, error: string, message: string | string[]) => ({ message, error, statusCode });
const E164 = /^\+[1-9]\d{6,14}$/;
const PROTOCOLS = ['tls/srtp', 'tcp', 'tls', 'udp'];
// The codes Vapi names in an endedReason of its own (CallEndedReason); others end as failed-to-connect.
const NAMED: Record<number, string> = {
  403: 'forbidden', 407: 'proxy-authentication-required', 408: 'request-timeout', 480: 'temporarily-unavailable', 503: 'service-unavailable',
};

/** Vapi's endedReason for a trunk's final answer (null for 200: the call goes on). */
export function vapiSipEndedReason(code: number): string | null {
  if (code < 300) return null;
  if (code === 486 || code === 600) return 'customer-busy';
  const named = NAMED[code];
  return named ? `call.in-progress.error-providerfault-outbound-sip-${code}-${named}` : 'call.in-progress.error-sip-outbound-call-failed-to-connect';
}

export function createVapiSip(options: FakeVapiSipOptions, now: () => string) {
  const credentials = new Map<string, Vapi.ByoSipTrunkCredential & { orgId: string }>();
  const numbers = new Map<string, Vapi.ByoPhoneNumber>();
  const legs: FakeVapiSipLeg[] = [];
  /** Every request body received, in order, as received (the test reads what Vapi was given). */
  const received: { method: string; path: string; body: Record<string, unknown> }[] = [];

  function credentialProblems(b: Record<string, unknown>): string[] {
    const problems: string[] = [];
    if (b.provider !== 'byo-sip-trunk') problems.push('provider must be one of the following values: byo-sip-trunk, ...');
    const gateways = b.gateways as Vapi.SipTrunkGateway[] | undefined;
    if (!Array.isArray(gateways) || gateways.length === 0) problems.push('gateways must contain at least 1 elements');
    for (const [i, g] of (Array.isArray(gateways) ? gateways : []).entries()) {
      if (typeof g?.ip !== 'string' || !g.ip) problems.push(`gateways.${i}.ip must be a string`);
      if (g?.port !== undefined && (!Number.isInteger(g.port) || g.port < 1 || g.port > 65535)) problems.push(`gateways.${i}.port must not be greater than 65535`);
      if (g?.outboundProtocol !== undefined && !PROTOCOLS.includes(g.outboundProtocol)) problems.push(`gateways.${i}.outboundProtocol must be one of the following values: ${PROTOCOLS.join(', ')}`);
    }
    const plan = b.outboundAuthenticationPlan as Vapi.SipTrunkOutboundAuthenticationPlan | undefined;
    if (plan !== undefined && (typeof plan.authUsername !== 'string' || typeof plan.authPassword !== 'string')) problems.push('outboundAuthenticationPlan.authUsername and authPassword must be strings');
    return problems;
  }

  function numberProblems(b: Record<string, unknown>, creating: boolean): string[] {
    const problems: string[] = [];
    if (creating && b.provider !== 'byo-phone-number') problems.push('provider must be one of the following values: byo-phone-number, twilio, vonage, vapi, telnyx');
    if ((creating || b.credentialId !== undefined) && (typeof b.credentialId !== 'string' || !credentials.has(b.credentialId))) problems.push(`Couldn't Find Credential ${String(b.credentialId)}.`);
    if (creating && b.numberE164CheckEnabled !== false && (typeof b.number !== 'string' || !E164.test(b.number))) problems.push('number must be a valid phone number in the E.164 format');
    if (creating && [...numbers.values()].some((n) => n.number === b.number)) problems.push(`Number ${String(b.number)} already exists. Update it instead.`);
    return problems;
  }

  /** /credential and /phone-number, or null for another path. */
  function handle(method: string, path: string, raw: string): Answer | null {
    if (!/^\/(credential|phone-number)(\/[^/]+)?$/.test(path)) return null;
    let body: Record<string, unknown> = {};
    if (method === 'POST' || method === 'PATCH') {
      try { body = (JSON.parse(raw || '{}') ?? {}) as Record<string, unknown>; } catch { return { status: 400, body: nest(400, 'Bad Request', 'Unexpected token in JSON') }; }
      received.push({ method, path, body });
    }
    const [, kind, rest] = /^\/([^/]+)(?:\/(.+))?$/.exec(path)!;
    const store = kind === 'credential' ? credentials : numbers;
    if (!rest && method === 'GET') return { status: 200, body: [...store.values()] };
    if (rest && method === 'GET') return store.has(rest) ? { status: 200, body: store.get(rest) } : { status: 404, body: nest(404, 'Not Found', 'Not Found') };
    if (kind === 'credential' && !rest && method === 'POST') {
      const problems = credentialProblems(body);
      if (problems.length) return { status: 400, body: nest(400, 'Bad Request', problems) };
      const c = { ...body, id: randomUUID(), orgId: 'fake-org', createdAt: now(), updatedAt: now() } as unknown as Vapi.ByoSipTrunkCredential & { orgId: string };
      credentials.set(c.id, c);
      return { status: 201, body: { ...c, outboundAuthenticationPlan: c.outboundAuthenticationPlan ? { ...c.outboundAuthenticationPlan, authPassword: undefined } : undefined } };
    }
    if (kind === 'phone-number' && !rest && method === 'POST') {
      const problems = numberProblems(body, true);
      if (problems.length) return { status: 400, body: nest(400, 'Bad Request', problems) };
      const n = { ...body, id: randomUUID(), orgId: 'fake-org', status: 'active', createdAt: now(), updatedAt: now() } as unknown as Vapi.ByoPhoneNumber;
      numbers.set(n.id, n);
      return { status: 201, body: n };
    }
    if (kind === 'phone-number' && rest && method === 'PATCH') {
      const n = numbers.get(rest);
      if (!n) return { status: 404, body: nest(404, 'Not Found', 'Not Found') };
      const problems = numberProblems(body, false);
      if (problems.length) return { status: 400, body: nest(400, 'Bad Request', problems) };
      Object.assign(n, body, { updatedAt: now() });
      return { status: 200, body: n };
    }
    return { status: 404, body: nest(404, 'Not Found', `Cannot ${method} ${path}`) };
  }

  /** The trunk leg of a call from a BYO number (null: not a BYO number), with the trunk's answer. */
  function dial(callId: string, phoneNumberId: string, to: string): FakeVapiSipLeg | null {
    const number = numbers.get(phoneNumberId);
    const credential = number ? credentials.get(number.credentialId) : undefined;
    if (!credential) return null;
    const gateway = credential.gateways.find((g) => g.outboundEnabled !== false) ?? credential.gateways[0]!;
    const plan = credential.outboundAuthenticationPlan;
    const auth = plan?.authUsername ? { username: plan.authUsername, password: plan.authPassword ?? '' } : null;
    const expected = options.sipAuth?.[gateway.ip];
    const refused = expected && (auth?.username !== expected.username || auth?.password !== expected.password);
    const leadingPlus = credential.outboundLeadingPlusEnabled === true;
    const code = refused ? 403 : options.sipCodes?.[to] ?? 200;
    const leg = { callId, gateway, auth, leadingPlus, to: leadingPlus ? to : to.replace(/^\+/, ''), code };
    legs.push(leg);
    return leg;
  }

  return { credentials, numbers, legs, received, handle, dial, numberOf: (id: string) => numbers.get(id)?.number };
}

export type FakeVapiSip = ReturnType<typeof createVapiSip>;
