import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Insertable } from 'kysely';
import type { MessagesTable } from '../../db/tables/messaging.ts';
import { createTestApp, type TestApp } from '../../../test/helpers/test-app.ts';
import { createAccount, createSubUser, type Account, type SubUser } from '../../../test/helpers/factories.ts';
import { nextPhone, seed } from '../../../test/helpers/seed.ts';

/**
 * The Messages API over HTTP on a real database. Texts are seeded as rows (the sender that writes
 * them is not part of this module); the manual send is checked by the job it queues.
 */
let t: TestApp;
let alice: Account;
let bob: Account;
let sub: SubUser;
type Scene = { campaign: number; contact: number; phone: string; call: number; messages: number[] };
let granted: Scene;
let hidden: Scene;
let bobs: Scene;

const T0 = Date.parse('2026-03-01T10:00:00Z');
const at = (minutes: number) => new Date(T0 + minutes * 60_000);

async function insertMessages(rows: Partial<Insertable<MessagesTable>>[], base: { owner_id: number; campaign_id: number; contact_id: number; to_number: string }) {
  const values = rows.map((r) => ({
    ...base, direction: 'outbound' as const, role_id: 'assistant' as const, source: 'sms' as const, body: 'Hello there', status: 'delivered' as const, provider: 'sim', ...r,
  }));
  return (await t.deps.db.insertInto('messages').values(values).returning('id').execute()).map((r) => Number(r.id));
}

async function scene(owner: Account): Promise<Scene> {
  const phone = nextPhone();
  const s = await seed(t.deps.db, {
    campaigns: [{ owner }],
    contacts: [{ campaign: 0, phone_number: phone, contact_data: { name: 'Ada Lovelace' } }],
    calls: [{ contact: 0, status: 'voicemail', to_number: phone, start_time: at(10), end_time: at(11), call_duration: 60, created_at: at(9) }],
  });
  const base = { owner_id: owner.id, campaign_id: s.campaigns[0].id, contact_id: s.contacts[0].id, to_number: phone };
  const messages = await insertMessages([
    { body: 'We tried to call you', purpose: 'follow_up', call_id: s.calls[0].id, created_at: at(5), segments: 1, encoding: 'GSM-7', cost: 0.0079 },
    { body: 'Yes, call me at 5% past noon', direction: 'inbound', role_id: 'contact', status: 'received', to_number: '+14155550000', from_number: phone, created_at: at(20) },
    { body: 'Thanks, talk soon 🙂', purpose: 'reply', source: 'whatsapp', status: 'undelivered', error_code: '30003', error_message: 'Unreachable', created_at: at(30) },
  ], base);
  return { campaign: base.campaign_id, contact: base.contact_id, phone, call: s.calls[0].id, messages };
}

beforeAll(async () => {
  t = await createTestApp();
  [alice, bob] = [await createAccount(t), await createAccount(t)];
  granted = await scene(alice);
  hidden = await scene(alice);
  bobs = await scene(bob);
  sub = await createSubUser(t, alice.id, [granted.campaign]);
});
afterAll(() => t?.close());

const request = (method: 'GET' | 'POST' | 'PUT', url: string, headers: Record<string, string>, payload?: object) =>
  t.request({ method, url, headers, ...(payload ? { payload } : {}) });
const get = (url: string, headers: Record<string, string> = alice.headers) => request('GET', url, headers);
const ids = (res: { json(): { data: { id: number }[] } }) => res.json().data.map((m) => m.id);

describe('the messages list', () => {
  it('answers the owner\'s texts newest first as Message objects, with count and pagination', async () => {
    const res = await get('/api/v1/messages/?limit=4');
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.count).toBe(6);
    expect(body.count_exact).toBe(true);
    expect(body.pagination).toEqual({ current_page: 1, total_pages: 2, total_count: 6 });
    expect(ids(res)).toEqual([...hidden.messages].reverse().concat([granted.messages[2]!]));
    const failed = body.data.find((m: { id: number }) => m.id === hidden.messages[2]);
    expect(failed).toMatchObject({
      message: 'Thanks, talk soon 🙂', user_id: alice.id, campaign_id: hidden.campaign, contact_id: hidden.contact, call_id: null, role_id: 'assistant', source: 'whatsapp',
      create_datetime: at(30).toISOString(),
      message_data: { direction: 'outbound', status: 'undelivered', purpose: 'reply', error_code: '30003', error_words: 'the handset was unreachable (off or out of coverage)', error_message: 'Unreachable' },
    });
  });

  it('filters by campaign, contact, direction, channel, status, purpose, time and text', async () => {
    const cases: [string, number[]][] = [
      [`campaign_id=${granted.campaign}`, [...granted.messages].reverse()],
      [`contact_id=${hidden.contact}&direction=inbound`, [hidden.messages[1]!]],
      ['source=whatsapp', [hidden.messages[2]!, granted.messages[2]!]],
      ['status=delivered,received&campaign_id=' + granted.campaign, [granted.messages[1]!, granted.messages[0]!]],
      ['purpose=follow_up', [hidden.messages[0]!, granted.messages[0]!]],
      [`create_datetime_from=${encodeURIComponent(at(20).toISOString())}&create_datetime_to=${encodeURIComponent(at(25).toISOString())}`, [hidden.messages[1]!, granted.messages[1]!]],
      ['message=TRIED%20TO', [hidden.messages[0]!, granted.messages[0]!]],
      ['message=5%25%20past', [hidden.messages[1]!, granted.messages[1]!]],
      ['message=_', []],
      ['message=', [...hidden.messages, ...granted.messages].sort((a, b) => b - a)],
    ];
    for (const [query, expected] of cases) {
      const res = await get(`/api/v1/messages/?${query}`);
      expect(res.statusCode, `${query}: ${res.body}`).toBe(200);
      expect(ids(res), query).toEqual(expected);
      expect(res.json().count, query).toBe(expected.length);
    }
  });

  it('bounds its filters: 422 for a text search past 200 characters or an unknown status', async () => {
    expect((await get(`/api/v1/messages/?message=${'a'.repeat(201)}`)).statusCode).toBe(422);
    expect((await get('/api/v1/messages/?status=lost')).statusCode).toBe(422);
  });
});

describe('one message and who may see it', () => {
  it('answers the owner and the granted sub-user; 403 to another account or an ungranted campaign, 404 when unknown', async () => {
    const id = granted.messages[0]!;
    expect((await get(`/api/v1/messages/${id}`)).json()).toMatchObject({ id, call_id: granted.call, message_data: { purpose: 'follow_up', segments: 1, encoding: 'GSM-7', cost: 0.0079 } });
    expect((await get(`/api/v1/messages/${id}`, sub.headers)).statusCode).toBe(200);
    const denied = await get(`/api/v1/messages/${id}`, bob.headers);
    expect(denied.statusCode).toBe(403);
    expect(denied.json()).toEqual({ detail: 'Not enough permissions' });
    expect((await get(`/api/v1/messages/${hidden.messages[0]}`, sub.headers)).statusCode).toBe(403);
    expect((await get('/api/v1/messages/999999999')).statusCode).toBe(404);
  });

  it('lists for the sub-user only the granted campaign\'s texts, and for bob only his', async () => {
    expect(ids(await get('/api/v1/messages/', sub.headers))).toEqual([...granted.messages].reverse());
    expect((await get(`/api/v1/messages/?campaign_id=${hidden.campaign}`, sub.headers)).json().count).toBe(0);
    expect(ids(await get('/api/v1/messages/', bob.headers))).toEqual([...bobs.messages].reverse());
    expect((await get(`/api/v1/messages/?contact_id=${granted.contact}`, bob.headers)).json()).toMatchObject({ data: [], count: 0 });
  });
});

describe('a contact\'s timeline', () => {
  it('puts calls and texts in time order, oldest first', async () => {
    const res = await get(`/api/v1/contacts/${granted.contact}/timeline`);
    expect(res.statusCode, res.body).toBe(200);
    const items = res.json().data as { kind: string; at: string; call?: { id: number; status: string; call_duration: number }; message?: { id: number } }[];
    expect(items.map((i) => i.kind === 'call' ? `call ${i.call!.id}` : `text ${i.message!.id}`)).toEqual([
      `text ${granted.messages[0]}`, `call ${granted.call}`, `text ${granted.messages[1]}`, `text ${granted.messages[2]}`,
    ]);
    expect(items[1]).toMatchObject({ at: at(10).toISOString(), call: { status: 'voicemail', call_duration: 60 } });
    expect(res.json().truncated).toBe(false);
    const cut = (await get(`/api/v1/contacts/${granted.contact}/timeline?limit=2`)).json();
    expect(cut.truncated).toBe(true);
    expect(cut.data.map((i: { message?: { id: number } }) => i.message?.id)).toEqual([granted.messages[1], granted.messages[2]]);
  });

  it('is the contact\'s: 403 for another account or an ungranted campaign, 404 for an unknown contact', async () => {
    expect((await get(`/api/v1/contacts/${granted.contact}/timeline`, sub.headers)).statusCode).toBe(200);
    expect((await get(`/api/v1/contacts/${granted.contact}/timeline`, bob.headers)).statusCode).toBe(403);
    expect((await get(`/api/v1/contacts/${hidden.contact}/timeline`, sub.headers)).statusCode).toBe(403);
    expect((await get('/api/v1/contacts/999999999/timeline')).statusCode).toBe(404);
  });
});

describe('sending by hand', () => {
  const jobsOf = (contact: number) => t.deps.db.selectFrom('message_jobs').selectAll().where('contact_id', '=', contact).orderBy('id').execute();

  it('queues a manual job due now with who sent it, answers 202 with the job, and audits it without the words', async () => {
    const res = await request('POST', '/api/v1/messages/', alice.headers, { contact_id: granted.contact, message: 'Call us back when you can' });
    expect(res.statusCode, res.body).toBe(202);
    const job = res.json();
    expect(job).toMatchObject({ contact_id: granted.contact, campaign_id: granted.campaign, purpose: 'manual', body: 'Call us back when you can', status: 'pending', reason: null, message_id: null, sent_by_user_id: alice.id, sent_by_sub_user_id: null });
    expect(Math.abs(Date.parse(job.due_at) - Date.now())).toBeLessThan(60_000);
    const [row] = await jobsOf(granted.contact);
    expect(Number(row!.id)).toBe(job.id);
    const events = (await get('/api/v1/audit-events/?kind=message.manual_queued')).json();
    expect(events.data[0]).toMatchObject({ kind: 'message.manual_queued', subject: { type: 'message_job', id: job.id }, details: { contact_id: granted.contact, campaign_id: granted.campaign, characters: 25 } });
    expect(JSON.stringify(events.data[0])).not.toContain('Call us back');
  });

  it('records the sub-user as the sender, and refuses it an ungranted campaign\'s contact (403), bob alice\'s (403)', async () => {
    const res = await request('POST', '/api/v1/messages/', sub.headers, { contact_id: granted.contact, message: 'From the team' });
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json()).toMatchObject({ sent_by_user_id: null, sent_by_sub_user_id: sub.id });
    const before = (await jobsOf(hidden.contact)).length;
    expect((await request('POST', '/api/v1/messages/', sub.headers, { contact_id: hidden.contact, message: 'x' })).statusCode).toBe(403);
    expect((await request('POST', '/api/v1/messages/', bob.headers, { contact_id: hidden.contact, message: 'x' })).statusCode).toBe(403);
    expect((await jobsOf(hidden.contact)).length).toBe(before);
  });

  it('refuses a number on the do-not-call list or a do_not_disturb contact with 409, and queues nothing', async () => {
    const { contacts: [listed, dnd] } = await seed(t.deps.db, { contacts: [{ campaign: { id: granted.campaign, owner_id: alice.id } }, { campaign: { id: granted.campaign, owner_id: alice.id }, status: 'do_not_disturb' }] });
    expect((await request('POST', '/api/v1/suppressions/', alice.headers, { phone_number: listed.phone_number, reason: 'asked on the phone' })).statusCode).toBe(200);
    const refused = await request('POST', '/api/v1/messages/', alice.headers, { contact_id: listed.id, message: 'Hello?' });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().detail).toMatch(/do-not-call list.*asked on the phone/);
    const quiet = await request('POST', '/api/v1/messages/', alice.headers, { contact_id: dnd.id, message: 'Hello?' });
    expect(quiet.statusCode).toBe(409);
    expect(quiet.json().detail).toContain('do_not_disturb');
    expect([...(await jobsOf(listed.id)), ...(await jobsOf(dnd.id))]).toEqual([]);
  });

  it('bounds the text: 1 to 1600 characters, not only spaces', async () => {
    for (const message of ['', 'x'.repeat(1601), '   ']) {
      const res = await request('POST', '/api/v1/messages/', alice.headers, { contact_id: granted.contact, message });
      expect(res.statusCode, JSON.stringify(message.slice(0, 5))).toBe(422);
      expect(res.json().detail[0].loc).toEqual(['body', 'message']);
    }
    expect((await request('POST', '/api/v1/messages/', alice.headers, { contact_id: granted.contact, message: 'é'.repeat(1600) })).statusCode).toBe(202);
  });

  it('lists the queue with why each job waits, to whom may see its campaign', async () => {
    const mine = (await get(`/api/v1/message-jobs/?contact_id=${granted.contact}&status=pending`)).json();
    expect(mine.count).toBe(3);
    expect(mine.count_exact).toBe(true);
    expect(mine.data.map((j: { body: string }) => j.body.slice(0, 13))).toEqual(['éééééééééééééé'.slice(0, 13), 'From the team', 'Call us back ']);
    expect((await get(`/api/v1/message-jobs/?campaign_id=${granted.campaign}`, sub.headers)).json().count).toBe(3);
    expect((await get(`/api/v1/message-jobs/?campaign_id=${granted.campaign}`, bob.headers)).json()).toEqual({ data: [], count: 0, count_exact: true });
    expect((await get('/api/v1/message-jobs/?status=sent')).json().count).toBe(0);
  });
});

describe('drafts', () => {
  it('writes a text from the template without sending it, with its segments', async () => {
    const before = await t.deps.db.selectFrom('message_jobs').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
    const res = await request('POST', '/api/v1/messages/draft', alice.headers, { contact_id: granted.contact, template: 'Hi {{contact.name}}, about {{call.status}}' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ message: 'Hi Ada Lovelace, about voicemail', by: 'template', segments: 1, encoding: 'GSM-7' });
    const plain = (await request('POST', '/api/v1/messages/draft', sub.headers, { contact_id: granted.contact, call_id: granted.call })).json();
    expect(plain.message.length).toBeGreaterThan(0);
    expect(await t.deps.db.selectFrom('message_jobs').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).toEqual(before);
  });

  it('refuses another contact\'s call and a placeholder outside contact, call and campaign with 422; another account\'s contact with 403', async () => {
    const wrongCall = await request('POST', '/api/v1/messages/draft', alice.headers, { contact_id: granted.contact, call_id: hidden.call });
    expect(wrongCall.statusCode).toBe(422);
    expect(wrongCall.json().detail[0].loc).toEqual(['body', 'call_id']);
    const badTemplate = await request('POST', '/api/v1/messages/draft', alice.headers, { contact_id: granted.contact, template: 'Hi {{user.password}}' });
    expect(badTemplate.statusCode).toBe(422);
    expect(badTemplate.json().detail[0].loc).toEqual(['body', 'template']);
    expect((await request('POST', '/api/v1/messages/draft', bob.headers, { contact_id: granted.contact })).statusCode).toBe(403);
  });
});
