import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { suppressNumber } from '../src/modules/compliance/suppressions/suppressions.service.ts';
import { receiveText } from '../src/modules/messaging/inbound.ts';
import { seed } from './helpers/seed.ts';
import { createAccount } from './helpers/factories.ts';
import { FROM, textScene, type TextScene } from './helpers/text-scene.ts';

/**
 * Inbound texts over Twilio's signed webhook: threading to the contact (or a new one), stored
 * once, and acted on: opt-out and opt-in, "call me", a reply ending pending retries, the AI's
 * reply job under its daily cap.
 */
let s: TextScene;
beforeAll(async () => { s = await textScene(); }, 60_000);
afterAll(async () => { await s?.close(); });

const db = () => s.t.deps.db;
const contact = (id: number) => db().selectFrom('contacts').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const inbound = (from: string, body: string, extra: { optOutType?: 'STOP' | 'START' | 'HELP'; sid?: string; signWith?: string; to?: string } = {}) =>
  s.fake.sendInbound(s.inboundUrl(), { from, to: extra.to ?? FROM, body, ...extra });
const messagesOf = (contactId: number) => db().selectFrom('messages').selectAll().where('contact_id', '=', contactId).orderBy('id').execute();
const jobsOf = (contactId: number) => db().selectFrom('message_jobs').selectAll().where('contact_id', '=', contactId).orderBy('id').execute();
const suppressionOf = (phone: string) => db().selectFrom('suppressions').selectAll().where('owner_id', '=', s.alice.id).where('phone_number', '=', phone).executeTakeFirst();

describe('an inbound text', () => {
  it('is threaded to the contact we reached last, stored once, answered with empty TwiML, and gets a reply job', async () => {
    const phone = '+14155550201';
    const older = await s.campaign({ contacts: [{ phone }] });
    const newer = await s.campaign({ contacts: [{ phone }] });
    await s.outbound(older.contacts[0]!, { created_at: new Date(Date.now() - 3600_000) } as never);
    await s.outbound(newer.contacts[0]!);
    const sid = 'SM' + 'a'.repeat(32);
    const res = await inbound(phone, 'What is this about exactly?', { sid });
    expect(res).toMatchObject({ status: 200, contentType: expect.stringContaining('text/xml') });
    expect(res.body).toMatch(/<Response\/>$/);
    expect(await inbound(phone, 'What is this about exactly?', { sid })).toMatchObject({ status: 200 });
    const stored = (await messagesOf(newer.contacts[0]!)).filter((m) => m.direction === 'inbound');
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ role_id: 'contact', source: 'sms', status: 'received', from_number: phone, to_number: FROM, provider: 'twilio', provider_message_id: sid, voice_connection_id: null });
    expect((await messagesOf(older.contacts[0]!)).filter((m) => m.direction === 'inbound')).toHaveLength(0);
    const jobs = await jobsOf(newer.contacts[0]!);
    expect(jobs).toHaveLength(1);
    expect(jobs[0]).toMatchObject({ purpose: 'reply', reply_to_message_id: stored[0]!.id, status: 'pending', body: null });
  });

  it('from a WhatsApp number, to a phone number of the campaign, from an unknown person, creates an integration_messaging contact', async () => {
    const c = await s.campaign({ phone: null });
    await db().insertInto('phone_numbers').values({ owner_id: s.alice.id, campaign_id: c.id, phone_number: '+14155550250', country_code: 'US', provider_number_id: null }).execute();
    const res = await s.fake.sendInbound(s.inboundUrl(), { from: 'whatsapp:+14155550202', to: 'whatsapp:+14155550250', body: 'Hello?' });
    expect(res.status).toBe(200);
    const created = await db().selectFrom('contacts').selectAll().where('campaign_id', '=', c.id).executeTakeFirstOrThrow();
    expect(created).toMatchObject({ phone_number: '+14155550202', creation_method: 'integration_messaging', status: 'new', timezone: 'America/Los_Angeles' });
    expect((await messagesOf(created.id))[0]).toMatchObject({ source: 'whatsapp', direction: 'inbound', body: 'Hello?' });
    // A campaign that takes no inbound texts creates nobody.
    const closed = await s.campaign({ phone: '+14155550251' });
    await db().insertInto('campaign_messaging').values({ campaign_id: closed.id, owner_id: s.alice.id, accept_inbound: false }).execute();
    await inbound('+14155550203', 'Hi', { to: '+14155550251' });
    expect(await db().selectFrom('contacts').select('id').where('campaign_id', '=', closed.id).execute()).toEqual([]);
  });

  it('from the simulator, to a campaign without a number, is threaded to the contact our text went to', async () => {
    const c = await s.campaign({ phone: null, contacts: [{ phone: '+14155550205' }] });
    await s.outbound(c.contacts[0]!, { provider: 'sim', from_number: null });
    const received = await receiveText(s.t.deps, { provider: 'sim', connectionId: null, channel: 'sms', from: '+14155550205', to: '', body: 'What is this about exactly?', providerMessageId: 'SMsimin-thread-1', at: new Date() });
    expect(received).toMatchObject({ contactId: c.contacts[0], intent: 'other', stored: true, replyJobId: expect.any(Number) });
  });

  it('on a shared route, is never given to another account: two accounts\' contacts match, nobody gets it; the simulator\'s answer goes to the text it answers', async () => {
    const phone = '+14155550206';
    const c = await s.campaign({ phone: null, contacts: [{ phone }] });
    const mallory = await createAccount(s.t);
    const { campaigns: [theirs] } = await seed(db(), { campaigns: [{ owner: { id: mallory.id }, campaign_phone: null }] });
    const { contacts: [theirContact] } = await seed(db(), { contacts: [{ campaign: theirs!, phone_number: phone }] });
    const ours = await s.outbound(c.contacts[0]!, { provider: 'sim', from_number: null, created_at: new Date(Date.now() - 3600_000) } as never);
    // Mallory's text went out later, so "reached last" alone would hand her alice's person's words.
    const theirText = await s.outbound(Number(theirContact!.id), { provider: 'sim', from_number: null });
    const text = { provider: 'sim' as const, connectionId: null, channel: 'sms' as const, from: phone, to: '', at: new Date() };
    expect(await receiveText(s.t.deps, { ...text, body: 'STOP', providerMessageId: 'SMsimin-shared-1', optOutType: 'STOP' })).toBeNull();
    const stored = await db().selectFrom('messages').select('contact_id').where('direction', '=', 'inbound').where('from_number', '=', phone).execute();
    expect(stored).toEqual([]);
    expect(await db().selectFrom('suppressions').select('owner_id').where('phone_number', '=', phone).execute()).toEqual([]);
    // The simulator names the text it answers: alice's reply is alice's, mallory's is mallory's.
    expect(await receiveText(s.t.deps, { ...text, body: 'Who is this?', providerMessageId: 'SMsimin-shared-2', inReplyToMessageId: ours.id }))
      .toMatchObject({ contactId: c.contacts[0], stored: true });
    expect(await receiveText(s.t.deps, { ...text, body: 'Who is this?', providerMessageId: 'SMsimin-shared-3', inReplyToMessageId: theirText.id }))
      .toMatchObject({ contactId: Number(theirContact!.id), stored: true });
    // A number two accounts both give their campaigns creates a contact in neither.
    await s.campaign({ phone: '+14155550260' });
    await seed(db(), { campaigns: [{ owner: { id: mallory.id }, campaign_phone: '+14155550260' }] });
    expect(await receiveText(s.t.deps, { ...text, to: '+14155550260', from: '+14155550207', body: 'Hi', providerMessageId: 'SMsimin-shared-4' })).toBeNull();
    expect(await db().selectFrom('contacts').select('id').where('phone_number', '=', '+14155550207').execute()).toEqual([]);
  });

  it('forged, is refused with 403 and nothing is stored', async () => {
    const c = await s.campaign({ contacts: [{ phone: '+14155550204' }] });
    expect((await inbound('+14155550204', 'STOP', { signWith: 'forged-token-000' })).status).toBe(403);
    expect((await s.fake.sendInbound(s.inboundUrl('c424242'), { from: '+14155550204', to: FROM, body: 'STOP' })).status).toBe(403);
    expect(await messagesOf(c.contacts[0]!)).toEqual([]);
    expect(await suppressionOf('+14155550204')).toBeUndefined();
  });
});

describe('opting out and in by text', () => {
  it('STOP, ARRET and Twilio\'s OptOutType suppress the number account-wide, audited; START lifts only what a text made', async () => {
    const c = await s.campaign({ contacts: [{ phone: '+14155550211', status: 'call_scheduled' }, { phone: '+14155550212' }, { phone: '+14155550213' }] });
    const [stop, arret, vendor] = c.contacts as [number, number, number];
    const other = await s.campaign({ phone: '+14155550299', contacts: [{ phone: '+14155550211' }] });
    await db().insertInto('message_jobs').values({ owner_id: s.alice.id, campaign_id: c.id, contact_id: stop, purpose: 'follow_up', due_at: new Date(Date.now() + 60_000) }).execute();

    await inbound('+14155550211', ' Stop ');
    const [message] = await messagesOf(stop);
    const suppression = await suppressionOf('+14155550211');
    expect(suppression).toMatchObject({ source: 'opt_out', reason: `text opt-out (SMS, message ${message!.id}): replied "Stop"` });
    expect(await contact(stop)).toMatchObject({ status: 'do_not_disturb', next_action_code: 'suppressed' });
    // Account-wide: the same person in another campaign.
    expect(await contact(other.contacts[0]!)).toMatchObject({ status: 'do_not_disturb' });
    expect((await jobsOf(stop)).map((j) => j.status)).toEqual(['cancelled']);
    const added = await db().selectFrom('audit_events').selectAll().where('subject_type', '=', 'suppression').where('subject_id', '=', suppression!.id).execute();
    expect(added).toMatchObject([{ kind: 'suppression.added', actor_user_id: null, actor_label: '+14155550211 by SMS' }]);

    await inbound('+14155550212', 'ARRÊT');
    expect(await suppressionOf('+14155550212')).toMatchObject({ source: 'opt_out' });
    await inbound('+14155550213', 'please leave me alone', { optOutType: 'STOP' });
    expect(await suppressionOf('+14155550213')).toMatchObject({ source: 'opt_out' });
    expect((await jobsOf(arret)).length + (await jobsOf(vendor)).length).toBe(0);

    // START lifts the text's suppression, audited; the contact stays do_not_disturb (the owner decides).
    await inbound('+14155550211', 'START', { optOutType: 'START' });
    expect(await suppressionOf('+14155550211')).toBeUndefined();
    const removed = await db().selectFrom('audit_events').select('kind').where('subject_id', '=', suppression!.id).orderBy('id').execute();
    expect(removed.map((e) => e.kind)).toEqual(['suppression.added', 'suppression.removed']);
    // YES after a STOP by text is START too.
    await inbound('+14155550212', 'Yes');
    expect(await suppressionOf('+14155550212')).toBeUndefined();

    // A suppression the owner made is never lifted by a text, and STOP does not rewrite it.
    const c2 = await s.campaign({ contacts: [{ phone: '+14155550214' }] });
    await suppressNumber(db(), { ownerId: s.alice.id, phoneNumber: '+14155550214', reason: 'asked by email', source: 'manual' });
    await inbound('+14155550214', 'STOP');
    await inbound('+14155550214', 'START', { optOutType: 'START' });
    expect(await suppressionOf('+14155550214')).toMatchObject({ source: 'manual', reason: 'asked by email' });
    expect(await jobsOf(c2.contacts[0]!)).toEqual([]);
  });
});

describe('what a reply does to calls', () => {
  it('"call me tomorrow" schedules a call at 10:00 the contact\'s time; "call me" queues one now', async () => {
    const c = await s.campaign({ contacts: [{ phone: '+14155550221', status: 'finished', timezone: 'Europe/Paris' }, { phone: '+14155550222', status: 'finished' }] });
    const [later, now] = c.contacts as [number, number];
    await inbound('+14155550221', 'Please call me tomorrow morning');
    const scheduled = await contact(later);
    expect(scheduled).toMatchObject({ status: 'call_scheduled', next_action_code: 'callback_requested' });
    expect(scheduled.next_action_reason).toContain('asked by text to be called tomorrow');
    const at = scheduled.next_action_time!;
    expect(at.getTime()).toBeGreaterThan(Date.now());
    expect(at.getTime() - Date.now()).toBeLessThan(48 * 3600_000);
    expect(new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Paris', hour: '2-digit', minute: '2-digit' }).format(at)).toBe('10:00');

    await inbound('+14155550222', 'Llámame');
    expect(await contact(now)).toMatchObject({ status: 'added_to_queue', next_action_code: 'queued' });
    // Asking for a call is no reason to stop calling; the AI still acknowledges it.
    expect((await jobsOf(now)).map((j) => j.purpose)).toEqual(['reply']);
  });

  it('a reply stops pending retries (interest says so), unless the campaign says otherwise; AI replies stop at the daily cap', async () => {
    const c = await s.campaign({ contacts: [{ phone: '+14155550231', status: 'call_scheduled' }, { phone: '+14155550232', status: 'added_to_queue' }] });
    const [question, yes] = c.contacts as [number, number];
    await db().insertInto('campaign_messaging').values({ campaign_id: c.id, owner_id: s.alice.id, max_ai_replies_per_day: 1 }).execute();
    await inbound('+14155550231', 'How much does it cost?');
    const [m] = await messagesOf(question);
    expect(await contact(question)).toMatchObject({ status: 'finished', next_action_code: 'completed', next_action_reason: `replied by text (message ${m!.id})`, next_action_time: null });
    await inbound('+14155550231', 'Hello? Anyone?');
    expect(await jobsOf(question)).toHaveLength(1);

    await inbound('+14155550232', 'Yes, I am interested, tell me more');
    expect((await contact(yes)).next_action_reason).toMatch(/^interested: replied by text/);

    const keep = await s.campaign({ contacts: [{ phone: '+14155550233', status: 'call_scheduled' }] });
    await db().insertInto('campaign_messaging').values({ campaign_id: keep.id, owner_id: s.alice.id, reply_stops_calls: false, ai_replies: false }).execute();
    await inbound('+14155550233', 'ok thanks', { to: FROM });
    expect(await contact(keep.contacts[0]!)).toMatchObject({ status: 'call_scheduled' });
    expect(await jobsOf(keep.contacts[0]!)).toEqual([]);
  });
});
