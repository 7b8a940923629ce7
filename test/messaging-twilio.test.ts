import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TextSend } from '../src/messaging/text-channel.ts';
import { insertMessageJobs } from '../src/modules/messaging/message-jobs.repository.ts';
import { runTextRound } from '../src/modules/messaging/text-sender.worker.ts';
import { MESSAGING_DEFAULTS } from '../src/modules/messaging/messaging-defaults.ts';
import { textRouteFor, textRoutesFor } from '../src/modules/messaging/text-routes.ts';
import { createAccount } from './helpers/factories.ts';
import { startFakeTwilioMessages } from './fakes/twilio-messages.ts';
import { FROM, SID, TOKEN, textScene, type TextScene } from './helpers/text-scene.ts';

/**
 * Twilio Messaging over real sockets: the provider's answers as the port's results, the route
 * resolver's choice of credentials, and the signed status callbacks (forward only, a lost answer
 * adopted by our id, 21610 and 21614).
 */
const ANN = '+14155550101';
const LANDLINE = '+14155550102';
const GONE = '+14155550103';
const WA_OLD = '+14155550104';

let s: TextScene;
beforeAll(async () => {
  s = await textScene({ landlines: [LANDLINE], unsubscribed: [GONE], outsideWindow: [WA_OLD] });
}, 60_000);
afterAll(async () => { await s?.close(); });

const send = (fields: Partial<TextSend> & { messageId: number }) => s.campaign().then(async (c) => {
  const route = await textRouteFor(s.t.deps, { ownerId: s.alice.id, campaignId: c.id, campaignPhone: FROM, messagingServiceSid: null });
  return route.provider.send({ channel: 'sms', to: ANN, from: route.from, body: 'Hello from Acme', ...fields });
});

describe('the Twilio text provider', () => {
  it('is the route of a campaign on the service\'s Twilio settings, and maps every answer', async () => {
    const c = await s.campaign({ phone: null });
    const route = await textRouteFor(s.t.deps, { ownerId: s.alice.id, campaignId: c.id, campaignPhone: null, messagingServiceSid: null });
    expect(route).toMatchObject({ connectionId: null, from: FROM });
    expect(route.provider.name).toBe('twilio');

    const accepted = await send({ messageId: 41 });
    expect(accepted).toMatchObject({ kind: 'accepted', status: 'queued', cost: null });
    const created = s.fake.messages.at(-1)!;
    expect(created.params).toEqual({ To: ANN, From: FROM, Body: 'Hello from Acme', StatusCallback: `${s.baseUrl}/api/v1/messaging/twilio/status/env/41` });
    expect(accepted.kind === 'accepted' && accepted.providerMessageId).toBe(created.resource.sid);

    // WhatsApp: prefixed numbers; outside the 24-hour window free text is refused, a template goes.
    expect(await send({ messageId: 42, channel: 'whatsapp', to: WA_OLD })).toMatchObject({ kind: 'refused', code: '63016' });
    expect(s.fake.requests.at(-1)).toMatchObject({ To: `whatsapp:${WA_OLD}`, From: `whatsapp:${FROM}`, Body: 'Hello from Acme' });
    expect(await send({ messageId: 43, channel: 'whatsapp', to: WA_OLD, contentSid: 'HX0123' })).toMatchObject({ kind: 'accepted' });
    expect(s.fake.requests.at(-1)).not.toHaveProperty('Body');
    // A Messaging Service picks the sender.
    expect(await send({ messageId: 44, messagingServiceSid: 'MG0123' })).toMatchObject({ kind: 'accepted' });
    expect(s.fake.requests.at(-1)).toMatchObject({ MessagingServiceSid: 'MG0123' });
    expect(s.fake.requests.at(-1)).not.toHaveProperty('From');

    expect(await send({ messageId: 45, to: LANDLINE })).toMatchObject({ kind: 'refused', code: '21614' });
    expect(await send({ messageId: 46, to: GONE })).toMatchObject({ kind: 'refused', code: '21610' });
    expect(await send({ messageId: 47, to: 'nonsense' })).toMatchObject({ kind: 'refused', code: '21211' });
    s.fake.rateLimitNext(1, 3);
    expect(await send({ messageId: 48 })).toMatchObject({ kind: 'rate_limited', code: '20429', retryAfterMs: 3000 });
    s.fake.failNext(1);
    expect(await send({ messageId: 49 })).toMatchObject({ kind: 'lost' });
    const made = s.fake.messages.length;
    s.fake.loseNextAnswers(1);
    expect(await send({ messageId: 50 })).toMatchObject({ kind: 'lost' });
    expect(s.fake.messages).toHaveLength(made + 1);
  });

  it('refuses on wrong credentials, and gives the attempt back when Twilio cannot be reached at all', async () => {
    const other = await startFakeTwilioMessages({ accountSid: SID, authToken: 'another-token-000' });
    const config = s.t.config as { TWILIO_BASE_URL: string };
    const real = config.TWILIO_BASE_URL;
    try {
      config.TWILIO_BASE_URL = other.url;
      expect(await send({ messageId: 51 })).toMatchObject({ kind: 'refused', code: '20003' });
      // A port nobody listens on: the request never left.
      const closed = createServer();
      await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
      const port = (closed.address() as { port: number }).port;
      await new Promise<void>((r) => closed.close(() => r()));
      config.TWILIO_BASE_URL = `http://127.0.0.1:${port}`;
      expect(await send({ messageId: 52 })).toMatchObject({ kind: 'rate_limited', code: 'unreachable' });
    } finally {
      config.TWILIO_BASE_URL = real;
      await other.close();
    }
  });

  it('takes an account\'s Twilio voice connection before the service\'s settings, signed callbacks on its own route', async () => {
    const token = 'connection-token-0001';
    const sid = `AC${'c3'.repeat(16)}`;
    const theirs = await startFakeTwilioMessages({ accountSid: sid, authToken: token });
    const config = s.t.config as { TWILIO_BASE_URL: string };
    const real = config.TWILIO_BASE_URL;
    try {
      const res = await s.t.request({ method: 'POST', url: '/api/v1/voice-connections/', headers: s.alice.headers, payload: { name: 'Own Twilio', provider: 'twilio', api_key: token, account_sid: sid, from_number: '+14155550190' } });
      expect(res.statusCode, res.body).toBe(200);
      const connectionId = res.json().id as number;
      config.TWILIO_BASE_URL = theirs.url;
      const c = await s.campaign({ phone: null, contacts: [{ phone: ANN }] });
      const route = await textRouteFor(s.t.deps, { ownerId: s.alice.id, campaignId: c.id, campaignPhone: null, messagingServiceSid: null });
      expect(route).toMatchObject({ connectionId, from: '+14155550190' });
      // Another account naming alice's campaign gets neither her assistant's nor her account's connection.
      const mallory = await createAccount(s.t);
      const borrowed = await textRoutesFor(s.t.deps, [
        { ownerId: mallory.id, campaignId: c.id, campaignPhone: null, messagingServiceSid: null },
      ]);
      expect(borrowed.get(c.id)).toMatchObject({ connectionId: null });
      const m = await s.outbound(c.contacts[0]!, { voice_connection_id: connectionId, from_number: '+14155550190' });
      const answer = await route.provider.send({ messageId: m.id, channel: 'sms', to: ANN, from: route.from, body: 'Hi' });
      expect(answer.kind).toBe('accepted');
      const sent = theirs.messages.at(-1)!;
      expect(sent.params.StatusCallback).toBe(`${s.baseUrl}/api/v1/messaging/twilio/status/c${connectionId}/${m.id}`);
      // The connection's token signs its route; the service's token does not.
      expect(await theirs.report(sent.resource.sid, ['sent'], { signWith: TOKEN })).toEqual([403]);
      expect(await theirs.report(sent.resource.sid, ['delivered'])).toEqual([204]);
      expect(await s.message(m.id)).toMatchObject({ status: 'delivered', provider_message_id: sent.resource.sid });
      await s.t.deps.db.deleteFrom('voice_connections').where('id', '=', connectionId).execute();
    } finally {
      config.TWILIO_BASE_URL = real;
      await theirs.close();
    }
  });
});

describe('Twilio status callbacks', () => {
  it('move a message forward only; a forged one is 403 and changes nothing', async () => {
    const c = await s.campaign({ contacts: [{ phone: ANN }] });
    const m = await s.outbound(c.contacts[0]!);
    const answer = await textRouteFor(s.t.deps, { ownerId: s.alice.id, campaignId: c.id, campaignPhone: FROM, messagingServiceSid: null })
      .then((r) => r.provider.send({ messageId: m.id, channel: 'sms', to: ANN, from: FROM, body: m.body }));
    if (answer.kind !== 'accepted') throw new Error(answer.kind);
    await s.t.deps.db.updateTable('messages').set({ status: 'queued', provider_message_id: answer.providerMessageId }).where('id', '=', m.id).execute();

    expect(await s.fake.report(answer.providerMessageId, ['sent'], { signWith: 'forged-token-000' })).toEqual([403]);
    expect((await s.message(m.id)).status).toBe('queued');
    expect(await s.fake.report(answer.providerMessageId, ['sent', 'delivered', 'sent'])).toEqual([204, 204, 204]);
    expect(await s.message(m.id)).toMatchObject({ status: 'delivered', error_code: null });
    expect((await s.message(m.id)).delivered_at).not.toBeNull();
    // A route that names no credentials is refused alike.
    const unknown = await fetch(`${s.baseUrl}/api/v1/messaging/twilio/status/c999999/${m.id}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': 'x' }, body: 'MessageSid=SM1&MessageStatus=failed' });
    expect(unknown.status).toBe(403);
  });

  it('adopt a send whose answer was lost, by the message id in the callback URL', async () => {
    const c = await s.campaign({ contacts: [{ phone: ANN }] });
    const m = await s.outbound(c.contacts[0]!);
    s.fake.loseNextAnswers(1);
    const route = await textRouteFor(s.t.deps, { ownerId: s.alice.id, campaignId: c.id, campaignPhone: FROM, messagingServiceSid: null });
    expect(await route.provider.send({ messageId: m.id, channel: 'sms', to: ANN, from: FROM, body: m.body })).toMatchObject({ kind: 'lost' });
    const sid = s.fake.messages.at(-1)!.resource.sid;
    expect(await s.fake.report(sid, ['sent'])).toEqual([204]);
    expect(await s.message(m.id)).toMatchObject({ status: 'sent', provider_message_id: sid });
  });

  it('21610 suppresses the number account-wide; 21614 cancels the contact\'s pending texts', async () => {
    const db = s.t.deps.db;
    const c = await s.campaign({ contacts: [{ phone: '+14155550111' }, { phone: '+14155550112' }] });
    const [unsub, landline] = c.contacts as [number, number];
    const route = await textRouteFor(s.t.deps, { ownerId: s.alice.id, campaignId: c.id, campaignPhone: FROM, messagingServiceSid: null });
    const sendTo = async (contactId: number, to: string) => {
      const m = await s.outbound(contactId, { to_number: to });
      await route.provider.send({ messageId: m.id, channel: 'sms', to, from: FROM, body: m.body });
      return { m, sid: s.fake.messages.at(-1)!.resource.sid };
    };
    const a = await sendTo(unsub, '+14155550111');
    const b = await sendTo(landline, '+14155550112');
    await insertMessageJobs(db, [landline, unsub].map((contactId) => ({ ownerId: s.alice.id, campaignId: c.id, contactId, purpose: 'manual' as const, body: 'x', dueAt: new Date(Date.now() + 3600_000) })));

    expect(await s.fake.report(a.sid, ['undelivered'], { errorCode: '21610' })).toEqual([204]);
    expect(await s.message(a.m.id)).toMatchObject({ status: 'undelivered', error_code: '21610' });
    const suppression = await db.selectFrom('suppressions').selectAll().where('owner_id', '=', s.alice.id).where('phone_number', '=', '+14155550111').executeTakeFirstOrThrow();
    expect(suppression).toMatchObject({ source: 'opt_out', call_id: null });
    expect(suppression.reason).toContain(`text opt-out (SMS, message ${a.m.id}): Twilio 21610`);
    expect(await db.selectFrom('contacts').select('status').where('id', '=', unsub).executeTakeFirstOrThrow()).toEqual({ status: 'do_not_disturb' });
    const audit = await db.selectFrom('audit_events').selectAll().where('owner_id', '=', s.alice.id).where('subject_id', '=', suppression.id).execute();
    expect(audit.map((e) => e.kind)).toEqual(['suppression.added']);

    expect(await s.fake.report(b.sid, ['failed'], { errorCode: '21614' })).toEqual([204]);
    const jobs = await db.selectFrom('message_jobs').select(['contact_id', 'status', 'reason']).where('campaign_id', '=', c.id).orderBy('contact_id').execute();
    expect(jobs.find((j) => j.contact_id === landline)).toMatchObject({ status: 'cancelled', reason: expect.stringContaining(`message ${b.m.id} was refused`) });
    expect(jobs.find((j) => j.contact_id === unsub)).toMatchObject({ status: 'cancelled', reason: expect.stringContaining('opted out by text') });
    // The landline is not suppressed: it can still be called.
    expect(await db.selectFrom('suppressions').select('id').where('phone_number', '=', '+14155550112').executeTakeFirst()).toBeUndefined();
  });
});

describe('WhatsApp\'s 24-hour window', () => {
  it('sends the words inside it, the approved template outside it, and nothing (saying why) without a template', async () => {
    const db = s.t.deps.db;
    const talked = '+14155550121';
    const quiet = '+14155550122';
    const withTemplate = await s.campaign({ contacts: [{ phone: talked }, { phone: quiet }] });
    const without = await s.campaign({ contacts: [{ phone: '+14155550123' }] });
    const template = `HX${'ab'.repeat(16)}`;
    await db.insertInto('campaign_messaging').values([
      { ...MESSAGING_DEFAULTS, campaign_id: withTemplate.id, owner_id: s.alice.id, channel: 'whatsapp', whatsapp_content_sid: template, updated_at: new Date() },
      { ...MESSAGING_DEFAULTS, campaign_id: without.id, owner_id: s.alice.id, channel: 'whatsapp', updated_at: new Date() },
    ]).execute();
    // The person wrote an hour ago (the service's clock): the window is open for them only.
    const now = s.t.deps.clock.now();
    await s.outbound(withTemplate.contacts[0]!, { direction: 'inbound', role_id: 'contact', source: 'whatsapp', purpose: null, status: 'received',
      to_number: FROM, from_number: talked, created_at: new Date(now.getTime() - 3600_000) } as never);
    const due = new Date(now.getTime() - 1000);
    await insertMessageJobs(db, [...withTemplate.contacts, ...without.contacts].map((contactId, i) => ({
      ownerId: s.alice.id, campaignId: i < 2 ? withTemplate.id : without.id, contactId, purpose: 'manual' as const, body: 'Your quote is ready', dueAt: due,
    })));
    const before = s.fake.messages.length;
    await runTextRound(s.t.deps);
    const sent = s.fake.messages.slice(before).map((m) => m.params);
    expect(sent).toHaveLength(2);
    expect(sent.find((p) => p.To === `whatsapp:${talked}`)).toMatchObject({ Body: 'Your quote is ready' });
    expect(sent.find((p) => p.To === `whatsapp:${talked}`)).not.toHaveProperty('ContentSid');
    expect(sent.find((p) => p.To === `whatsapp:${quiet}`)).toMatchObject({ ContentSid: template });
    expect(sent.find((p) => p.To === `whatsapp:${quiet}`)).not.toHaveProperty('Body');
    const jobs = await db.selectFrom('message_jobs').select(['contact_id', 'status', 'reason']).where('campaign_id', 'in', [withTemplate.id, without.id]).orderBy('contact_id').execute();
    expect(jobs).toEqual([
      { contact_id: withTemplate.contacts[0], status: 'sent', reason: null },
      { contact_id: withTemplate.contacts[1], status: 'sent', reason: null },
      { contact_id: without.contacts[0], status: 'skipped', reason: expect.stringContaining('outside WhatsApp\'s 24-hour window') },
    ]);
    const quietRow = await db.selectFrom('messages').select('body').where('contact_id', '=', withTemplate.contacts[1]!).executeTakeFirstOrThrow();
    expect(quietRow.body).toContain(`WhatsApp template ${template}`);
  });
});
