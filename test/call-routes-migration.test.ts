import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createTestApp, type TestApp } from './helpers/test-app.ts';
import { createAccount, type Account } from './helpers/factories.ts';
import { seed } from './helpers/seed.ts';
import { up as backfillCallRoutes } from '../src/db/migrations/0020_call_routes.ts';
import { vapiEndRequest } from './helpers/vendor-events.ts';
import { SIGNATURE_HEADER, signBody, webhookSecret } from '../src/voice/signature.ts';

/**
 * Migration 0020: calls written before routes were recorded get their provider from what they
 * show (call_data's provider, else the provider of their events); one that shows neither reads as
 * VOICE_PROVIDER's environment route, and only that route's events reach it.
 */
let t: TestApp;
let owner: Account;

beforeAll(async () => {
  t = await createTestApp({ VAPI_API_KEY: 'env-vapi-api-key-0001', VAPI_WEBHOOK_SECRET: 'env-vapi-secret-0001', VAPI_BASE_URL: 'http://127.0.0.1:9' });
  owner = await createAccount(t);
});
afterAll(() => t?.close());

describe('migration 0020_call_routes', () => {
  it('backfills the provider from call_data or the call\'s events, and leaves the rest to VOICE_PROVIDER\'s own route', async () => {
    const { campaigns: [campaign] } = await seed(t.deps.db, { campaigns: [{ owner }] });
    const contacts = Array.from({ length: 5 }, (_, i) => ({ campaign: campaign, phone_number: `+1212555${4000 + i}` }));
    const { calls } = await seed(t.deps.db, {
      contacts,
      calls: [
        { contact: 0, status: 'finished', call_data: { provider: 'vapi' } },
        { contact: 1, status: 'finished', call_data: {} },
        { contact: 2, status: 'in progress', call_data: {} },
        { contact: 3, status: 'finished', provider: 'twilio', call_data: { provider: 'vapi' } },
        { contact: 4, status: 'finished', call_data: { provider: 'elsewhere' } },
      ],
    });
    const ids = calls.map((c) => c.id);
    await sql`INSERT INTO voice_events (provider, event_id, call_id, event_type) VALUES ('dialer', 'reconcile-x', ${ids[1]}, 'ended'), ('retell', 'call_ended:r1', ${ids[1]}, 'ended')`.execute(t.deps.db);
    await backfillCallRoutes(t.deps.db as never);
    const rows = await t.deps.db.selectFrom('calls').select(['id', 'provider', 'voice_connection_id']).where('id', 'in', ids).orderBy('id').execute();
    expect(rows.map((r) => r.provider)).toEqual(['vapi', 'retell', null, 'twilio', null]);
    expect(rows.every((r) => r.voice_connection_id === null)).toBe(true);

    // The call with no provider belongs to VOICE_PROVIDER (sim here): a Vapi event cannot reach it, the simulator's can.
    const live = ids[2]!;
    const vapi = vapiEndRequest({ connectionId: null, secret: 'env-vapi-secret-0001' }, live);
    const viaVapi = await t.request({ method: 'POST', url: vapi.url, headers: vapi.headers, payload: vapi.payload });
    expect(viaVapi.json()).toEqual({ received: 1, applied: 0, duplicates: 0, unknown_calls: 1 });
    const payload = JSON.stringify({ events: [{ id: 'sim-old-end', type: 'ended', call_id: 'sim-old', metadata: { call_id: live }, timestamp: new Date().toISOString(), status: 'finished' }] });
    const viaSim = await t.request({ method: 'POST', url: '/api/v1/voice/sim/events', headers: { 'content-type': 'application/json', [SIGNATURE_HEADER]: signBody(webhookSecret(t.config), payload, new Date()) }, payload });
    expect(viaSim.json()).toEqual({ received: 1, applied: 1, duplicates: 0, unknown_calls: 0 });
    expect((await t.deps.db.selectFrom('calls').select('status').where('id', '=', live).executeTakeFirstOrThrow()).status).toBe('finished');
  });
});
