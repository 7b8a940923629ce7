import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialerHarness, usNumber, type DialerHarness } from '../../../test/helpers/dialer-harness.ts';
import { waitFor } from '../../../test/helpers/wait-for.ts';
import { runTextRound } from './text-sender.worker.ts';
import { insertMessageJobs } from './message-jobs.repository.ts';
import { failLostSends } from './text-jobs.repository.ts';
import { applyTextStatus } from './message-status.ts';
import { callAroundTheClock } from '../../../test/helpers/factories.ts';

/**
 * Follow-up texts through the whole service on the simulator: a call's end queues the text, the
 * sender asks the law, writes the Message row and sends it once; the simulator delivers it.
 */
let h: DialerHarness;
beforeAll(async () => {
  // The simulator's texts report delivery 3 s later at scale 1: 3 ms here.
  h = await dialerHarness('2030-01-07T15:00:00Z', { SIM_TIME_SCALE: '1000' });
});
afterAll(async () => h?.close());

const MIN = 60_000;
/** The test account's calls and texts go out around the clock (factories.ts); these tests need the law's defaults. */
const lawfulHours = (ownerId: number) =>
  db().updateTable('account_compliance').set({ quiet_hours_from: '08:00', quiet_hours_to: '21:00', max_texts_per_day: 2, max_texts_per_week: 5 }).where('owner_id', '=', ownerId).execute();
const db = () => h.t.deps.db;
const jobsOf = (contactId: number) => db().selectFrom('message_jobs').selectAll().where('contact_id', '=', contactId).orderBy('id').execute();
const messagesOf = (contactId: number) => db().selectFrom('messages').selectAll().where('contact_id', '=', contactId).orderBy('id').execute();

async function callOnce(fields: Record<string, unknown>, contactData: Record<string, unknown>) {
  const c = await h.campaign({ title: 'Solar panels', max_call_attempts: 3, call_interval: [600], ...fields });
  const [contact] = await h.contacts(c, [usNumber()], { contact_data: { name: 'Ada Lovelace', ...contactData } });
  await h.enqueue(c);
  await h.round(c);
  await h.advance(10 * MIN);
  return { campaign: c, contact: contact! };
}

describe('a follow-up text after an unanswered call', () => {
  it('is queued at the call\'s end, sent after the delay inside the window, delivered, and counted on the contact', async () => {
    const { contact } = await callOnce({ is_auto_ai_message: true }, { _sim: { status: 'voicemail', text_reply: 'none' } });
    const [call] = await h.callsOf(contact);
    expect(call!.status).toBe('voicemail');
    const [job] = await jobsOf(contact);
    expect(job).toMatchObject({ purpose: 'follow_up', status: 'pending', call_id: call!.id });
    expect(job!.due_at.getTime() - call!.end_time!.getTime()).toBe(5 * MIN);

    // Not due yet before the delay (the harness's clock stands at the call's end + a few min).
    h.clock.advance(5 * MIN);
    expect(await runTextRound(h.t.deps)).toBe(1);
    const [message] = await messagesOf(contact);
    expect(message).toMatchObject({ direction: 'outbound', role_id: 'assistant', source: 'sms', purpose: 'follow_up', provider: 'sim', call_id: call!.id, encoding: 'GSM-7', segments: 1 });
    expect(message!.body).toMatch(/^Hi Ada, we tried to call you about Solar panels\. .*Reply STOP to opt out\.$/);
    expect((await h.contact(contact)).message_attempts).toBe(1);
    expect((await jobsOf(contact))[0]).toMatchObject({ status: 'sent', message_id: message!.id });
    await waitFor(async () => (await messagesOf(contact))[0]!.status === 'delivered');
    // A second round finds nothing: the job became one message.
    expect(await runTextRound(h.t.deps)).toBe(0);
    expect(await messagesOf(contact)).toHaveLength(1);
  });

  it('is not queued for a campaign without is_auto_ai_message, nor after an answered call outside the rules', async () => {
    const off = await callOnce({}, { _sim: { status: 'voicemail' } });
    expect(await jobsOf(off.contact)).toEqual([]);
    const answered = await callOnce({ is_auto_ai_message: true }, { _sim: { status: 'finished', action_status: null, duration: 30 } });
    expect(await jobsOf(answered.contact)).toEqual([]);
  });

  it('waits for the contact\'s morning when due in the quiet hours, naming why', async () => {
    const c = await h.campaign({ title: 'Night', is_auto_ai_message: true });
    const [contact] = await h.contacts(c, [usNumber()], { timezone: 'America/New_York' });
    const night = new Date('2030-01-08T04:00:00Z'); // 23:00 in New York
    await insertMessageJobs(db(), [{ ownerId: h.account.id, campaignId: c, contactId: contact!, purpose: 'manual', body: 'hello', dueAt: new Date(h.clock.now().getTime() - 1000) }]);
    const saved = h.clock.now();
    h.clock.set(night);
    await lawfulHours(h.account.id);
    try {
      expect(await runTextRound(h.t.deps)).toBe(1);
    } finally {
      h.clock.set(saved);
      await callAroundTheClock(db(), h.account.id);
    }
    const [job] = await jobsOf(contact!);
    expect(job!.status).toBe('pending');
    expect(job!.reason).toMatch(/quiet hours/);
    expect(job!.due_at.toISOString()).toBe('2030-01-08T13:00:00.000Z'); // 08:00 New York
    expect(await messagesOf(contact!)).toEqual([]);
  });

  it('waits for the text caps: a third text to one number in a day waits 24 hours after the first', async () => {
    const c = await h.campaign({ title: 'Caps', is_auto_ai_message: true });
    const phone = usNumber();
    // The simulated person does not answer: a drawn STOP would suppress the number (the draw follows message ids, which other tests' timing moves).
    const silent = { contact_data: { _sim: { text_reply: 'none' } } };
    const ids = await h.contacts(c, [phone], silent);
    const other = await h.campaign({ title: 'Caps 2', is_auto_ai_message: true });
    const [second] = await h.contacts(other, [phone], silent);
    await lawfulHours(h.account.id);
    try {
      const start = h.clock.now().getTime();
      for (const [i, contactId] of [ids[0]!, second!, ids[0]!].entries()) {
        await insertMessageJobs(db(), [{ ownerId: h.account.id, campaignId: i === 1 ? other : c, contactId, purpose: 'manual', body: `text ${i}`, dueAt: new Date(h.clock.now().getTime() - 1000) }]);
        await runTextRound(h.t.deps);
        h.clock.advance(MIN);
      }
      // The texts the caps count (operators' texts; an AI reply in a conversation would not be capped).
      const sent = await db().selectFrom('messages').select(['body', 'created_at']).where('to_number', '=', phone).where('purpose', '=', 'manual').orderBy('id').execute();
      expect(sent.map((m) => m.body)).toEqual(['text 0', 'text 1']);
      const waiting = (await jobsOf(ids[0]!)).find((j) => j.status === 'pending')!;
      expect(waiting.reason).toMatch(/text frequency caps \(2 a day, 5 a week/);
      expect(waiting.due_at.getTime()).toBeGreaterThanOrEqual(start + 86_400_000 - 1000);
    } finally {
      await callAroundTheClock(db(), h.account.id);
    }
  });

  it('is skipped for a number on the do-not-call list, and after max_per_contact texts', async () => {
    const c = await h.campaign({ title: 'Law', is_auto_ai_message: true });
    const [blocked, busy] = await h.contacts(c, [usNumber(), usNumber()]);
    const phone = (await h.contact(blocked!)).phone_number;
    await db().insertInto('suppressions').values({ owner_id: h.account.id, phone_number: phone, reason: 'asked', source: 'manual' }).execute();
    // Two texts other than replies already went to the contact (and a reply, which the limit does not count).
    const busyPhone = (await h.contact(busy!)).phone_number;
    await db().insertInto('messages').values((['follow_up', 'confirmation', 'reply'] as const).map((purpose, i) => ({
      owner_id: h.account.id, campaign_id: c, contact_id: busy!, direction: 'outbound' as const, role_id: 'assistant' as const, source: 'sms' as const,
      purpose, body: 'earlier', status: 'delivered' as const, to_number: busyPhone, provider: 'sim', created_at: new Date(h.clock.now().getTime() - (i + 1) * 8 * 86_400_000),
    }))).execute();
    const due = new Date(h.clock.now().getTime() - 1000);
    await insertMessageJobs(db(), [blocked!, busy!].map((id) => ({ ownerId: h.account.id, campaignId: c, contactId: id, purpose: 'follow_up' as const, dueAt: due })));
    await runTextRound(h.t.deps);
    expect((await jobsOf(blocked!))[0]).toMatchObject({ status: 'skipped' });
    expect((await jobsOf(blocked!))[0]!.reason).toMatch(/do-not-call/);
    expect((await jobsOf(busy!))[0]!.reason).toMatch(/max_per_contact 2/);
    expect(await messagesOf(blocked!)).toEqual([]);
    expect(await messagesOf(busy!)).toHaveLength(3);
  });

  it('a send whose answer was lost is never sent again: adopted by the delivery report carrying our id, else failed', async () => {
    const c = await h.campaign({ title: 'Lost', is_auto_ai_message: true });
    const [a, b] = await h.contacts(c, [usNumber(), usNumber()]);
    const lost = async (contactId: number) => (await db().insertInto('messages').values({
      owner_id: h.account.id, campaign_id: c, contact_id: contactId, direction: 'outbound', role_id: 'assistant', source: 'sms',
      purpose: 'follow_up', body: 'hi', status: 'sending', to_number: '+12125550199', provider: 'sim',
      updated_at: new Date(Date.now() - 3600_000),
    }).returning('id').executeTakeFirstOrThrow()).id;
    const adopted = await lost(a!);
    const never = await lost(b!);
    const applied = await applyTextStatus(db(), { provider: 'sim', connectionId: null, messageId: adopted, providerMessageId: 'SMadopted', status: 'delivered', at: new Date() });
    expect(applied).toMatchObject({ id: adopted, status: 'delivered' });
    // Another route's report cannot adopt it.
    expect(await applyTextStatus(db(), { provider: 'twilio', connectionId: null, messageId: never, providerMessageId: 'SMx', status: 'delivered', at: new Date() })).toBeNull();
    expect(await failLostSends(db(), new Date(Date.now() - 60_000))).toBeGreaterThanOrEqual(1);
    expect((await messagesOf(b!))[0]).toMatchObject({ status: 'failed', provider_message_id: null });
    expect((await messagesOf(a!))[0]).toMatchObject({ status: 'delivered', provider_message_id: 'SMadopted' });
  });
});
