import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialerHarness, usNumber, type DialerHarness } from './helpers/dialer-harness.ts';

/** Each call keeps the prompt version it used (calls.prompt_history_id, issue 28): scores and experiments compare versions. */
let h: DialerHarness;
beforeAll(async () => {
  h = await dialerHarness();
});
afterAll(() => h?.close());

const versionOf = async (contactId: number) => (await h.callsOf(contactId)).map((c) => c.prompt_history_id === null ? null : Number(c.prompt_history_id));

describe('the prompt version of a call', () => {
  it('is the approved prompt_history entry in force when the call was written, and follows a new approved prompt', async () => {
    const create = await h.t.request({ method: 'POST', url: '/api/v1/campaigns/', headers: h.account.headers, payload: { title: 'Versions', campaign_type: 'Outbound', campaign_data: { prompt: 'First' } } });
    expect(create.statusCode).toBe(200);
    const campaignId = create.json().id as number;
    const first = create.json().prompt_history[0].id as number;
    const [a] = await h.contacts(campaignId, [usNumber()]);
    expect((await h.enqueue(campaignId)).statusCode).toBe(200);
    await h.round(campaignId);
    expect(await versionOf(a!)).toEqual([first]);

    const put = await h.t.request({ method: 'PUT', url: `/api/v1/campaigns/${campaignId}`, headers: h.account.headers, payload: { campaign_data: { prompt: 'Second' } } });
    expect(put.statusCode).toBe(200);
    const second = Math.max(...put.json().prompt_history.map((e: { id: number }) => e.id));
    expect(second).not.toBe(first);
    const [b] = await h.contacts(campaignId, [usNumber()]);
    expect((await h.enqueue(campaignId)).statusCode).toBe(200);
    await h.round(campaignId);
    expect(await versionOf(b!)).toEqual([second]);
  });

  it('is null for a campaign without prompt history', async () => {
    const campaignId = await h.campaign({ campaign_data: { prompt: 'Written before history existed' } });
    const [c] = await h.contacts(campaignId, [usNumber()]);
    expect((await h.enqueue(campaignId)).statusCode).toBe(200);
    await h.round(campaignId);
    expect(await versionOf(c!)).toEqual([null]);
  });
});
