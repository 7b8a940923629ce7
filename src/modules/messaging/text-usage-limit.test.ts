import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialerHarness, usNumber, type DialerHarness } from '../../../test/helpers/dialer-harness.ts';
import { insertMessageJobs } from './message-jobs.repository.ts';
import { runTextRound } from './text-sender.worker.ts';

/**
 * limit_unit cost counts the campaign's texts as well as its calls, and a reached limit stops
 * both: no call starts, and a due text waits (it is not dropped) until the limit is lifted.
 */
let h: DialerHarness;
beforeAll(async () => {
  h = await dialerHarness('2030-01-07T15:00:00Z');
});
afterAll(async () => h?.close());

const MIN = 60_000;
const db = () => h.t.deps.db;
const campaignRow = (id: number) => db().selectFrom('campaigns').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const messagesOf = (campaignId: number) => db().selectFrom('messages').selectAll().where('campaign_id', '=', campaignId).orderBy('id').execute();
const textTo = (campaignId: number, contactId: number, body: string) =>
  insertMessageJobs(db(), [{ ownerId: h.account.id, campaignId, contactId, purpose: 'manual', body, dueAt: new Date(h.clock.now().getTime() - 1000) }]);

describe('a cost limit reached by texts', () => {
  it('stops calls and texts; raising the limit lets both go on', async () => {
    const c = await h.campaign({ limit_unit: 'cost', limit_value: 0.1, concurrent_call_limit: 1 });
    const [first, second, callee] = await h.contacts(c, [usNumber(), usNumber(), usNumber()], { contact_data: { _sim: { status: 'finished', duration: 60, text_reply: 'none' } } });

    expect(await textTo(c, first!, 'hello')).toHaveLength(1);
    expect(await runTextRound(h.t.deps)).toBe(1);
    const [sent] = await messagesOf(c);
    // The vendor's price for the text, as its report writes it: past the limit on its own.
    await db().updateTable('messages').set({ cost: 0.12 }).where('id', '=', sent!.id).execute();

    // Calls: the dialer counts the texts' cost and starts none.
    await h.enqueue(c);
    expect(await h.round(c)).toBe(0);

    // Texts: the next one waits, saying why; the flag is set as after a call's cost.
    await textTo(c, second!, 'second');
    expect(await runTextRound(h.t.deps)).toBe(1);
    expect(await messagesOf(c)).toHaveLength(1);
    const [job] = await db().selectFrom('message_jobs').selectAll().where('contact_id', '=', second!).execute();
    expect(job).toMatchObject({ status: 'pending', message_id: null });
    expect(job!.reason).toMatch(/^waits: campaign usage limit reached \(limit_unit cost/);
    expect(job!.due_at.getTime()).toBeGreaterThan(h.clock.now().getTime());
    expect(await campaignRow(c)).toMatchObject({ limit_reached: true, limit_usage: 0.12 });

    // Still reached after the recheck delay: still waits, and still no call.
    await h.advance(11 * MIN);
    expect(await h.round(c)).toBe(0);
    expect(await runTextRound(h.t.deps)).toBe(1);
    expect(await messagesOf(c)).toHaveLength(1);

    // Raised above the usage: the text goes at its next turn and calls start again.
    const res = await h.t.request({ method: 'PUT', url: `/api/v1/campaigns/${c}`, headers: h.account.headers, payload: { limit_value: 5 } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ limit_usage: 0.12, limit_reached: false });
    await h.advance(11 * MIN);
    expect(await runTextRound(h.t.deps)).toBe(1);
    expect((await messagesOf(c)).map((m) => m.contact_id)).toEqual([first, second]);
    let started = 0;
    for (let i = 0; i < 3 && started === 0; i++) started += await h.round(c);
    expect(started).toBe(1);
    expect((await h.callsOf(callee!)).length + (await h.callsOf(first!)).length + (await h.callsOf(second!)).length).toBe(1);
  });

  it('leaves a campaign under its cost limit alone', async () => {
    const c = await h.campaign({ limit_unit: 'cost', limit_value: 1, concurrent_call_limit: 1 });
    const [a, b] = await h.contacts(c, [usNumber(), usNumber()], { contact_data: { _sim: { text_reply: 'none' } } });
    await textTo(c, a!, 'one');
    await runTextRound(h.t.deps);
    await db().updateTable('messages').set({ cost: 0.3 }).where('campaign_id', '=', c).execute();
    await textTo(c, b!, 'two');
    await runTextRound(h.t.deps);
    expect(await messagesOf(c)).toHaveLength(2);
    expect((await campaignRow(c)).limit_reached).toBe(false);
  });

  it('is marked reached as soon as the texts that reach it are sent, with no further text or call due', async () => {
    // The simulator prices a text at 0.0079: two of them pass 0.01.
    const c = await h.campaign({ limit_unit: 'cost', limit_value: 0.01, concurrent_call_limit: 1 });
    const [a, b] = await h.contacts(c, [usNumber(), usNumber()], { contact_data: { _sim: { text_reply: 'none' } } });
    await textTo(c, a!, 'one');
    await textTo(c, b!, 'two');
    expect(await runTextRound(h.t.deps)).toBe(2);
    expect((await messagesOf(c)).map((m) => m.cost)).toEqual([0.0079, 0.0079]);
    expect(await campaignRow(c)).toMatchObject({ limit_reached: true, limit_usage: 0.0158 });
  });
});
