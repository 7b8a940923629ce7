import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../../test/helpers/test-app.ts';
import { appWithAccounts, type Account } from '../../../test/helpers/factories.ts';
import { nextPhone, seed, type SeedCall } from '../../../test/helpers/seed.ts';

let t: TestApp;
let alice: Account;

beforeAll(async () => void ({ t, alice } = await appWithAccounts()));
afterAll(() => t?.close());

const list = (query: string) => t.request({ method: 'GET', url: `/api/v1/calls/?${query}`, headers: alice.headers });
const ids = (res: { json(): { data: { id: number }[] } }) => res.json().data.map((c) => c.id);

/** Calls with the given fields in a campaign of their own; answers the ids (oldest first) and a query scoped to it. */
async function scenario(calls: Omit<SeedCall, 'contact'>[]) {
  const phone = nextPhone();
  const s = await seed(t.deps.db, { campaigns: [{ owner: alice }], contacts: [{ campaign: 0, phone_number: phone }], calls: calls.map((c) => ({ to_number: phone, ...c, contact: 0 })) });
  const campaign = s.campaigns[0]!;
  return { ids: s.calls.map((c) => c.id), q: `campaign_id=${campaign.id}`, campaign };
}

describe('reading calls', () => {
  it('answers every Call field of the API with the campaign title, and only those', async () => {
    const { contacts: [contact], calls: [{ id }] } = await seed(t.deps.db, {
      campaigns: [{ owner: alice, title: 'Renewals' }],
      contacts: [{ campaign: 0, phone_number: '+14155550401' }],
      calls: [{
        contact: 0, to_number: '+14155550401', status: 'finished', action_status: 'interested', action_status_reason: 'wants a demo', from_number: '+14155550000',
        start_time: '2025-01-02T10:00:00Z', end_time: '2025-01-02T10:01:30Z', cost: 0.42, call_duration: 90, external_session_id: 'sess-1',
        record_url: 'https://rec.example/1.mp3', call_data: { summary: 'ok' }, contact_data: { name: 'Ada' }, call_type: 'outbound',
        call_ended_by: 'HUMAN', call_ended_by_reason: 'hung up',
      }],
    });
    const res = await t.request({ method: 'GET', url: `/api/v1/calls/${id}`, headers: alice.headers });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      id, contact_id: contact.id, status: 'finished', is_archive: false, action_status: 'interested', action_status_reason: 'wants a demo',
      from_number: '+14155550000', to_number: '+14155550401', start_time: '2025-01-02T10:00:00.000Z', end_time: '2025-01-02T10:01:30.000Z',
      cost: 0.42, call_duration: 90, external_session_id: 'sess-1', record_url: 'https://rec.example/1.mp3', call_data: { summary: 'ok' },
      contact_data: { name: 'Ada' }, campaign_title: 'Renewals', call_type: 'outbound', owner_id: alice.id, call_ended_by: 'HUMAN',
      call_ended_by_reason: 'hung up',
    });
    const listed = await list(`call_id=${id}`);
    expect(listed.json().data).toEqual([res.json()]);
  });

  it('answers 404 for an unknown call and 422 for a non-integer id', async () => {
    expect((await t.request({ method: 'GET', url: '/api/v1/calls/999999', headers: alice.headers })).statusCode).toBe(404);
    const bad = await t.request({ method: 'GET', url: '/api/v1/calls/x1', headers: alice.headers });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().detail[0].loc).toEqual(['path', 'id']);
  });
});

describe('paging', () => {
  it('answers 20 calls by default, newest first, with count and the pagination object', async () => {
    const s = await scenario(Array.from({ length: 45 }, () => ({})));
    const res = await list(s.q);
    expect(res.statusCode).toBe(200);
    expect(ids(res)).toEqual([...s.ids].reverse().slice(0, 20));
    expect(res.json().count).toBe(45);
    expect(res.json().pagination).toEqual({ current_page: 1, total_pages: 3, total_count: 45 });
    const third = await list(`${s.q}&skip=40`);
    expect(ids(third)).toEqual([...s.ids].reverse().slice(40));
    expect(third.json().pagination).toEqual({ current_page: 3, total_pages: 3, total_count: 45 });
    expect((await list(`${s.q}&skip=5&limit=10`)).json().pagination).toEqual({ current_page: 1, total_pages: 5, total_count: 45 });
    expect((await list(`${s.q}&skip=15&limit=10`)).json().pagination).toEqual({ current_page: 2, total_pages: 5, total_count: 45 });
    const none = await list(`${s.q}&status=voicemail`);
    expect(none.json()).toEqual({ data: [], count: 0, count_exact: true, pagination: { current_page: 1, total_pages: 0, total_count: 0 } });
  });

  it('rejects limit 0, limit 1001 and a negative skip with 422', async () => {
    for (const [query, field] of [['limit=0', 'limit'], ['limit=1001', 'limit'], ['skip=-1', 'skip']] as const) {
      const res = await list(query);
      expect(res.statusCode).toBe(422);
      expect(res.json().detail[0].loc).toEqual(['query', field]);
    }
    expect((await list('limit=1000')).statusCode).toBe(200);
  });
});

describe('filters', () => {
  it('filters by phone_number (to_number) and from_number, normalising numbers', async () => {
    const s = await scenario([{ to_number: '+14155550411', from_number: '+14155550900' }, { to_number: '+14155550412', from_number: '+14155550901' }]);
    expect(ids(await list(`${s.q}&phone_number=${encodeURIComponent('(415) 555-0411')}`))).toEqual([s.ids[0]]);
    expect(ids(await list(`${s.q}&phone_number=%2B14155550412`))).toEqual([s.ids[1]]);
    expect(ids(await list(`${s.q}&from_number=4155550901`))).toEqual([s.ids[1]]);
    expect(ids(await list(`${s.q}&from_number=4155550900&phone_number=4155550412`))).toEqual([]);
    expect(ids(await list(`${s.q}&phone_number=`))).toHaveLength(2);
  });

  it('filters by status and action_status as repeated keys or comma lists, and rejects values outside the enums', async () => {
    const s = await scenario([
      { status: 'invalid number', action_status: null },
      { status: 'insufficient funds', action_status: 'scheduled' },
      { status: 'finished', action_status: 'interested' },
      { status: 'in progress', action_status: 'transferred' },
    ]);
    const [invalid, funds, finished, progress] = s.ids;
    expect(ids(await list(`${s.q}&status=invalid%20number&status=in%20progress`))).toEqual([progress, invalid]);
    expect(ids(await list(`${s.q}&status=invalid+number,insufficient+funds`))).toEqual([funds, invalid]);
    expect(ids(await list(`${s.q}&action_status=interested,scheduled`))).toEqual([finished, funds]);
    expect(ids(await list(`${s.q}&action_status=transferred`))).toEqual([progress]);
    for (const query of ['status=invalid_number', 'status=done', 'action_status=maybe']) {
      const res = await list(`${s.q}&${query}`);
      expect(res.statusCode).toBe(422);
      expect(res.json().detail[0].loc[0]).toBe('query');
      expect(res.json().detail[0].loc[1]).toBe(query.split('=')[0]);
    }
  });

  it('filters by start_time and end_time with both bounds included', async () => {
    const s = await scenario([
      { start_time: '2025-03-01T10:00:00Z', end_time: '2025-03-01T10:05:00Z' },
      { start_time: '2025-03-02T10:00:00Z', end_time: '2025-03-02T10:05:00Z' },
      { start_time: '2025-03-03T10:00:00Z', end_time: '2025-03-03T10:05:00Z' },
      { start_time: null, end_time: null },
    ]);
    const [d1, d2, d3] = s.ids;
    expect(ids(await list(`${s.q}&start_time_from=2025-03-02T10:00:00Z&start_time_to=2025-03-03T10:00:00Z`))).toEqual([d3, d2]);
    expect(ids(await list(`${s.q}&start_time_to=2025-03-02T10:00:00Z`))).toEqual([d2, d1]);
    expect(ids(await list(`${s.q}&start_time_from=2025-03-02T10:00:01Z`))).toEqual([d3]);
    expect(ids(await list(`${s.q}&end_time_from=2025-03-01T10:05:00Z&end_time_to=2025-03-02T10:05:00Z`))).toEqual([d2, d1]);
    expect(ids(await list(`${s.q}&end_time_to=2025-03-02T10:04:59Z`))).toEqual([d1]);
    expect(ids(await list(`${s.q}&end_time_from=2025-03-03T11:05:00+01:00`))).toEqual([d3]);
    expect((await list(`${s.q}&end_time_from=tomorrow`)).statusCode).toBe(422);
  });

  it('filters by duration (call_duration) and cost with both bounds included', async () => {
    const s = await scenario([{ call_duration: 10, cost: 0.1 }, { call_duration: 60, cost: 0.25 }, { call_duration: 300, cost: 1.5 }, {}]);
    const [short, mid, long] = s.ids;
    expect(ids(await list(`${s.q}&duration_from=60&duration_to=300`))).toEqual([long, mid]);
    expect(ids(await list(`${s.q}&duration_to=60`))).toEqual([mid, short]);
    expect(ids(await list(`${s.q}&duration_from=61`))).toEqual([long]);
    expect(ids(await list(`${s.q}&cost_from=0.1&cost_to=0.25`))).toEqual([mid, short]);
    expect(ids(await list(`${s.q}&cost_from=0.25`))).toEqual([long, mid]);
    expect(ids(await list(`${s.q}&cost_to=0.24`))).toEqual([short]);
    expect((await list(`${s.q}&duration_from=1.5`)).statusCode).toBe(422);
    expect((await list(`${s.q}&cost_to=cheap`)).statusCode).toBe(422);
  });

  it('filters by campaign_id (repeated keys or a comma list), contact_id, call_id and call_type', async () => {
    const a = await scenario([{ call_type: 'outbound' }, { call_type: 'inbound' }]);
    const b = await scenario([{ call_type: 'inbound' }]);
    const c = await scenario([{}]);
    const both = [...a.ids, ...b.ids].reverse();
    expect(ids(await list(`campaign_id=${a.campaign.id}&campaign_id=${b.campaign.id}`))).toEqual(both);
    expect(ids(await list(`campaign_id=${a.campaign.id},${b.campaign.id}`))).toEqual(both);
    expect(ids(await list(`campaign_id=${a.campaign.id},${b.campaign.id}&call_type=inbound`))).toEqual([b.ids[0], a.ids[1]]);
    expect(ids(await list(`${a.q}&call_type=outbound`))).toEqual([a.ids[0]]);
    expect(ids(await list(`${c.q}&call_type=inbound`))).toEqual([]);
    const contactOfB = await t.deps.db.selectFrom('calls').select('contact_id').where('id', '=', b.ids[0]!).executeTakeFirstOrThrow();
    expect(ids(await list(`contact_id=${contactOfB.contact_id}`))).toEqual(b.ids);
    expect(ids(await list(`call_id=${a.ids[1]}`))).toEqual([a.ids[1]]);
    expect(ids(await list(`call_id=${a.ids[1]}&${b.q}`))).toEqual([]);
  });

  it('searches call_data case-insensitively in keys and values, with % and _ matched literally', async () => {
    const s = await scenario([
      { call_data: { summary: 'Customer wants a DEMO next week', score: 80 } },
      { call_data: { summary: 'no interest', discount: '50%' } },
      { call_data: { summary: 'left_voicemail' } },
      { call_data: null },
    ]);
    const [demo, discount, voicemail] = s.ids;
    expect(ids(await list(`${s.q}&call_data=demo%20NEXT`))).toEqual([demo]);
    expect(ids(await list(`${s.q}&call_data=discount`))).toEqual([discount]);
    expect(ids(await list(`${s.q}&call_data=${encodeURIComponent('50%')}`))).toEqual([discount]);
    expect(ids(await list(`${s.q}&call_data=${encodeURIComponent('%')}`))).toEqual([discount]);
    expect(ids(await list(`${s.q}&call_data=_`))).toEqual([voicemail]);
    expect(ids(await list(`${s.q}&call_data=${encodeURIComponent('"score": 80')}`))).toEqual([demo]);
    expect(ids(await list(`${s.q}&call_data=absent`))).toEqual([]);
    expect(ids(await list(`${s.q}&call_data=`))).toHaveLength(4);
  });
});
