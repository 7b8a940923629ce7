import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialerHarness, usNumber, type DialerHarness } from './helpers/dialer-harness.ts';
import { createAccount, createSubUser, type Account } from './helpers/factories.ts';

/**
 * An operator steering a simulated call in progress (POST /api/v1/calls/{id}/end, /transfer,
 * /whisper): the simulator acts at once, its end event goes through the events service, and the
 * call row says who did what. The access rules and refusals are those of every call route.
 */
let h: DialerHarness;
let bob: Account;
beforeAll(async () => {
  h = await dialerHarness();
  bob = await createAccount(h.t);
});
afterAll(async () => h?.close());

const post = (url: string, headers: Record<string, string>, payload?: Record<string, unknown>) =>
  h.t.request({ method: 'POST', url, headers, ...(payload && { payload }) });

/** A campaign with one long simulated call, answered and in progress. */
async function callInProgress() {
  const campaign = await h.campaign({ title: 'Heat pumps' });
  const [contact] = await h.contacts(campaign, [usNumber()], { contact_data: { name: 'Ada', _sim: { persona: 'interested', duration: 600 } } });
  await h.enqueue(campaign);
  await h.round(campaign);
  await h.advance(40_000); // rung and answered: the planned end is minutes away
  const [call] = await h.callsOf(contact!);
  expect(call.status).toBe('in progress');
  return { campaign, contact: contact!, call: call as { id: number } };
}

/** Delivers what the simulator sent (its end is due at once) and reads the call row. */
async function settledRow(contactId: number) {
  await h.advance(0);
  const [row] = await h.callsOf(contactId);
  return row;
}

const auditOf = async (callId: number) => h.t.deps.db.selectFrom('audit_events').selectAll()
  .where('subject_type', '=', 'call').where('subject_id', '=', callId).orderBy('id').execute();

describe('an operator on a simulated call', () => {
  it('ends it now: HUMAN, ended by operator, who did it in call_data and in the audit trail; a second end is 409', async () => {
    const { call, contact } = await callInProgress();
    const res = await post(`/api/v1/calls/${call.id}/end`, h.account.headers);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().call_data.operator).toMatchObject({ action: 'end', user_id: h.account.id, sub_user_id: null });
    const row = await settledRow(contact);
    expect(row).toMatchObject({ status: 'finished', call_ended_by: 'HUMAN', call_ended_by_reason: 'ended by operator' });
    expect(row.call_data).toMatchObject({ ended_reason: 'ended by operator', operator: { action: 'end', user_id: h.account.id } });
    expect(row.call_duration).toBeGreaterThan(0);
    // A conversation a person chose to end is not retried.
    expect((await h.contact(contact)).status).toBe('finished');
    expect(await auditOf(call.id)).toMatchObject([{ kind: 'call.ended_by_operator', actor_user_id: h.account.id, details: { provider: 'sim' } }]);
    const again = await post(`/api/v1/calls/${call.id}/end`, h.account.headers);
    expect(again.statusCode).toBe(409);
    expect(again.json().detail).toMatch(/not in progress/);
  });

  it('transfers it to the operator\'s number: transferred, to that number, by whom', async () => {
    const { call, contact } = await callInProgress();
    const res = await post(`/api/v1/calls/${call.id}/transfer`, h.account.headers, { phone_number: '+12125550123' });
    expect(res.statusCode, res.body).toBe(200);
    const row = await settledRow(contact);
    expect(row).toMatchObject({ status: 'finished', action_status: 'transferred', action_status_reason: 'transferred by operator to +12125550123' });
    expect(row.call_data.operator).toMatchObject({ action: 'transfer', phone_number: '+12125550123', user_id: h.account.id });
    expect(await auditOf(call.id)).toMatchObject([{ kind: 'call.transferred_by_operator', details: { phone_number: '+12125550123' } }]);
  });

  it('whispers guidance the simulator records (and acknowledges); the audit keeps the length, not the words', async () => {
    const { call, contact } = await callInProgress();
    const message = 'Offer the 10% discount before they hang up.';
    const res = await post(`/api/v1/calls/${call.id}/whisper`, h.account.headers, { message });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().call_data.whispers).toMatchObject([{ message, user_id: h.account.id }]);
    expect(h.sim.whispersOf(`sim-${call.id}`)).toEqual([message]);
    const [event] = await auditOf(call.id);
    expect(event).toMatchObject({ kind: 'call.whispered', details: { characters: message.length } });
    expect(JSON.stringify(event)).not.toContain('discount');
    await post(`/api/v1/calls/${call.id}/end`, h.account.headers);
    const row = await settledRow(contact);
    expect(row.call_data.transcript.at(-1)).toEqual({ role: 'assistant', text: 'Understood, I will keep that in mind.' });
  });

  it('answers 409 for a call that is not in progress, and changes nothing', async () => {
    const { call, contact } = await callInProgress();
    await post(`/api/v1/calls/${call.id}/end`, h.account.headers);
    const before = await settledRow(contact);
    for (const [path, body] of [['end', undefined], ['transfer', { phone_number: '+12125550123' }], ['whisper', { message: 'hi' }]] as const) {
      const res = await post(`/api/v1/calls/${call.id}/${path}`, h.account.headers, body);
      expect(res.statusCode, path).toBe(409);
      expect(res.json().detail).toMatch(/not in progress \(its status is 'finished'\)/);
    }
    expect(await settledRow(contact)).toEqual(before);
  });

  it('refuses bad input with 422 and changes nothing', async () => {
    const { call, contact } = await callInProgress();
    const bad: [string, unknown][] = [
      ['transfer', { phone_number: '2125550123' }], ['transfer', { phone_number: '+1212555012345678' }], ['transfer', { phone_number: '+10000000000' }],
      ['transfer', {}],
      ['whisper', { message: '' }], ['whisper', { message: '   ' }], ['whisper', { message: 'x'.repeat(1001) }], ['whisper', {}],
    ];
    for (const [path, body] of bad) {
      const res = await post(`/api/v1/calls/${call.id}/${path}`, h.account.headers, body as Record<string, unknown>);
      expect(res.statusCode, `${path} ${JSON.stringify(body)}`).toBe(422);
    }
    const [row] = await h.callsOf(contact);
    expect(row.status).toBe('in progress');
    expect(row.call_data?.operator).toBeUndefined();
    expect(row.call_data?.whispers).toBeUndefined();
    expect(await auditOf(call.id)).toEqual([]);
    expect(h.sim.whispersOf(`sim-${call.id}`)).toEqual([]);
  });

  it('gives another account 403 and an unknown call 404; a sub-user needs the campaign\'s grant', async () => {
    const { call, campaign, contact } = await callInProgress();
    const ungranted = await createSubUser(h.t, h.account.id, []);
    for (const headers of [bob.headers, ungranted.headers]) {
      for (const [path, body] of [['end', undefined], ['transfer', { phone_number: '+12125550123' }], ['whisper', { message: 'hi' }]] as const) {
        expect((await post(`/api/v1/calls/${call.id}/${path}`, headers, body)).statusCode, path).toBe(403);
      }
    }
    expect((await post('/api/v1/calls/999999999/end', h.account.headers)).statusCode).toBe(404);
    expect((await h.callsOf(contact))[0].status).toBe('in progress');
    const granted = await createSubUser(h.t, h.account.id, [campaign]);
    const res = await post(`/api/v1/calls/${call.id}/end`, granted.headers);
    expect(res.statusCode, res.body).toBe(200);
    const row = await settledRow(contact);
    expect(row.call_data.operator).toMatchObject({ action: 'end', user_id: null, sub_user_id: granted.id });
    expect(await auditOf(call.id)).toMatchObject([{ kind: 'call.ended_by_operator', actor_sub_user_id: granted.id }]);
  });
});
