import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialerHarness, usNumber, type DialerHarness } from '../../../test/helpers/dialer-harness.ts';
import { finishCall } from './call-events/call-events.service.ts';

let h: DialerHarness;
beforeAll(async () => {
  h = await dialerHarness('2030-01-07T15:00:00Z');
});
afterAll(async () => h?.close());

const long = { _sim: { status: 'finished', duration: 3000 } };
const INBOUND_NUMBER = '+12125550177';

const capacity = async (body?: Record<string, unknown>) => {
  const res = await h.t.request({ method: body ? 'PUT' : 'GET', url: '/api/v1/compliance/capacity', headers: h.account.headers, ...(body && { payload: body }) });
  return { status: res.statusCode, body: res.json() };
};
const liveOf = async (type: 'inbound' | 'outbound') => (await sql<{ id: number }>`
  SELECT id FROM calls WHERE owner_id = ${h.account.id} AND status = 'in progress' AND call_type = ${type} ORDER BY id`.execute(h.t.deps.db)).rows.map((r) => r.id);
const inbound = async (from: string) => h.t.request({ method: 'POST', url: '/api/v1/voice/sim/inbound', headers: h.account.headers, payload: { from, to: INBOUND_NUMBER } });
const end = (callId: number) => finishCall({ deps: h.t.deps, callId, outcome: { status: 'finished', endedReason: 'ended by the test' } });

describe('the account\'s concurrency cap and its reserve for inbound calls', () => {
  it('stops outbound calls at max - reserve, lets inbound calls use the reserve and beyond, and resumes as calls end', async () => {
    expect((await capacity({ max_concurrent_calls: 4, reserved_inbound_calls: 1 })).status).toBe(200);
    // Two outbound campaigns of one account share its room; neither has a limit of its own.
    const a = await h.campaign();
    const b = await h.campaign();
    await h.contacts(a, Array.from({ length: 5 }, usNumber), { contact_data: long });
    await h.contacts(b, Array.from({ length: 5 }, usNumber), { contact_data: long });
    const inboundCampaign = await h.campaign({ campaign_type: 'Inbound', campaign_phone: INBOUND_NUMBER });
    // The callers are known contacts with long calls, so nothing ends before the test ends it.
    const callers = [usNumber(), usNumber()];
    await h.contacts(inboundCampaign, callers, { contact_data: long });
    await h.enqueue(a);
    await h.enqueue(b);

    await h.round();
    expect((await liveOf('outbound')).length).toBe(3);
    // Claimed beyond the room (each campaign estimated the account's 3): left due, with the reason.
    const held = await h.t.deps.db.selectFrom('contacts').select(['status', 'next_action_code', 'next_action_reason', 'next_action_time'])
      .where('campaign_id', 'in', [a, b]).where('next_action_code', '=', 'account_concurrency').execute();
    expect(held.length).toBe(3);
    for (const c of held) {
      expect(c.status).toBe('added_to_queue');
      expect(c.next_action_time!.getTime()).toBeLessThanOrEqual(h.clock.now().getTime());
      expect(c.next_action_reason).toMatch(/1 kept for inbound/);
    }
    await h.round();
    expect((await liveOf('outbound')).length).toBe(3);
    expect((await capacity()).body).toEqual({ max_concurrent_calls: 4, reserved_inbound_calls: 1, calls_in_progress: { outbound: 3, inbound: 0 }, outbound_room: 0 });

    // The reserve is the caller's; a second caller is not refused either (the vendor delivered it).
    expect((await inbound(callers[0]!)).statusCode).toBe(200);
    expect((await inbound(callers[1]!)).statusCode).toBe(200);
    expect((await liveOf('inbound')).length).toBe(2);
    // An outbound call ends: the inbound call beyond the reserve has its room.
    await end((await liveOf('outbound'))[0]!);
    await h.round();
    expect((await liveOf('outbound')).length).toBe(2);
    expect((await capacity()).body.outbound_room).toBe(0);
    // One caller hangs up: inbound is back within the reserve, one outbound call may start.
    await end((await liveOf('inbound'))[0]!);
    await h.round();
    expect((await liveOf('outbound')).length).toBe(3);
    await end((await liveOf('inbound'))[0]!);
    await h.round();
    expect((await liveOf('outbound')).length).toBe(3);

    // The cap raised: outbound calls take the new room at the next round.
    expect((await capacity({ max_concurrent_calls: 6, reserved_inbound_calls: 1 })).status).toBe(200);
    await h.round();
    expect((await liveOf('outbound')).length).toBe(5);
    for (const id of [...await liveOf('outbound'), ...await liveOf('inbound')]) await end(id);
  });

  it('answers a reserve without a cap, or over it, with a 422 naming the field, and changes nothing', async () => {
    await capacity({ max_concurrent_calls: 5, reserved_inbound_calls: 2 });
    const noCap = await capacity({ max_concurrent_calls: null, reserved_inbound_calls: 1 });
    expect(noCap.status).toBe(422);
    expect(noCap.body.detail).toEqual([expect.objectContaining({ loc: ['body', 'reserved_inbound_calls'], msg: expect.stringMatching(/^reserved_inbound_calls needs max_concurrent_calls/) })]);
    const over = await capacity({ max_concurrent_calls: 2, reserved_inbound_calls: 3 });
    expect(over.status).toBe(422);
    expect(over.body.detail[0].loc).toEqual(['body', 'reserved_inbound_calls']);
    expect((await capacity({ max_concurrent_calls: 0 })).status).toBe(422);
    expect((await capacity()).body).toMatchObject({ max_concurrent_calls: 5, reserved_inbound_calls: 2 });
    // Removing the cap: the reserve left out is 0, and the change is audited.
    expect((await capacity({ max_concurrent_calls: null })).body).toMatchObject({ max_concurrent_calls: null, reserved_inbound_calls: 0, outbound_room: null });
    const audit = await h.t.request({ method: 'GET', url: '/api/v1/audit-events/?kind=account.capacity_changed', headers: h.account.headers });
    expect(audit.json().data[0].details).toEqual({ from: [5, 2], to: [null, 0] });
  });

  it('leaves an account without a cap to its campaigns\' own limits', async () => {
    await capacity({ max_concurrent_calls: null });
    const c = await h.campaign();
    await h.contacts(c, Array.from({ length: 8 }, usNumber), { contact_data: long });
    await h.enqueue(c);
    expect(await h.round(c)).toBe(8);
    for (const id of await liveOf('outbound')) await end(id);
  });
});
