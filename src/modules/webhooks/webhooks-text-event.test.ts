import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../../test/helpers/test-app.ts';
import { createAccount, type Account } from '../../../test/helpers/factories.ts';
import { deliveriesOf, settled, appWithWebhookWorker, type WebhookScene } from '../../../test/helpers/deliveries.ts';
import type { Receiver, ReceivedRequest } from '../../../test/fakes/webhook-receiver.ts';
import { seed } from '../../../test/helpers/seed.ts';
import { receiveText } from '../messaging/inbound.ts';

/**
 * The inbound-text event: an integration with send_inbound_texts is told of each text a contact
 * sends to one of its campaigns, once, signed; the others (flag off, inactive, another campaign,
 * another account) are told nothing. Over real HTTP to a fake receiver, through the worker.
 */
let scene: WebhookScene;
let t: TestApp;
let alice: Account;
let receiver: Receiver;

beforeAll(async () => {
  ({ t, alice, receiver } = scene = await appWithWebhookWorker());
});
afterAll(() => scene?.close());

async function integration(campaignIds: number[], settings: Record<string, unknown>, who: Account = alice) {
  const path = `/texts-${Math.random().toString(36).slice(2, 8)}`;
  const res = await t.request({
    method: 'POST', url: '/api/v1/integrations/webhooks', headers: who.headers,
    payload: { url: `${receiver.url}${path}?contact={{contact.id}}`, request_schema: 'name - client name', campaign_ids: campaignIds, ...settings },
  });
  expect(res.statusCode, res.body).toBe(200);
  return { ...res.json(), hits: () => receiver.requests.filter((r) => r.url.startsWith(path)) };
}

function verify(secret: string, req: ReceivedRequest): boolean {
  const expected = createHmac('sha256', Buffer.from(secret.split('_')[1]!, 'base64'))
    .update(`${req.headers['webhook-id']}.${req.headers['webhook-timestamp']}.${req.body}`).digest('base64');
  return (req.headers['webhook-signature'] as string).split(' ').includes(`v1,${expected}`);
}

const text = (from: string, to: string, body: string, sid: string) =>
  receiveText(t.deps, { provider: 'sim', connectionId: null, channel: 'sms', from, to, body, providerMessageId: sid, at: new Date() });

describe('the inbound-text webhook event', () => {
  it('is sent once to each active integration that asks for it, signed, with the text, its contact and campaign', async () => {
    const { campaigns: [campaign] } = await seed(t.deps.db, { campaigns: [{ owner: alice, title: 'Spring texts', campaign_phone: '+14155550300' }] });
    const asks = await integration([campaign!.id], { send_inbound_texts: true });
    const silent = await integration([campaign!.id], {});
    const inactive = await integration([campaign!.id], { send_inbound_texts: true, is_active: false });
    expect(asks.send_inbound_texts).toBe(true);
    expect(silent.send_inbound_texts).toBe(false);

    const received = await text('+14155550301', '+14155550300', 'Can you call me after 5?', 'SMsimin-event-1');
    expect(received).toMatchObject({ stored: true });
    // The vendor's retry of the same text is stored once, and told once.
    expect(await text('+14155550301', '+14155550300', 'Can you call me after 5?', 'SMsimin-event-1')).toMatchObject({ stored: false });

    const [delivery, ...more] = await settled(t.deps.db, asks.id, 1);
    expect(more).toEqual([]);
    expect(delivery).toMatchObject({ kind: 'text', status: 'sent', message_id: received!.messageId, call_id: null, http_status: 200 });
    const [hit, ...again] = asks.hits();
    expect(again).toEqual([]);
    expect(hit!.url).toBe(`${new URL(asks.url.replace('{{contact.id}}', String(received!.contactId))).pathname}?contact=${received!.contactId}`);
    expect(hit!.headers['webhook-id']).toBe(`msg_${asks.id}_text_${received!.messageId}`);
    expect(verify(asks.signing_secret, hit!)).toBe(true);
    expect(JSON.parse(hit!.body)).toMatchObject({
      event: 'text.received',
      message: { id: received!.messageId, message: 'Can you call me after 5?', role_id: 'contact', source: 'sms', campaign_id: campaign!.id, contact_id: received!.contactId, call_id: null,
        message_data: { direction: 'inbound', from_number: '+14155550301', to_number: '+14155550300' } },
      contact: { id: received!.contactId, phone_number: '+14155550301' },
      campaign: { id: campaign!.id, title: 'Spring texts' },
    });
    expect(await deliveriesOf(t.deps.db, silent.id)).toEqual([]);
    expect(await deliveriesOf(t.deps.db, inactive.id)).toEqual([]);

    // A redelivery sends the event again with the same webhook id, so the receiver can de-duplicate.
    const res = await t.request({ method: 'POST', url: `/api/v1/integrations/webhooks/${asks.id}/deliveries/${delivery!.id}/redeliver`, headers: alice.headers });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ kind: 'redeliver', message_id: received!.messageId, redelivery_of: delivery!.id, status: 'sent' });
    expect(asks.hits()).toHaveLength(2);
    expect(asks.hits()[1]!.headers['webhook-id']).toBe(`msg_${asks.id}_text_${received!.messageId}`);
  });

  it('is never sent for another campaign or another account\'s text; switched on by PUT', async () => {
    const mallory = await createAccount(t);
    const { campaigns: [ours, other] } = await seed(t.deps.db, { campaigns: [{ owner: alice, campaign_phone: '+14155550310' }, { owner: alice, campaign_phone: '+14155550311' }] });
    const { campaigns: [theirs] } = await seed(t.deps.db, { campaigns: [{ owner: mallory, campaign_phone: '+14155550312' }] });
    const hook = await integration([ours!.id], {});
    const theirHook = await integration([theirs!.id], { send_inbound_texts: true }, mallory);
    const put = await t.request({ method: 'PUT', url: `/api/v1/integrations/webhooks/${hook.id}`, headers: alice.headers, payload: { send_inbound_texts: true } });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json().send_inbound_texts).toBe(true);

    await text('+14155550321', '+14155550311', 'Hello other campaign', 'SMsimin-event-2');
    const mine = await text('+14155550322', '+14155550310', 'Hello', 'SMsimin-event-3');
    const [delivery] = await settled(t.deps.db, hook.id, 1);
    expect(delivery).toMatchObject({ message_id: mine!.messageId, status: 'sent' });
    expect(await deliveriesOf(t.deps.db, hook.id)).toHaveLength(1);
    expect(await deliveriesOf(t.deps.db, theirHook.id)).toEqual([]);
    // Alice cannot read mallory's integration's deliveries.
    const peek = await t.request({ method: 'GET', url: `/api/v1/integrations/webhooks/${theirHook.id}/deliveries`, headers: alice.headers });
    expect(peek.statusCode).toBe(403);
  });
});
