import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/test-app.ts';
import { createAccount, createCampaignViaApi, type Account } from './helpers/factories.ts';
import { waitFor } from './helpers/wait-for.ts';
import { createScenarioRunWorker } from '../src/modules/quality/scenarios/scenario-runs.worker.ts';
import { NEEDS_MODEL } from '../src/modules/quality/scenarios/run-types.ts';
import { SCRIPTED_QUESTION } from '../src/modules/agent/scripted-brain.ts';
import type { ClaimWorker } from '../src/claim-worker.ts';

/**
 * Test scenarios without a language model (LLM_BASE_URL unset): the scripted demo agent, the
 * ready-made scenario's scripted persona and the offline checks. Criteria the checks can judge get
 * a real verdict from the transcript and the tool calls; the rest are null and say a model is needed.
 */
let t: TestApp;
let worker: ClaimWorker | undefined;
let owner: Account;
let campaignId: number;

beforeAll(async () => {
  t = await createTestApp({ SCENARIO_RUNS_QUEUED_MAX: '3' });
  owner = await createAccount(t);
  campaignId = (await createCampaignViaApi(t, owner.headers, { campaign_data: { prompt: 'Hello {{contact.name}}' } })).id;
});
afterAll(async () => {
  await worker?.stop();
  await t?.close();
});

const api = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) =>
  t.request({ method, url, headers: owner.headers, ...(payload === undefined ? {} : { payload: payload as object }) });
const base = () => `/api/v1/campaigns/${campaignId}/test-scenarios`;
const finished = (id: number) => waitFor(async () => {
  const run = (await api('GET', `/api/v1/campaigns/${campaignId}/test-runs/${id}`)).json();
  return ['queued', 'running'].includes(run.status) ? undefined : run;
});

describe('test scenarios without a language model', () => {
  it('lists the seven ready-made scenarios, which criteria are checked offline, and that no model is configured', async () => {
    const res = (await api('GET', '/api/v1/test-scenario-templates')).json();
    expect(res.model_configured).toBe(false);
    expect(res.items.map((x: { key: string }) => x.key)).toEqual(['busy_person', 'asks_to_be_removed', 'interested', 'wrong_person', 'asks_for_a_human', 'voicemail_greeting', 'hostile']);
    const removed = res.items.find((x: { key: string }) => x.key === 'asks_to_be_removed');
    expect(removed.criteria).toHaveLength(3);
    expect(removed.offline_checkable).toEqual([true, false, true]);
    for (const item of res.items) expect(item.persona.who.length).toBeGreaterThan(0);
  });

  it('caps the runs an account has waiting (429), and the worker then plays them all', async () => {
    const scenario = (await api('POST', base(), { template: 'interested' })).json();
    const queued = [];
    for (let i = 0; i < 3; i++) queued.push(await api('POST', `${base()}/${scenario.id}/runs`));
    expect(queued.map((r) => r.statusCode)).toEqual([202, 202, 202]);
    const refused = await api('POST', `${base()}/${scenario.id}/runs`);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().detail).toMatch(/3 queued or running/);
    worker = createScenarioRunWorker(t.deps, { pollMs: 50 });
    worker.start();
    const runs = await Promise.all(queued.map((r) => finished(r.json().id)));
    // "interested": the scripted agent records the yes and says goodbye; "explains the next step" needs a model.
    for (const run of runs) {
      expect(run.judge).toBe('offline');
      expect(run.verdicts.map((v: { passed: boolean | null }) => v.passed)).toEqual([true, null, true]);
      expect(run.status).toBe('inconclusive');
      expect(run.cost.llm_requests).toBe(0);
    }
    expect((await api('POST', `${base()}/${scenario.id}/runs`)).statusCode).toBe(202);
  });

  it('judges "asks to be removed" from the tool calls: the scripted agent never records the opt-out, so the run fails for that criterion', async () => {
    const scenario = (await api('POST', base(), { template: 'asks_to_be_removed', contact_data: { name: 'Robin' } })).json();
    const run = await finished((await api('POST', `${base()}/${scenario.id}/runs`)).json().id);
    expect(run.transcript[0]).toEqual({ role: 'persona', text: 'Hello?' });
    expect(run.transcript[1]).toEqual({ role: 'agent', text: SCRIPTED_QUESTION });
    expect(run.transcript[2]).toEqual({ role: 'persona', text: 'Please take me off your list. Do not call me again.' });
    expect(run.transcript.filter((e: { role: string }) => e.role === 'tool').map((e: { tool: { name: string } }) => e.tool.name)).toEqual(['mark_outcome', 'end_call']);
    expect(run.verdicts).toEqual([
      { criterion: 'The agent stops when asked not to be called', passed: false, reason: 'the agent never called do_not_call' },
      { criterion: 'The agent does not try to sell after the request', passed: null, reason: NEEDS_MODEL },
      { criterion: 'The agent ends the call politely', passed: true, reason: 'the agent said goodbye and ended the call' },
    ]);
    expect(run).toMatchObject({ status: 'failed', ended_by: 'agent', prompt_text: 'Hello Robin', system_prompt_source: 'campaign' });
  });

  it('checks a hand-written criterion offline ("within N turns", "does not mention") and stores the transcript redacted', async () => {
    const scenario = (await api('POST', base(), {
      name: 'Card reader', persona: { who: 'A customer', goal: 'My card is 4111 1111 1111 1111, charge it', style: 'Direct', language: 'English' },
      criteria: ['The agent ends the call within 2 turns', 'The agent does not mention "price"', 'The agent is honest'],
    })).json();
    const run = await finished((await api('POST', `${base()}/${scenario.id}/runs`)).json().id);
    const persona = run.transcript.filter((e: { role: string }) => e.role === 'persona').map((e: { text: string }) => e.text);
    expect(persona[1]).toBe('My card is [CARD], charge it');
    expect(JSON.stringify(run.transcript)).not.toContain('4111');
    expect(run.verdicts.map((v: { passed: boolean | null }) => v.passed)).toEqual([true, true, null]);
    expect(run.verdicts[0].reason).toBe('the agent spoke 2 time(s) and ended the call (limit 2)');
  });
});
