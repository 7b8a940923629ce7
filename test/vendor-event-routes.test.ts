import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AddressInfo } from 'node:net';
import { WebSocket } from 'ws';
import { sql } from 'kysely';
import { createTestApp, type TestApp } from './helpers/test-app.ts';
import { createAccount, createCampaignViaApi, type Account } from './helpers/factories.ts';
import { seed } from './helpers/seed.ts';
import {
  relayHandshake, retellEndRequest, twilioRequest, twilioRequests, vapiEndRequest, vendorRequests,
  type RouteCredentials, type SignedVendorRequest,
} from './helpers/vendor-events.ts';
import { SIGNATURE_HEADER, signBody, webhookSecret } from '../src/voice/signature.ts';

/**
 * An event only touches calls of its own route (docs/voice-providers.md, "Routes"). Bob holds
 * his own Vapi, Retell and Twilio voice connections, with secrets he chose, and posts correctly
 * signed events through them naming alice's calls: live ones (an end would end them) and
 * finished ones with empty fields (a late event would fill them). At every entry point (Vapi and
 * Retell events, Twilio's TwiML, action, AMD, status and recording callbacks, the relay socket)
 * alice's rows stay exactly as they were, no webhook delivery is written, and the answer is the
 * one an unknown call gets. The service's own credentials are a route too: they do not reach a
 * call placed through a connection. Alice's own events through each call's route still work.
 */
const VENDORS = ['vapi', 'retell', 'twilio'] as const;
type Vendor = (typeof VENDORS)[number];
const ENV = { vapi: 'env-vapi-server-secret-01', retell: 'env-retell-api-key-0001', twilio: 'env-twilio-auth-token-01' };
const UNKNOWN_CALL = 9_000_000_000_000;

let t: TestApp;
let base: string;
let port: number;
let alice: Account;
let bob: Account;
const creds = {} as Record<'alice' | 'bob' | 'env', Record<Vendor, RouteCredentials>>;
/** Alice's calls per vendor: on her connection's route (live and finished) and on the environment's route (live). */
const calls = {} as Record<Vendor, { live: number; finished: number; envLive: number }>;

async function api(who: Account, method: 'GET' | 'POST', url: string, payload?: unknown) {
  const res = await t.request({ method, url, headers: who.headers, ...(payload === undefined ? {} : { payload: payload as object }) });
  expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(200);
  return res.json();
}

async function connection(who: Account, vendor: Vendor, secret: string): Promise<RouteCredentials> {
  const fields = vendor === 'vapi' ? { api_key: `${secret}-key`, webhook_secret: secret, phone_number_id: 'pn-1' }
    : vendor === 'retell' ? { api_key: secret, agent_id: 'agent_1', from_number: '+12125550100' }
    : { api_key: secret, account_sid: `AC${'0'.repeat(31)}${who.id % 10}`, from_number: '+12125550100' };
  const row = await api(who, 'POST', '/api/v1/voice-connections/', { name: `${vendor} of ${who.id}`, provider: vendor, ...fields });
  return { connectionId: row.id, secret };
}

let phoneSeq = 0;
async function aliceCalls(vendor: Vendor) {
  const assistant = await api(alice, 'POST', '/api/v1/assistants/', {
    name: `alice ${vendor}`, provider: vendor, provider_assistant_id: vendor === 'twilio' ? null : `${vendor}-assistant`,
    voice_connection_id: creds.alice[vendor].connectionId, transfer_number: '+12125550142', first_message: 'Hello from alice',
    voicemail_action: 'leave_message', voicemail_message: 'Alice left this message',
    action_status_rules: [{ action_status: 'interested', path: 'structuredData.interested', equals: true }],
  });
  const campaign = await createCampaignViaApi(t, alice.headers, { title: `alice ${vendor}`, assistant_id: assistant.id });
  // Sends on every finished call, so any end or action status would write a delivery.
  await api(alice, 'POST', '/api/v1/integrations/webhooks/', { url: 'https://hooks.example.com/crm', request_schema: { name: 'client name' }, campaign_ids: [campaign.id], only_interested: false });
  const phone = () => `+1212555${String(3000 + ++phoneSeq)}`;
  const owner = { id: campaign.id, owner_id: alice.id };
  const route = { provider: vendor, voice_connection_id: creds.alice[vendor].connectionId };
  const start = new Date(Date.now() - 60_000);
  const { calls: [live, finished, envLive] } = await seed(t.deps.db, {
    contacts: [
      { campaign: owner, phone_number: phone(), status: 'in progress', calls_attempts: 1 },
      { campaign: owner, phone_number: phone(), status: 'finished', calls_attempts: 1 },
      { campaign: owner, phone_number: phone(), status: 'in progress', calls_attempts: 1 },
    ],
    calls: [
      { contact: 0, status: 'in progress', call_type: 'outbound', start_time: start, call_data: { transcript: [] }, ...route },
      { contact: 1, status: 'finished', call_type: 'outbound', start_time: start, end_time: new Date(), call_data: { transcript: [] }, ...route },
      { contact: 2, status: 'in progress', call_type: 'outbound', start_time: start, call_data: { transcript: [] }, provider: vendor, voice_connection_id: null },
    ],
  });
  return { live: live.id, finished: finished.id, envLive: envLive.id };
}

beforeAll(async () => {
  t = await createTestApp({
    VAPI_API_KEY: 'env-vapi-api-key-0001', VAPI_WEBHOOK_SECRET: ENV.vapi, RETELL_API_KEY: ENV.retell,
    TWILIO_ACCOUNT_SID: `AC${'f'.repeat(32)}`, TWILIO_AUTH_TOKEN: ENV.twilio, PUBLIC_BASE_URL: 'http://127.0.0.1:1',
    // Nothing of the outside world answers: a request to a vendor fails at once (and would be a finding).
    VAPI_BASE_URL: 'http://127.0.0.1:9', RETELL_BASE_URL: 'http://127.0.0.1:9', TWILIO_BASE_URL: 'http://127.0.0.1:9',
  });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;
  (t.config as { PUBLIC_BASE_URL?: string }).PUBLIC_BASE_URL = base;
  alice = await createAccount(t);
  bob = await createAccount(t);
  creds.env = { vapi: { connectionId: null, secret: ENV.vapi }, retell: { connectionId: null, secret: ENV.retell }, twilio: { connectionId: null, secret: ENV.twilio } };
  creds.alice = {} as Record<Vendor, RouteCredentials>;
  creds.bob = {} as Record<Vendor, RouteCredentials>;
  for (const vendor of VENDORS) {
    creds.alice[vendor] = await connection(alice, vendor, `alice-${vendor}-secret-0001`);
    creds.bob[vendor] = await connection(bob, vendor, `bob-chosen-${vendor}-secret-01`);
    calls[vendor] = await aliceCalls(vendor);
  }
});
afterAll(() => t?.close());

/** Everything of alice's a vendor event could change, read whole. */
async function aliceState() {
  const db = t.deps.db;
  const callRows = await db.selectFrom('calls').selectAll().where('owner_id', '=', alice.id).orderBy('id').execute();
  const ids = callRows.map((c) => c.id);
  return {
    calls: callRows,
    contacts: await db.selectFrom('contacts').selectAll().where('owner_id', '=', alice.id).orderBy('id').execute(),
    deliveries: (await sql<{ n: number }>`SELECT count(*)::int AS n FROM webhook_deliveries`.execute(db)).rows[0]!.n,
    conversations: await db.selectFrom('agent_conversations').selectAll().where('call_id', 'in', ids).execute(),
    providerRefs: await db.selectFrom('call_provider_refs').selectAll().where('call_id', 'in', ids).execute(),
    events: (await sql<{ n: number }>`SELECT count(*)::int AS n FROM voice_events WHERE call_id = ANY(${ids}::bigint[])`.execute(db)).rows[0]!.n,
  };
}

/** Which parts of alice's state differ (calls and contacts by id and field). */
function diff(before: Awaited<ReturnType<typeof aliceState>>, after: Awaited<ReturnType<typeof aliceState>>): string {
  const out: string[] = [];
  for (const key of ['calls', 'contacts'] as const) {
    for (const [i, row] of after[key].entries()) {
      const was = before[key][i] as Record<string, unknown> | undefined;
      const fields = Object.keys(row).filter((f) => JSON.stringify((row as Record<string, unknown>)[f]) !== JSON.stringify(was?.[f]));
      if (fields.length) out.push(`${key} ${row.id} (${fields.join(', ')})`);
    }
  }
  for (const key of ['deliveries', 'conversations', 'providerRefs', 'events'] as const) if (JSON.stringify(after[key]) !== JSON.stringify(before[key])) out.push(key);
  return out.join('; ');
}

const send = (r: SignedVendorRequest) => t.request({ method: 'POST', url: r.url, headers: r.headers, payload: r.payload });

function requestsOf(who: RouteCredentials, vendor: Vendor, callId: number): SignedVendorRequest[] {
  if (vendor === 'vapi') return [vapiEndRequest(who, callId)];
  if (vendor === 'retell') return [retellEndRequest(who, callId, 'call_ended'), retellEndRequest(who, callId, 'call_analyzed')];
  return twilioRequests(base, who, callId);
}

/**
 * Sends each request signed with `signer`'s route naming alice's `callId`; answers the requests
 * that changed anything of alice's, and checks each answer equals an unknown call's.
 */
async function crossRouteWrites(signer: RouteCredentials, vendor: Vendor, callId: number): Promise<string[]> {
  const changed: string[] = [];
  const requests = requestsOf(signer, vendor, callId);
  const unknown = requestsOf(signer, vendor, UNKNOWN_CALL);
  for (const [i, r] of requests.entries()) {
    const before = await aliceState();
    const res = await send(r);
    const after = await aliceState();
    // Compared whole; collected so that a failure lists every request that wrote.
    if (JSON.stringify(after) !== JSON.stringify(before)) changed.push(`${r.label} signed by ${signer.connectionId ?? 'env'} on call ${callId}: ${diff(before, after)}`);
    // The same request naming a call that does not exist.
    const asUnknownCall = await send(unknown[i]!);
    expect.soft({ status: res.statusCode, body: res.body }, r.label).toEqual({ status: asUnknownCall.statusCode, body: asUnknownCall.body });
    expect.soft(res.statusCode).toBeLessThan(500);
  }
  return changed;
}

describe('an event only touches calls of its own route', () => {
  for (const vendor of VENDORS) {
    it(`${vendor}: bob's correctly signed events naming alice's calls change nothing and answer as an unknown call`, async () => {
      const c = calls[vendor];
      const writes = [
        ...await crossRouteWrites(creds.bob[vendor], vendor, c.live),
        ...await crossRouteWrites(creds.bob[vendor], vendor, c.finished),
        ...await crossRouteWrites(creds.bob[vendor], vendor, c.envLive),
      ];
      expect(writes).toEqual([]);
    });

    it(`${vendor}: the service's own credentials do not reach a call placed through alice's connection`, async () => {
      expect(await crossRouteWrites(creds.env[vendor], vendor, calls[vendor].finished)).toEqual([]);
    });
  }

  // The media socket first: the relay's positive control opens alice's conversation socket, whose
  // close changes her call a moment later, which the media pass's before/after reading would see.
  for (const socket of ['media', 'relay'] as const) {
    it(`twilio ${socket} socket: bob's signed handshake for alice's live call is refused as an unknown call is`, async () => {
      const status = (who: RouteCredentials, callId: number) => new Promise<number>((resolve) => {
        const { path, signature } = relayHandshake(base, who, callId, socket);
        const ws = new WebSocket(`ws://127.0.0.1:${port}${path}`, { headers: { 'x-twilio-signature': signature } });
        ws.on('unexpected-response', (_req, res) => { resolve(res.statusCode ?? 0); ws.terminate(); });
        ws.on('open', () => { resolve(101); ws.terminate(); });
        ws.on('error', () => resolve(0));
      });
      const before = await aliceState();
      expect(await status(creds.bob.twilio, calls.twilio.live)).toBe(404);
      expect(await status(creds.env.twilio, calls.twilio.live)).toBe(404);
      expect(await status(creds.bob.twilio, UNKNOWN_CALL)).toBe(404);
      expect(await aliceState()).toEqual(before);
      // Positive control: alice's own route opens it.
      expect(await status(creds.alice.twilio, calls.twilio.live)).toBe(101);
    });
  }

  it('alice\'s own correctly signed events through each call\'s route still apply (positive control)', async () => {
    const db = t.deps.db;
    const row = (id: number) => db.selectFrom('calls').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    // Twilio's action reads the assistant's transfer number for its own route.
    const action = await send(twilioRequest(base, creds.alice.twilio, 'action', calls.twilio.live, { CallSid: 'CAalice0001', HandoffData: '{"reason":"transfer"}' }, 'action'));
    expect(action.body).toContain('+12125550142');
    const amd = await send(twilioRequest(base, creds.alice.twilio, 'amd', calls.twilio.live, { CallSid: 'CAalice0001', AnsweredBy: 'human' }, 'amd'));
    expect(amd.statusCode).toBe(204);
    expect(await db.selectFrom('agent_conversations').select('answered_by').where('call_id', '=', calls.twilio.live).executeTakeFirst()).toEqual({ answered_by: 'human' });
    for (const vendor of VENDORS) {
      const deliveries = (await aliceState()).deliveries;
      for (const [who, callId] of [[creds.alice[vendor], calls[vendor].live], [creds.env[vendor], calls[vendor].envLive]] as const) {
        const end = vendorRequests(base, { vapi: who, retell: who, twilio: who }, callId).filter((r) => r.vendor === vendor && /end|ended|status/.test(r.label))[0]!;
        const res = await send(end);
        expect(res.statusCode, res.body).toBe(200);
        expect(res.json()).toMatchObject({ unknown_calls: 0 });
        expect((await row(callId)).status, `${vendor} ${end.label}`).not.toBe('in progress');
      }
      expect((await aliceState()).deliveries).toBe(deliveries + 2);
    }
  });
});

describe('ids from vendor metadata', () => {
  const BAD_IDS: unknown[] = [2 ** 63, '9223372036854775808', '99999999999999999999', -5, '-5', 1.5, '1.5', 1e300, '12abc', 0, '', null, { id: 1 }];

  it('an id that cannot be one of ours (too large, negative, fractional, not digits) is an unknown call: 200, never a 500', async () => {
    const before = await aliceState();
    for (const id of BAD_IDS) {
      for (const r of [vapiEndRequest(creds.env.vapi, id), retellEndRequest(creds.env.retell, id)]) {
        const res = await send(r);
        expect({ id, label: r.label, status: res.statusCode, body: res.json() }).toEqual({ id, label: r.label, status: 200, body: { received: 1, applied: 0, duplicates: 0, unknown_calls: 1 } });
      }
      const payload = JSON.stringify({ events: [{ id: `sim-bad-${String(id)}`, type: 'ended', call_id: 'sim-x', metadata: { call_id: id }, timestamp: new Date().toISOString(), status: 'finished' }] });
      const sim = await t.request({ method: 'POST', url: '/api/v1/voice/sim/events', headers: { 'content-type': 'application/json', [SIGNATURE_HEADER]: signBody(webhookSecret(t.config), payload, new Date()) }, payload });
      expect({ id, status: sim.statusCode, body: sim.json() }).toEqual({ id, status: 200, body: { received: 1, applied: 0, duplicates: 0, unknown_calls: 1 } });
    }
    // Twilio's id rides in the URL: out of range is the query's 422.
    for (const id of ['9223372036854775808', '-5', '1.5', '12abc']) {
      const r = twilioRequest(base, creds.env.twilio, 'events', 1, { CallSid: 'CAbad', CallStatus: 'completed' }, 'twilio');
      const res = await t.request({ method: 'POST', url: r.url.replace('call=1', `call=${id}`), headers: r.headers, payload: r.payload });
      expect({ id, status: res.statusCode }).toEqual({ id, status: 422 });
    }
    expect(await aliceState()).toEqual(before);
  });
});

describe('event ids are unique per route', () => {
  it("an event id bob's route stored first (a vendor call id he learnt) does not make alice's real event a duplicate", async () => {
    const db = t.deps.db;
    const route = { provider: 'vapi', voice_connection_id: creds.bob.vapi.connectionId };
    const campaign = await createCampaignViaApi(t, bob.headers, { title: 'bob vapi' });
    const { calls: [bobs] } = await seed(db, {
      contacts: [{ campaign: { id: campaign.id, owner_id: bob.id }, phone_number: '+12125554001', status: 'in progress', calls_attempts: 1 }],
      calls: [{ contact: 0, status: 'in progress', call_type: 'outbound', start_time: new Date(Date.now() - 60_000), call_data: { transcript: [] }, ...route }],
    });
    const { live } = await aliceCalls('vapi');
    // Both end-of-call reports carry the same vendor call id, so the same event id.
    const withVendorCallId = (r: SignedVendorRequest) => {
      const body = JSON.parse(r.payload);
      body.message.call.id = 'vapi-call-alice-0001';
      return { ...r, payload: JSON.stringify(body) };
    };
    const first = await send(withVendorCallId(vapiEndRequest(creds.bob.vapi, bobs.id)));
    expect(first.json()).toMatchObject({ applied: 1, duplicates: 0 });
    const real = await send(withVendorCallId(vapiEndRequest(creds.alice.vapi, live)));
    expect(real.json()).toMatchObject({ applied: 1, duplicates: 0, unknown_calls: 0 });
    const call = await db.selectFrom('calls').select('status').where('id', '=', live).executeTakeFirstOrThrow();
    expect(call.status).not.toBe('in progress');
    // The same route's repeat still is a duplicate.
    const again = await send(withVendorCallId(vapiEndRequest(creds.alice.vapi, live)));
    expect(again.json()).toMatchObject({ applied: 0, duplicates: 1 });
  });
});
