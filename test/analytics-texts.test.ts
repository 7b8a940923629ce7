import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MessageRow } from '../src/db/tables/messaging.ts';
import { suppressByText } from '../src/modules/messaging/text-opt-out.ts';
import { createAccount, createSubUser, type Account, type SubUser } from './helpers/factories.ts';
import { seed } from './helpers/seed.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';

/**
 * The texts figures of GET /analytics/detailed over messages written here at known times: two
 * accounts text at the same moments, and only the caller's texts (of its granted campaigns, of
 * the filtered campaign) count, in the period they were written in.
 */
const HOUR = 3_600_000;
let t: TestApp;
let alice: Account;
let bob: Account;
let onlyB: SubUser;
let start: Date;
let end: Date;
let campaignA: number;

type Fields = Partial<Pick<MessageRow, 'status' | 'cost' | 'provider_message_id' | 'error_code'>>;

async function text(contactId: number, direction: 'outbound' | 'inbound', at: Date, fields: Fields = {}): Promise<number> {
  const db = t.deps.db;
  const c = await db.selectFrom('contacts').select(['owner_id', 'campaign_id', 'phone_number']).where('id', '=', contactId).executeTakeFirstOrThrow();
  const row = await db.insertInto('messages').values({
    owner_id: c.owner_id, campaign_id: c.campaign_id, contact_id: contactId, call_id: null, direction,
    role_id: direction === 'outbound' ? 'assistant' : 'contact', source: 'sms', purpose: direction === 'outbound' ? 'follow_up' : null,
    body: direction === 'outbound' ? 'Sorry we missed you' : 'ok', status: direction === 'outbound' ? 'delivered' : 'received',
    to_number: direction === 'outbound' ? c.phone_number : '+14155550100', from_number: direction === 'outbound' ? '+14155550100' : c.phone_number,
    provider: 'sim', provider_message_id: direction === 'outbound' ? `SM${contactId}-${at.getTime()}` : null,
    created_at: at, updated_at: at, ...fields,
  }).returning('id').executeTakeFirstOrThrow();
  return Number(row.id);
}

/** One account's texts: the same every time, so bob's mirror alice's and would show in her figures. */
async function textsOf(owner: Account): Promise<{ a: number; b: number }> {
  const { campaigns: [a, b], contacts: [a1, a2, a3, a4, b1] } = await seed(t.deps.db, {
    campaigns: [{ owner, title: 'A' }, { owner, title: 'B' }],
    contacts: [{ campaign: 0 }, { campaign: 0 }, { campaign: 0 }, { campaign: 0 }, { campaign: 1 }],
  });
  const at = (hours: number) => new Date(start.getTime() + hours * HOUR);
  // Calls: a1 and b1 never answered before they texted in; a2 answered once.
  await seed(t.deps.db, { calls: [
    { contact: a1, status: 'unavailable', call_type: 'outbound', start_time: at(1), call_duration: 0 },
    { contact: a2, status: 'voicemail', call_type: 'outbound', start_time: at(1), call_duration: 0 },
    { contact: a2, status: 'finished', call_type: 'outbound', start_time: at(2), call_duration: 30 },
    { contact: b1, status: 'busy_or_rejected', call_type: 'outbound', start_time: at(1), call_duration: null },
    // Before the period: not a call of the period, so a3's reply does not count as reached.
    { contact: a3, status: 'unavailable', call_type: 'outbound', start_time: at(-2), call_duration: 0 },
  ] });
  await text(a1.id, 'outbound', at(1.5), { cost: 0.05 });
  await text(a2.id, 'outbound', at(1.5), { status: 'failed', provider_message_id: null, error_code: '21614' }); // refused: failed, not sent
  await text(a3.id, 'outbound', at(1.5), { status: 'undelivered', cost: 0.04 });
  await text(a4.id, 'outbound', at(1.5), { status: 'sending', provider_message_id: null }); // answer lost: neither
  await text(b1.id, 'outbound', at(1.5), { status: 'read', cost: 0.1 });
  await text(a1.id, 'inbound', at(3));
  await text(a1.id, 'inbound', at(3.5));
  await text(a3.id, 'inbound', at(3));
  await text(b1.id, 'inbound', at(3));
  const stop = await text(a2.id, 'inbound', at(4));
  await t.deps.db.transaction().execute((trx) => suppressByText(trx, { ownerId: owner.id, phone: a2.phone_number, channel: 'sms', messageId: stop, what: 'replied "STOP"' }, at(4)));
  // A repeated STOP adds no suppression: not a second opt-out.
  const again = await text(a2.id, 'inbound', at(5));
  await t.deps.db.transaction().execute((trx) => suppressByText(trx, { ownerId: owner.id, phone: a2.phone_number, channel: 'sms', messageId: again, what: 'replied "STOP"' }, at(5)));
  // The previous period, and the period's end (half-open: not in it).
  await text(a1.id, 'outbound', at(-3), { cost: 0.2 });
  await text(a1.id, 'outbound', end, { cost: 9 });
  return { a: Number(a.id), b: Number(b.id) };
}

beforeAll(async () => {
  t = await createTestApp();
  alice = await createAccount(t);
  bob = await createAccount(t);
  end = new Date(Math.floor(t.deps.clock.now().getTime() / HOUR) * HOUR);
  start = new Date(end.getTime() - 24 * HOUR);
  const mine = await textsOf(alice);
  campaignA = mine.a;
  await textsOf(bob);
  onlyB = await createSubUser(t, alice.id, [mine.b]);
});
afterAll(() => t?.close());

async function report(headers: Record<string, string>, query: Record<string, string> = {}) {
  const res = await t.request({ method: 'GET', url: '/api/v1/analytics/detailed', headers, query: { start_date: start.toISOString(), end_date: end.toISOString(), ...query } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

const EMPTY = { sent: 0, delivered: 0, failed: 0, replies: 0, replied_contacts: 0, opt_outs_by_text: 0, cost: 0, reached_after_unanswered_calls: 0 };

describe('texts in the detailed report', () => {
  it('counts the caller\'s texts of the period, never another account\'s', async () => {
    const body = await report(alice.headers);
    expect(body.texts).toEqual({ sent: 3, delivered: 2, failed: 2, replies: 6, replied_contacts: 4, opt_outs_by_text: 1, cost: 0.19, reached_after_unanswered_calls: 2 });
    expect(body.previous).toBeUndefined();
    // Bob's texts are the same figures over his own rows.
    expect((await report(bob.headers)).texts).toEqual(body.texts);
  });

  it('compares with the previous period', async () => {
    const body = await report(alice.headers, { compare_with_previous: 'true' });
    expect(body.previous.texts).toEqual({ ...EMPTY, sent: 1, delivered: 1, cost: 0.2 });
    expect(body.change.texts.sent).toEqual({ absolute: 2, percent: 200 });
    expect(body.change.texts.cost).toEqual({ absolute: -0.01, percent: -5 });
    expect(body.change.texts.replies).toEqual({ absolute: 6, percent: null });
    // The totals' change is still there beside it.
    expect(body.change.calls).toBeDefined();
  });

  it('keeps to the filtered campaign and to a sub-user\'s grants; call_types does not apply', async () => {
    expect((await report(alice.headers, { campaign_id: String(campaignA) })).texts)
      .toEqual({ sent: 2, delivered: 1, failed: 2, replies: 5, replied_contacts: 3, opt_outs_by_text: 1, cost: 0.09, reached_after_unanswered_calls: 1 });
    expect((await report(onlyB.headers)).texts).toEqual({ ...EMPTY, sent: 1, delivered: 1, replies: 1, replied_contacts: 1, cost: 0.1, reached_after_unanswered_calls: 1 });
    expect((await report(alice.headers, { call_types: 'inbound' })).texts.sent).toBe(3);
  });

  it('answers zeros for a period without texts', async () => {
    const body = await report(alice.headers, { start_date: new Date(start.getTime() - 30 * 24 * HOUR).toISOString(), end_date: new Date(start.getTime() - 29 * 24 * HOUR).toISOString() });
    expect(body.texts).toEqual(EMPTY);
  });
});
