import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from './helpers/test-app.ts';
import { createSubUser, type Account } from './helpers/factories.ts';
import { seed } from './helpers/seed.ts';
import { appWithImportWorker, multipartBody, usPhone, waitForTask, type ImportScene } from './helpers/imports.ts';

let scene: ImportScene;
let t: TestApp;
let alice: Account;
let bob: Account;

beforeAll(async () => void ({ t, alice, bob } = scene = await appWithImportWorker()));
afterAll(() => scene?.close());

const BASE = '/api/v1/suppressions';
const add = (owner: { headers: Record<string, string> }, payload: Record<string, unknown>) =>
  t.request({ method: 'POST', url: `${BASE}/`, headers: owner.headers, payload });
const lookup = (owner: { headers: Record<string, string> }, phone: string) =>
  t.request({ method: 'GET', url: `${BASE}/lookup?${new URLSearchParams({ phone_number: phone })}`, headers: owner.headers });
const list = async (owner: { headers: Record<string, string> }, query = '') => {
  const res = await t.request({ method: 'GET', url: `${BASE}/${query}`, headers: owner.headers });
  expect(res.statusCode).toBe(200);
  return res.json() as { data: { id: number; phone_number: string; reason: string | null; source: string; created_by: unknown; expires_at: string | null }[]; count: number };
};
const contact = (id: number) =>
  t.deps.db.selectFrom('contacts').select(['status', 'next_action_time', 'next_action_reason']).where('id', '=', id).executeTakeFirstOrThrow();
const contactByPhone = (campaignId: number, phone: string) =>
  t.deps.db.selectFrom('contacts').select(['id', 'status', 'next_action_time', 'next_action_reason']).where('campaign_id', '=', campaignId).where('phone_number', '=', phone).executeTakeFirstOrThrow();
const suppressionCount = () => t.deps.db.selectFrom('suppressions').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow().then((r) => Number(r.n));

describe('the do-not-call list', () => {
  it('adds a number normalised to E.164, lists it newest first, looks it up and removes it', async () => {
    const res = await add(alice, { phone_number: '(415) 555-0100', reason: 'asked by letter' });
    expect(res.statusCode).toBe(200);
    const row = res.json();
    expect(row).toMatchObject({ phone_number: '+14155550100', reason: 'asked by letter', source: 'manual', call_id: null, expires_at: null,
      created_by: { user_id: alice.id, sub_user_id: null, email: alice.email } });
    const second = (await add(alice, { phone_number: usPhone(100), source: 'integration' })).json();

    const page = await list(alice);
    expect(page.data.map((s) => s.id).slice(0, 2)).toEqual([second.id, row.id]);
    expect((await list(alice, '?phone_number=%2B1%20415%20555%200100')).data.map((s) => s.id)).toEqual([row.id]);
    expect((await list(alice, '?source=integration')).data.map((s) => s.id)).toEqual([second.id]);

    expect((await lookup(alice, '415-555-0100')).json()).toMatchObject({ phone_number: '+14155550100', suppressed: true, suppression: { id: row.id } });
    const removed = await t.request({ method: 'DELETE', url: `${BASE}/${row.id}`, headers: alice.headers });
    expect(removed.statusCode).toBe(200);
    expect((await lookup(alice, '+14155550100')).json()).toEqual({ phone_number: '+14155550100', suppressed: false, suppression: null });
    expect((await t.request({ method: 'DELETE', url: `${BASE}/${row.id}`, headers: alice.headers })).statusCode).toBe(404);
  });

  it('adding a listed number again answers the same row with the new reason and expiry', async () => {
    const first = (await add(alice, { phone_number: usPhone(101), reason: 'first' })).json();
    const future = new Date(Date.now() + 86_400_000).toISOString();
    const again = (await add(alice, { phone_number: usPhone(101), reason: 'second', expires_at: future })).json();
    expect(again).toMatchObject({ id: first.id, reason: 'second', created_at: first.created_at });
    expect(new Date(again.expires_at).toISOString()).toBe(future);
    expect((await list(alice, `?phone_number=${encodeURIComponent(usPhone(101))}`)).count).toBe(1);
  });

  it('answers 422 naming the field for a bad number or a past expiry, and changes nothing', async () => {
    const before = await suppressionCount();
    const badPhone = await add(alice, { phone_number: 'not a phone' });
    expect(badPhone.statusCode).toBe(422);
    expect(badPhone.json().detail[0].loc).toEqual(['body', 'phone_number']);
    const past = await add(alice, { phone_number: usPhone(102), expires_at: new Date(Date.now() - 60_000).toISOString() });
    expect(past.statusCode).toBe(422);
    expect(past.json().detail[0].loc).toEqual(['body', 'expires_at']);
    const opt = await add(alice, { phone_number: usPhone(102), source: 'opt_out' });
    expect(opt.statusCode).toBe(422);
    expect((await lookup(alice, 'nope')).json().detail[0].loc).toEqual(['query', 'phone_number']);
    expect(await suppressionCount()).toBe(before);
  });

  it('lets a sub-user add on its owner\'s account but not remove', async () => {
    const sub = await createSubUser(t, alice.id);
    const res = await add(sub, { phone_number: usPhone(103) });
    expect(res.statusCode).toBe(200);
    expect(res.json().created_by).toEqual({ user_id: null, sub_user_id: sub.id, email: sub.email });
    expect((await lookup(alice, usPhone(103))).json().suppressed).toBe(true);
    expect((await t.request({ method: 'DELETE', url: `${BASE}/${res.json().id}`, headers: sub.headers })).statusCode).toBe(403);
    expect((await lookup(alice, usPhone(103))).json().suppressed).toBe(true);
  });

  it('keeps another account\'s suppressions out of lists and lookups, and answers 403 on their removal', async () => {
    const bobs = (await add(bob, { phone_number: usPhone(104) })).json();
    expect((await list(alice, '?include_expired=true')).data.map((s) => s.id)).not.toContain(bobs.id);
    expect((await lookup(alice, usPhone(104))).json().suppressed).toBe(false);
    expect((await t.request({ method: 'DELETE', url: `${BASE}/${bobs.id}`, headers: alice.headers })).statusCode).toBe(403);
    expect((await lookup(bob, usPhone(104))).json().suppressed).toBe(true);
  });
});

describe('contacts of a suppressed number', () => {
  it('moves the account\'s existing contacts to do_not_disturb, except one in progress, and not another account\'s', async () => {
    const { campaigns: [mine, theirs] } = await seed(t.deps.db, { campaigns: [{ owner: alice }, { owner: bob }] });
    const { contacts: [queued, calling, other] } = await seed(t.deps.db, {
      contacts: [
        { campaign: mine!, phone_number: usPhone(200), status: 'added_to_queue', next_action_time: new Date() },
        { campaign: mine!, phone_number: usPhone(201), status: 'in progress' },
        { campaign: theirs!, phone_number: usPhone(200), status: 'new' },
      ],
    });
    const s = (await add(alice, { phone_number: usPhone(200), reason: 'lawyer letter' })).json();
    await add(alice, { phone_number: usPhone(201) });
    expect(await contact(queued!.id)).toEqual({ status: 'do_not_disturb', next_action_time: null, next_action_reason: `suppressed: lawyer letter (do-not-call list, suppression ${s.id})` });
    expect((await contact(calling!.id)).status).toBe('in progress');
    expect((await contact(other!.id)).status).toBe('new');
  });

  it('creates contacts by API, bulk, CSV and integration as do_not_disturb naming the suppression, never queued', async () => {
    const { campaigns: [campaign] } = await seed(t.deps.db, { campaigns: [{ owner: alice, auto_calls: true }] });
    const phones = [usPhone(300), usPhone(301), usPhone(302), usPhone(303)];
    const ids: number[] = [];
    for (const p of phones) ids.push((await add(alice, { phone_number: p, reason: 'no calls' })).json().id);
    const note = (i: number) => `suppressed: no calls (do-not-call list, suppression ${ids[i]})`;

    const api = await t.request({ method: 'POST', url: '/api/v1/contacts/', headers: alice.headers, payload: { status: 'new', campaign_id: campaign!.id, phone_number: phones[0] } });
    expect(api.statusCode).toBe(200);
    expect(api.json()).toMatchObject({ status: 'do_not_disturb', next_action_code: 'suppressed', next_action_reason: note(0), next_action_time: null });

    const bulk = await t.request({ method: 'POST', url: '/api/v1/contacts/bulk', headers: alice.headers, payload: [{ campaign_id: campaign!.id, phone_number: phones[1], status: 'new' }, { campaign_id: campaign!.id, phone_number: usPhone(310) }] });
    expect((await waitForTask(t, alice.headers, bulk.json().task_id)).created).toBe(2);
    expect(await contactByPhone(campaign!.id, phones[1]!)).toMatchObject({ status: 'do_not_disturb', next_action_reason: note(1), next_action_time: null });
    expect((await contactByPhone(campaign!.id, usPhone(310))).status).toBe('added_to_queue');

    const { payload, headers } = multipartBody({ campaign_id: String(campaign!.id) }, { name: 'c.csv', content: `phone\n${phones[2]}\n` });
    const csv = await t.request({ method: 'POST', url: '/api/v1/contacts/import/csv', headers: { ...alice.headers, ...headers }, payload });
    expect((await waitForTask(t, alice.headers, csv.json().task_id)).created).toBe(1);
    expect(await contactByPhone(campaign!.id, phones[2]!)).toMatchObject({ status: 'do_not_disturb', next_action_reason: note(2) });

    const integration = await t.request({ method: 'POST', url: '/api/v1/integrations/contact-creation', headers: alice.headers, payload: { name: 'Form', campaign_ids: [campaign!.id], auto_start_calls: true } });
    expect(integration.statusCode).toBe(200);
    const created = await t.request({
      method: 'POST', url: '/api/v1/contact-creation-integration/create-contact',
      headers: { authorization: `Bearer ${integration.json().token}`, 'content-type': 'application/json' }, payload: JSON.stringify({ phone: phones[3] }),
    });
    expect(created.statusCode).toBe(200);
    expect(created.json()).toMatchObject({ status: 'do_not_disturb', next_action_reason: note(3), call_enqueued: false });
  });

  it('makes a contact do_not_disturb when its phone_number is changed to a suppressed one', async () => {
    const { campaigns: [campaign] } = await seed(t.deps.db, { campaigns: [{ owner: alice }] });
    const { contacts: [c] } = await seed(t.deps.db, { contacts: [{ campaign: campaign!, phone_number: usPhone(400), status: 'new' }] });
    const s = (await add(alice, { phone_number: usPhone(401) })).json();
    const res = await t.request({ method: 'PUT', url: `/api/v1/contacts/${c!.id}`, headers: alice.headers, payload: { phone_number: usPhone(401), status: 'new' } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'do_not_disturb', next_action_code: 'suppressed', next_action_reason: `suppressed: manual (do-not-call list, suppression ${s.id})` });
  });

  it('no longer applies once expired: not listed by default, not suppressed, contacts created normally', async () => {
    const { campaigns: [campaign] } = await seed(t.deps.db, { campaigns: [{ owner: alice }] });
    const expired = await t.deps.db.insertInto('suppressions')
      .values({ owner_id: alice.id, phone_number: usPhone(500), source: 'manual', reason: 'old', expires_at: new Date(Date.now() - 1000) })
      .returning('id').executeTakeFirstOrThrow();
    expect((await list(alice)).data.map((s) => s.id)).not.toContain(expired.id);
    expect((await list(alice, '?include_expired=true')).data.map((s) => s.id)).toContain(expired.id);
    expect((await lookup(alice, usPhone(500))).json()).toMatchObject({ suppressed: false, suppression: null });
    const res = await t.request({ method: 'POST', url: '/api/v1/contacts/', headers: alice.headers, payload: { status: 'new', campaign_id: campaign!.id, phone_number: usPhone(500) } });
    expect(res.json()).toMatchObject({ status: 'new', next_action_reason: null });
  });
});

describe('bulk additions', () => {
  it('adds a JSON list as a task with progress and per-row errors, source import, and stops existing contacts', async () => {
    const { campaigns: [campaign] } = await seed(t.deps.db, { campaigns: [{ owner: alice }] });
    const { contacts: [c] } = await seed(t.deps.db, { contacts: [{ campaign: campaign!, phone_number: usPhone(600), status: 'new' }] });
    const res = await t.request({
      method: 'POST', url: `${BASE}/bulk`, headers: alice.headers,
      payload: [
        { phone_number: usPhone(600), reason: 'bulk' },
        { phone_number: 'bad' },
        { phone_number: usPhone(601), expires_at: new Date(Date.now() - 1000).toISOString() },
        { phone_number: usPhone(602) },
      ],
    });
    expect(res.statusCode).toBe(200);
    const task = res.json();
    expect(task).toMatchObject({ kind: 'bulk', status: 'completed', total: 4, processed: 4, added: 2, failed: 2, error_count: 2 });
    expect(task.errors).toEqual([
      { index: 1, phone_number: 'bad', reason: 'not a valid phone number' },
      { index: 2, phone_number: usPhone(601), reason: 'expires_at: must be in the future' },
    ]);
    const read = await t.request({ method: 'GET', url: `${BASE}/bulk/${task.task_id}`, headers: alice.headers });
    expect(read.json()).toEqual(task);
    expect((await t.request({ method: 'GET', url: `${BASE}/bulk/${task.task_id}`, headers: bob.headers })).statusCode).toBe(403);
    expect((await lookup(alice, usPhone(600))).json().suppression).toMatchObject({ source: 'import', reason: 'bulk', created_by: { user_id: alice.id } });
    expect((await lookup(alice, usPhone(601))).json().suppressed).toBe(false);
    expect((await contact(c!.id)).status).toBe('do_not_disturb');
  });

  it('adds a CSV upload as a task: phone_number and reason columns, per-row errors', async () => {
    const csv = `Phone Number,Reason,Other\n${usPhone(700)},complained,x\nnope,,y\n${usPhone(701)},,z\n`;
    const { payload, headers } = multipartBody({}, { name: 'dnc.csv', content: csv });
    const res = await t.request({ method: 'POST', url: `${BASE}/import/csv`, headers: { ...alice.headers, ...headers }, payload });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ kind: 'csv', file_name: 'dnc.csv', status: 'completed', total: 3, processed: 3, added: 2, failed: 1,
      errors: [{ index: 1, phone_number: 'nope', reason: 'not a valid phone number' }] });
    expect((await lookup(alice, usPhone(700))).json().suppression).toMatchObject({ reason: 'complained', source: 'import' });
    expect((await lookup(alice, usPhone(701))).json().suppression).toMatchObject({ reason: null, source: 'import' });

    const noColumn = multipartBody({}, { name: 'x.csv', content: 'name\nAnn\n' });
    const bad = await t.request({ method: 'POST', url: `${BASE}/import/csv`, headers: { ...alice.headers, ...noColumn.headers }, payload: noColumn.payload });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().detail[0].loc).toEqual(['body', 'file']);
  });
});
