import type { DisconnectionReason } from '../../src/voice/providers/retell/retell-types.ts';

/**
 * The fake Retell's SIP side (issue 29), from retell-sdk's types: POST /import-phone-number (a
 * number with its trunk's termination_uri, transport and sip_trunk_auth_*), PATCH
 * /update-phone-number/{number}, GET /get-phone-number/{number}, with Retell's error bodies. A
 * call from an imported number goes to its termination URI with its credentials: the fake records
 * the leg and ends the call with the disconnection_reason Retell gives a trunk's refusal.
 */
export interface FakeRetellSipOptions {
  /** termination host -> the digest credentials the trunk expects; others are refused (403). */
  sipAuth?: Record<string, { username: string; password: string }>;
  /** to_number -> the trunk's final answer (default 200). */
  sipCodes?: Record<string, number>;
}

export interface FakeRetellNumber {
  phone_number: string;
  termination_uri: string;
  transport: string;
  auth_username: string | null;
  auth_password: string | null;
  nickname: string | null;
}

export interface FakeRetellSipLeg { from: string; to: string; terminationUri: string; transport: string; auth: { username: string; password: string } | null; code: number }

type Answer = { status: number; body: unknown };
const error = (message: string) => ({ status: 'error', message });
const E164 = /^\+[1-9]\d{6,14}$/;
const TRANSPORTS = ['TLS', 'TCP', 'UDP'];

/** Retell's disconnection_reason for a trunk's final answer (null: connected). */
export function retellSipReason(code: number): DisconnectionReason | null {
  if (code < 300) return null;
  if (code === 486 || code === 600 || code === 603) return 'dial_busy';
  if (code === 480 || code === 408) return 'dial_no_answer';
  if (code === 404 || code === 484) return 'invalid_destination';
  if (code === 401 || code === 403 || code === 407) return 'telephony_provider_permission_denied';
  return 'sip_routing_error';
}

export function createRetellSip(options: FakeRetellSipOptions) {
  const numbers = new Map<string, FakeRetellNumber>();
  const legs: FakeRetellSipLeg[] = [];
  /** import/update bodies as received. */
  const received: { path: string; body: Record<string, unknown> }[] = [];

  function settings(body: Record<string, unknown>, into: FakeRetellNumber, auth: [string, string]): string | null {
    if (body.termination_uri !== undefined) {
      if (typeof body.termination_uri !== 'string' || !/^[A-Za-z0-9.\-[\]:]+$/.test(body.termination_uri)) return `Invalid termination_uri: ${String(body.termination_uri)}`;
      into.termination_uri = body.termination_uri;
    }
    if (body.transport !== undefined && body.transport !== null) {
      if (!TRANSPORTS.includes(String(body.transport))) return 'transport must be one of TLS, TCP, UDP';
      into.transport = String(body.transport);
    }
    if (body[auth[0]] !== undefined) into.auth_username = String(body[auth[0]]);
    if (body[auth[1]] !== undefined) into.auth_password = String(body[auth[1]]);
    return null;
  }

  /** The phone-number endpoints, or null for another path. */
  function handle(method: string, path: string, body: Record<string, unknown>): Answer | null {
    const shown = (n: FakeRetellNumber) => ({ phone_number: n.phone_number, phone_number_type: 'custom', nickname: n.nickname, sip_outbound_trunk_config: { termination_uri: n.termination_uri, transport: n.transport, auth_username: n.auth_username } });
    if (method === 'POST' && path === '/import-phone-number') {
      received.push({ path, body });
      const number = body.phone_number;
      if (typeof number !== 'string' || (body.ignore_e164_validation === false && !E164.test(number)) || !number) return { status: 400, body: error(`Invalid phone_number: ${String(number)}`) };
      if (typeof body.termination_uri !== 'string') return { status: 400, body: error('termination_uri is required.') };
      if (numbers.has(number)) return { status: 409, body: error(`Phone number ${number} already exists.`) };
      const n: FakeRetellNumber = { phone_number: number, termination_uri: '', transport: 'TCP', auth_username: null, auth_password: null, nickname: typeof body.nickname === 'string' ? body.nickname : null };
      const problem = settings(body, n, ['sip_trunk_auth_username', 'sip_trunk_auth_password']);
      if (problem) return { status: 400, body: error(problem) };
      numbers.set(number, n);
      return { status: 201, body: shown(n) };
    }
    const one = /^\/(update|get)-phone-number\/([^/]+)$/.exec(path);
    if (!one) return null;
    const n = numbers.get(decodeURIComponent(one[2]!));
    if (!n) return { status: 404, body: error('Item not found from phone-number.') };
    if (one[1] === 'get' && method === 'GET') return { status: 200, body: shown(n) };
    if (one[1] === 'update' && method === 'PATCH') {
      received.push({ path, body });
      const copy = { ...n };
      const problem = settings(body, copy, ['auth_username', 'auth_password']);
      if (problem) return { status: 400, body: error(problem) };
      Object.assign(n, copy);
      return { status: 200, body: shown(n) };
    }
    return { status: 404, body: error('Not found.') };
  }

  /** The trunk leg of a call from an imported number (null: not one), with the trunk's answer. */
  function dial(from: string, to: string): FakeRetellSipLeg | null {
    const n = numbers.get(from);
    if (!n) return null;
    const host = n.termination_uri.replace(/:\d+$/, '');
    const auth = n.auth_username ? { username: n.auth_username, password: n.auth_password ?? '' } : null;
    const expected = options.sipAuth?.[host];
    const refused = expected && (auth?.username !== expected.username || auth?.password !== expected.password);
    const leg = { from, to, terminationUri: n.termination_uri, transport: n.transport, auth, code: refused ? 403 : options.sipCodes?.[to] ?? 200 };
    legs.push(leg);
    return leg;
  }

  return { numbers, legs, received, handle, dial };
}

export type FakeRetellSip = ReturnType<typeof createRetellSip>;
