import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers/test-app.ts';
import { createAccount, createCampaignViaApi, createSubUser, type Account, type SubUser } from '../../../test/helpers/factories.ts';

let t: TestApp;
let owner: Account;
let stranger: Account;
let titles: string[];
let ids: Record<string, number>;
let subA: SubUser;
let subB: SubUser;
let strangerSub: SubUser;

const list = async (query: string, headers = owner.headers) => {
  const res = await t.request({ method: 'GET', url: `/api/v1/campaigns/${query}`, headers });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { data: Array<Record<string, unknown> & { id: number; title: string }>; count: number };
};
const idsOf = (body: { data: Array<{ id: number }> }) => body.data.map((c) => c.id);

beforeAll(async () => {
  t = await createTestApp();
  owner = await createAccount(t);
  stranger = await createAccount(t);
  // Titles exercise the case-insensitive match and the LIKE wildcards typed literally.
  titles = ['Alpha sales', 'ALPHA support', 'beta 100% done', 'beta 100 done', 'gamma_one', 'gammaXone', 'Archived alpha'];
  ids = {};
  for (const title of titles) ids[title] = (await createCampaignViaApi(t, owner.headers, { title, is_archive: title.startsWith('Archived') })).id;
  subA = await createSubUser(t, owner.id, [ids['Alpha sales']!, ids['gamma_one']!]);
  subB = await createSubUser(t, owner.id, [ids['beta 100 done']!, ids['Archived alpha']!]);
  const strangerCampaign = await createCampaignViaApi(t, stranger.headers, { title: 'Alpha stranger' });
  strangerSub = await createSubUser(t, stranger.id, [strangerCampaign.id]);
});
afterAll(() => t?.close());

describe('campaign list', () => {
  it('answers list items newest first without campaign_data, limit_start, limit_end and prompt_history', async () => {
    const body = await list('');
    expect(idsOf(body)).toEqual(titles.filter((x) => !x.startsWith('Archived')).map((x) => ids[x]).reverse());
    expect(Object.keys(body.data[0]!).sort()).toEqual(
      [
        'id', 'owner_id', 'title', 'description', 'campaign_type', 'campaign_phone', 'campaign_sip', 'assistant_id', 'max_call_attempts',
        'concurrent_call_limit', 'call_interval', 'phone_numbers', 'call_allowed_from_time', 'call_allowed_to_time', 'work_schedule', 'auto_calls',
        'is_auto_ai_message', 'is_archive', 'is_paused', 'limit_value', 'limit_unit', 'limit_usage', 'limit_reached', 'sub_users',
      ].sort(),
    );
  });

  it('counts every match while skip and limit choose the page', async () => {
    const all = await list('?include_archived=true');
    expect(all.count).toBe(titles.length);
    const page = await list('?include_archived=true&skip=2&limit=3');
    expect(page.count).toBe(titles.length);
    expect(idsOf(page)).toEqual(idsOf(all).slice(2, 5));
    const beyond = await list('?skip=100');
    expect(beyond).toEqual({ data: [], count: titles.length - 1 });
    expect((await list('?limit=1000')).data).toHaveLength(titles.length - 1);
  });

  it('rejects a limit outside 1..1000 and a negative skip with 422 naming the parameter', async () => {
    for (const [query, name] of [['?limit=0', 'limit'], ['?limit=1001', 'limit'], ['?skip=-1', 'skip'], ['?limit=abc', 'limit'], ['?id=x', 'id']] as const) {
      const res = await t.request({ method: 'GET', url: `/api/v1/campaigns/${query}`, headers: owner.headers });
      expect(res.statusCode, query).toBe(422);
      expect(res.json().detail[0].loc.slice(0, 2)).toEqual(['query', name]);
    }
  });

  it('leaves archived campaigns out unless include_archived is true', async () => {
    expect(idsOf(await list(''))).not.toContain(ids['Archived alpha']);
    expect(idsOf(await list('?include_archived=false'))).not.toContain(ids['Archived alpha']);
    expect(idsOf(await list('?include_archived=true'))).toContain(ids['Archived alpha']);
    expect(idsOf(await list('?include_archived=1'))).toContain(ids['Archived alpha']);
  });

  it('matches title as a case-insensitive substring with % and _ taken literally', async () => {
    const titlesOf = async (query: string) => (await list(query)).data.map((c) => c.title).sort();
    expect(await titlesOf('?title=alpha')).toEqual(['ALPHA support', 'Alpha sales']);
    expect(await titlesOf('?title=alpha&include_archived=true')).toEqual(['ALPHA support', 'Alpha sales', 'Archived alpha']);
    expect(await titlesOf(`?title=${encodeURIComponent('100%')}`)).toEqual(['beta 100% done']);
    expect(await titlesOf('?title=a_o')).toEqual(['gamma_one']);
    expect(await titlesOf('?title=nothing-like-this')).toEqual([]);
    expect((await list('?title=ALPHA')).count).toBe(2);
  });

  it('filters by exact ids given as repeated keys or a comma list', async () => {
    const wanted = [ids['Alpha sales']!, ids['gammaXone']!];
    expect(idsOf(await list(`?id=${wanted[0]}&id=${wanted[1]}`)).sort()).toEqual([...wanted].sort());
    expect(idsOf(await list(`?id=${wanted.join(',')}`)).sort()).toEqual([...wanted].sort());
    expect((await list(`?id=${wanted.join(',')}&limit=1`)).count).toBe(2);
    expect(await list(`?id=${ids['Archived alpha']}`)).toEqual({ data: [], count: 0 });
  });

  it('filters by sub_user_id to the campaigns any of those sub-users can access, and only sub-users of the caller count', async () => {
    const expectedA = [ids['Alpha sales']!, ids['gamma_one']!].sort();
    expect(idsOf(await list(`?sub_user_id=${subA.id}`)).sort()).toEqual(expectedA);
    const both = [...expectedA, ids['beta 100 done']!].sort();
    expect(idsOf(await list(`?sub_user_id=${subA.id}&sub_user_id=${subB.id}`)).sort()).toEqual(both);
    expect(idsOf(await list(`?sub_user_id=${subA.id},${subB.id}&include_archived=true`)).sort()).toEqual([...both, ids['Archived alpha']!].sort());
    expect(await list(`?sub_user_id=${strangerSub.id}`)).toEqual({ data: [], count: 0 });
    expect(await list(`?sub_user_id=${subA.id}`, stranger.headers)).toEqual({ data: [], count: 0 });
    const withBriefs = await list(`?id=${ids['Alpha sales']}`);
    expect(withBriefs.data[0]!.sub_users).toEqual([{ id: subA.id, username: subA.username, full_name: subA.fullName, email: subA.email }]);
  });

  it('combines filters and shows a sub-user only its granted campaigns with a matching count', async () => {
    expect(idsOf(await list(`?title=alpha&sub_user_id=${subA.id}`))).toEqual([ids['Alpha sales']]);
    const mine = await list('?include_archived=true', subB.headers);
    expect(idsOf(mine).sort()).toEqual([ids['beta 100 done']!, ids['Archived alpha']!].sort());
    expect(mine.count).toBe(2);
    expect(await list(`?id=${ids['Alpha sales']}`, subB.headers)).toEqual({ data: [], count: 0 });
    const strangers = await list('?title=alpha', stranger.headers);
    expect(strangers.data.map((c) => c.title)).toEqual(['Alpha stranger']);
    expect(strangers.count).toBe(1);
  });
});
