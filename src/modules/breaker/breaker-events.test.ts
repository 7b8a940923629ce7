import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { breakerScene, type BreakerScene } from '../../../test/helpers/breaker-scene.ts';
import { dialerHarness, usNumber, type DialerHarness } from '../../../test/helpers/dialer-harness.ts';
import { waitFor } from '../../../test/helpers/wait-for.ts';
import type { ReceivedRequest } from '../../../test/fakes/webhook-receiver.ts';
import { VoiceProviderError, type VoiceErrorCode, type VoiceProvider } from '../../voice/provider.ts';

/**
 * What a pause tells the outside: the webhook event campaign.paused (once per integration and
 * pause, signed, only to the integrations that ask), and the vendor's refusals that count.
 */
let s: BreakerScene;
beforeAll(async () => {
  s = await breakerScene();
});
afterAll(() => s?.close());

async function integration(campaignIds: number[], settings: Record<string, unknown>) {
  const path = `/paused-${Math.random().toString(36).slice(2, 8)}`;
  const res = await s.t.request({
    method: 'POST', url: '/api/v1/integrations/webhooks', headers: s.alice.headers,
    payload: { url: `${s.receiver.url}${path}`, request_schema: 'name - client name', campaign_ids: campaignIds, ...settings },
  });
  expect(res.statusCode, res.body).toBe(200);
  return { ...res.json(), hits: () => s.receiver.requests.filter((r) => r.url.startsWith(path)) };
}
const campaignDeliveries = (integrationId: number) =>
  s.t.deps.db.selectFrom('webhook_deliveries').selectAll().where('integration_id', '=', integrationId).where('kind', '=', 'campaign').orderBy('id').execute();

function verify(secret: string, req: ReceivedRequest): boolean {
  const expected = createHmac('sha256', Buffer.from(secret.split('_')[1]!, 'base64'))
    .update(`${req.headers['webhook-id']}.${req.headers['webhook-timestamp']}.${req.body}`).digest('base64');
  return (req.headers['webhook-signature'] as string).split(' ').includes(`v1,${expected}`);
}

describe('the campaign.paused webhook event', () => {
  it('is sent once per pause to each active integration that asks for it, signed, with the figures', async () => {
    const c = await s.campaign();
    const asks = await integration([c], { send_campaign_events: true });
    const silent = await integration([c], {});
    const inactive = await integration([c], { send_campaign_events: true, is_active: false });
    expect([asks.send_campaign_events, silent.send_campaign_events]).toEqual([true, false]);

    // Two batches at once, each enough to pause: one pause, one event.
    const [a, b] = [await s.callsInProgress(c, 5), await s.callsInProgress(c, 5)];
    await Promise.all([s.endBatch(a.map((id) => [id, 'failed'] as const)), s.endBatch(b.map((id) => [id, 'rejected'] as const))]);
    const [trip, ...moreTrips] = await s.t.deps.db.selectFrom('campaign_breaker_trips').selectAll().where('campaign_id', '=', c).execute();
    expect(moreTrips).toEqual([]);

    const [delivery, ...more] = await waitFor(async () => {
      const rows = await campaignDeliveries(asks.id);
      return rows.length > 0 && rows.every((r) => r.status !== 'pending') ? rows : null;
    }, 10_000);
    expect(more).toEqual([]);
    expect(delivery).toMatchObject({ kind: 'campaign', status: 'sent', http_status: 200, call_id: null, breaker_trip_id: trip!.id });
    const [hit, ...again] = asks.hits();
    expect(again).toEqual([]);
    expect(hit!.headers['webhook-id']).toBe(`msg_${asks.id}_campaign_${trip!.id}`);
    expect(verify(asks.signing_secret, hit!)).toBe(true);
    expect(JSON.parse(hit!.body)).toEqual({
      event: 'campaign.paused',
      campaign: { id: c, title: 'Spring calls', is_paused: true },
      paused_by: { reason: 'failure_rate', failures: trip!.failures, attempts: trip!.attempts, window_seconds: 120, failure_rate_threshold: 0.5, min_attempts: 5, at: s.clock.now().toISOString() },
    });
    expect(await campaignDeliveries(silent.id)).toEqual([]);
    expect(await campaignDeliveries(inactive.id)).toEqual([]);

    // A redelivery sends the same facts with the same webhook id, so the receiver can de-duplicate.
    const res = await s.t.request({ method: 'POST', url: `/api/v1/integrations/webhooks/${asks.id}/deliveries/${delivery!.id}/redeliver`, headers: s.alice.headers });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ kind: 'redeliver', redelivery_of: delivery!.id, status: 'sent' });
    expect(asks.hits()).toHaveLength(2);
    expect(asks.hits()[1]!.headers['webhook-id']).toBe(`msg_${asks.id}_campaign_${trip!.id}`);
    expect(asks.hits()[1]!.body).toBe(hit!.body);
  });

  it('is not sent for another campaign of the account', async () => {
    const [ours, other] = [await s.campaign(), await s.campaign()];
    const hook = await integration([ours], { send_campaign_events: true });
    await s.end(other, 'failed', 'failed', 'failed', 'failed', 'failed');
    expect((await s.summary(other)).paused_by).not.toBeNull();
    expect(await campaignDeliveries(hook.id)).toEqual([]);
  });
});

describe('a vendor that refuses to start calls', () => {
  let h: DialerHarness;
  beforeAll(async () => {
    h = await dialerHarness('2030-01-07T15:00:00Z');
  });
  afterAll(() => h?.close());

  const refusing = (code: VoiceErrorCode, retryable: boolean): VoiceProvider => {
    const real = h.t.deps.voice;
    return {
      ...real, name: real.name, capabilities: real.capabilities, verifyWebhook: real.verifyWebhook.bind(real), parseWebhook: real.parseWebhook.bind(real),
      hangup: real.hangup.bind(real), startCall: async () => { throw new VoiceProviderError(code, `refused: ${code}`, retryable); },
    };
  };
  const isPaused = async (c: number) => (await h.t.deps.db.selectFrom('campaigns').select('is_paused').where('id', '=', c).executeTakeFirstOrThrow()).is_paused;

  it('pauses the campaign: each refusal other than its rate limit is a failure', async () => {
    const c = await h.campaign();
    await h.contacts(c, Array.from({ length: 5 }, () => usNumber()));
    await h.enqueue(c);
    await h.round(c, { voice: refusing('unauthorized', false) });
    expect(await isPaused(c)).toBe(true);
    const summary = (await h.t.request({ method: 'GET', url: `/api/v1/campaigns/${c}/summary`, headers: h.account.headers })).json();
    expect(summary.paused_by).toMatchObject({ reason: 'failure_rate', failures: 5, attempts: 5 });
  });

  it('does not count refusals for the vendor\'s rate limit: no call was placed', async () => {
    const c = await h.campaign();
    await h.contacts(c, Array.from({ length: 5 }, () => usNumber()));
    await h.enqueue(c);
    await h.round(c, { voice: refusing('rate_limited', true) });
    expect(await isPaused(c)).toBe(false);
  });
});
