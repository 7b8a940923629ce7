import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialerHarness, usNumber, type DialerHarness } from '../../../test/helpers/dialer-harness.ts';
import { insertMessageJobs } from './message-jobs.repository.ts';
import { MESSAGING_DEFAULTS } from './messaging-defaults.ts';
import { runTextRound } from './text-sender.worker.ts';

/**
 * max_per_contact is documented as "outbound texts one contact may receive from this campaign,
 * replies to the person excluded" (messaging-settings.schemas.ts, db/tables/messaging.ts).
 */
let h: DialerHarness;
beforeAll(async () => {
  h = await dialerHarness('2030-01-07T15:00:00Z', { SIM_TIME_SCALE: '1000' });
});
afterAll(async () => h?.close());

describe('max_per_contact', () => {
  // The law compared contacts.message_attempts, which counts every outbound text, AI replies
  // included, so a contact that got an AI reply had used its follow-up. It now counts the texts
  // other than replies.
  it('does not count the AI\'s replies to the person: a follow-up still goes after a reply', async () => {
    const db = h.t.deps.db;
    const campaign = await h.campaign({ title: 'Replies', is_auto_ai_message: true });
    await db.insertInto('campaign_messaging').values({ ...MESSAGING_DEFAULTS, campaign_id: campaign, owner_id: h.account.id, max_per_contact: 1, updated_at: h.clock.now() }).execute();
    const [contact] = await h.contacts(campaign, [usNumber()], { contact_data: { _sim: { text_reply: 'none' } } });
    const due = new Date(h.clock.now().getTime() - 1000);
    await insertMessageJobs(db, [{ ownerId: h.account.id, campaignId: campaign, contactId: contact!, purpose: 'reply', body: 'Happy to help: it is about solar panels.', dueAt: due }]);
    expect(await runTextRound(h.t.deps)).toBe(1);
    await insertMessageJobs(db, [{ ownerId: h.account.id, campaignId: campaign, contactId: contact!, purpose: 'follow_up', body: 'Sorry we missed you', dueAt: due }]);
    expect(await runTextRound(h.t.deps)).toBe(1);
    const jobs = await db.selectFrom('message_jobs').select(['purpose', 'status', 'reason']).where('contact_id', '=', contact!).orderBy('id').execute();
    expect(jobs).toEqual([{ purpose: 'reply', status: 'sent', reason: null }, { purpose: 'follow_up', status: 'sent', reason: null }]);
  });
});
