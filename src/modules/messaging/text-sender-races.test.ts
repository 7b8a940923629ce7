import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialerHarness, usNumber, type DialerHarness } from '../../../test/helpers/dialer-harness.ts';
import { runTextRound } from './text-sender.worker.ts';
import { insertMessageJobs } from './message-jobs.repository.ts';
import { claimDueTextJobs, reclaimStaleTextJobs } from './text-jobs.repository.ts';
import type { TextProvider } from '../../messaging/text-channel.ts';
import { sendTextJobs } from './send-text.ts';

/** One send per job whatever runs at once, and what a crash leaves behind. */
let h: DialerHarness;
beforeAll(async () => {
  h = await dialerHarness('2030-01-07T15:00:00Z', { SIM_TIME_SCALE: '1000' });
});
afterAll(async () => h?.close());

const db = () => h.t.deps.db;

async function jobs(n: number) {
  const c = await h.campaign({ title: 'Race', is_auto_ai_message: true });
  const contacts = await h.contacts(c, Array.from({ length: n }, () => usNumber()), { contact_data: { _sim: { text_reply: 'none' } } });
  await insertMessageJobs(db(), contacts.map((id) => ({ ownerId: h.account.id, campaignId: c, contactId: id, purpose: 'follow_up' as const, dueAt: new Date(h.clock.now().getTime() - 1000) })));
  return { campaign: c, contacts };
}

describe('the text sender under concurrency and crashes', () => {
  it('three senders racing over 60 due jobs send each exactly once', async () => {
    const { campaign, contacts } = await jobs(60);
    const sends: number[] = [];
    const counting: TextProvider = { name: 'sim', send: async (input) => { sends.push(input.messageId); return h.t.deps.texts.sim.send(input); } };
    const deps = { ...h.t.deps, texts: { sim: counting } };
    await Promise.all(['a', 'b', 'c'].map(async (w) => {
      while ((await runTextRound(deps, { workerId: `w-${w}`, limit: 7, parallel: 3 })) > 0);
    }));
    const messages = await db().selectFrom('messages').select(['id', 'contact_id']).where('campaign_id', '=', campaign).execute();
    expect(messages).toHaveLength(60);
    expect(new Set(messages.map((m) => m.contact_id)).size).toBe(60);
    expect(sends.sort((a, b) => a - b)).toEqual(messages.map((m) => m.id).sort((a, b) => a - b));
    const attempts = await db().selectFrom('contacts').select('message_attempts').where('id', 'in', contacts).execute();
    expect(attempts.every((r) => r.message_attempts === 1)).toBe(true);
  });

  it('a sender that died after its claim: the job is handed back after the lease and sent once', async () => {
    const { contacts } = await jobs(1);
    const [claimed] = await claimDueTextJobs(db(), 'dead-worker', 10, h.clock.now());
    expect(claimed!.contact_id).toBe(contacts[0]);
    // Its lease is still valid: nobody else takes it.
    expect(await runTextRound(h.t.deps)).toBe(0);
    h.clock.advance(6 * 60_000);
    expect(await reclaimStaleTextJobs(db(), new Date(h.clock.now().getTime() - 5 * 60_000))).toBe(1);
    expect(await runTextRound(h.t.deps)).toBe(1);
    expect(await db().selectFrom('messages').select('id').where('contact_id', '=', contacts[0]!).execute()).toHaveLength(1);
  });

  it('a vendor that asks to slow down (20429): nothing stored as sent, the attempt given back, the job waits', async () => {
    const { contacts } = await jobs(1);
    const busy: TextProvider = { name: 'sim', send: async () => ({ kind: 'rate_limited', code: '20429', message: 'Too Many Requests', retryAfterMs: 30_000 }) };
    expect(await runTextRound({ ...h.t.deps, texts: { sim: busy } })).toBe(1);
    const [job] = await db().selectFrom('message_jobs').selectAll().where('contact_id', '=', contacts[0]!).execute();
    expect(job).toMatchObject({ status: 'pending', message_id: null });
    expect(job!.reason).toMatch(/slow down \(20429\); the attempt was given back/);
    expect(job!.due_at.getTime()).toBe(h.clock.now().getTime() + 30_000);
    expect((await h.contact(contacts[0]!)).message_attempts).toBe(0);
    expect(await db().selectFrom('messages').select('id').where('contact_id', '=', contacts[0]!).execute()).toEqual([]);
    h.clock.advance(31_000);
    expect(await runTextRound(h.t.deps)).toBe(1);
    expect((await h.contact(contacts[0]!)).message_attempts).toBe(1);
  });

  it('a landline (21614) is not texted again: its message fails in plain words and its other texts are cancelled', async () => {
    const { campaign, contacts } = await jobs(1);
    await db().updateTable('contacts').set({ contact_data: JSON.stringify({ _sim: { text_reply: 'landline' } }) }).where('id', '=', contacts[0]!).execute();
    await insertMessageJobs(db(), [{ ownerId: h.account.id, campaignId: campaign, contactId: contacts[0]!, purpose: 'manual', body: 'later', dueAt: new Date(h.clock.now().getTime() + 3600_000) }]);
    await runTextRound(h.t.deps);
    const [message] = await db().selectFrom('messages').selectAll().where('contact_id', '=', contacts[0]!).execute();
    expect(message).toMatchObject({ status: 'failed', error_code: '21614', error_message: 'the number is not a mobile number (a landline cannot receive texts)' });
    const later = await db().selectFrom('message_jobs').selectAll().where('contact_id', '=', contacts[0]!).where('purpose', '=', 'manual').executeTakeFirstOrThrow();
    expect(later.status).toBe('cancelled');
  });

  it('a sender that wakes after its lease, its job sent by another meanwhile, does not send it again', async () => {
    // Sender A claims, stalls past its lease; B takes the job and sends it. A's first look at the
    // law (with a model configured, before it writes) then sees B's text under a cap of one a
    // day: "wait". That verdict must not put B's sent job back in the queue, or it goes twice.
    const { contacts } = await jobs(1);
    await db().updateTable('account_compliance').set({ max_texts_per_day: 1 }).where('owner_id', '=', h.account.id).execute();
    try {
      const stale = await claimDueTextJobs(db(), 'stalled', 10, h.clock.now());
      expect(stale).toHaveLength(1);
      h.clock.advance(6 * 60_000);
      expect(await reclaimStaleTextJobs(db(), new Date(h.clock.now().getTime() - 5 * 60_000))).toBe(1);
      expect(await runTextRound(h.t.deps, { workerId: 'other' })).toBe(1);
      const withModel = { ...h.t.deps, config: { ...h.t.deps.config, LLM_BASE_URL: 'http://127.0.0.1:9/v1' } };
      await sendTextJobs(withModel, stale, 'stalled');
      h.clock.advance(25 * 3600_000);
      await runTextRound(h.t.deps, { workerId: 'other' });
      const [job] = await db().selectFrom('message_jobs').select(['status', 'message_id']).where('contact_id', '=', contacts[0]!).execute();
      const messages = await db().selectFrom('messages').select('id').where('contact_id', '=', contacts[0]!).execute();
      expect(messages).toHaveLength(1);
      expect(job).toEqual({ status: 'sent', message_id: messages[0]!.id });
    } finally {
      await db().updateTable('account_compliance').set({ max_texts_per_day: 1000 }).where('owner_id', '=', h.account.id).execute();
    }
  });
});
