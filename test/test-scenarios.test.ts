import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeStreamingLlm, type FakeLlmTurn, type FakeStreamingLlm, type SeenRequest } from './fakes/llm-stream.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';
import { createAccount, createCampaignViaApi, createSubUser, type Account, type SubUser } from './helpers/factories.ts';
import { waitFor } from './helpers/wait-for.ts';
import { createScenarioRunWorker } from '../src/modules/quality/scenarios/scenario-runs.worker.ts';
import { PERSONA_PROMPT_START } from '../src/modules/quality/scenarios/persona.ts';
import type { ClaimWorker } from '../src/claim-worker.ts';

/**
 * Test scenarios end to end with the fake streaming LLM playing all three parts: the campaign's
 * agent (a streaming request with the agent's tools), the persona (its system prompt starts with
 * PERSONA_PROMPT_START) and the judge (a request with response_format). The agent behaves well
 * only when its system prompt asks it to offer a callback, so a prompt's wording decides the
 * verdict, and the judge reads the transcript it is sent.
 */
type Body = SeenRequest['body'];
const GOOD_PROMPT = 'You are Ava from Acme Solar calling {{contact.name}}. If the person is busy, offer a callback time.';
const BAD_PROMPT = 'You are Ava from Acme Solar calling {{contact.name}}. Keep it short.';
const CRITERIA = ['The agent offers a callback time', 'The agent ends the call politely'];

const systemOf = (body: Body) => String((body.messages[0] as { content: unknown }).content);
const lastUser = (body: Body) => String(([...body.messages].reverse().find((m) => m.role === 'user') as { content?: unknown } | undefined)?.content ?? '');

function agentTurn(body: Body): FakeLlmTurn {
  const system = systemOf(body);
  const name = system.match(/calling (\w+)/)?.[1] ?? 'there';
  if (!/back/i.test(lastUser(body))) return { tokens: [`Hi ${name}, `, 'this is Ava from Acme Solar. ', 'Is now a good time?'] };
  if (system.includes('offer a callback')) {
    return {
      tokens: ['Of course, ', 'I will call you back tomorrow at 10. ', 'Goodbye!'],
      toolCalls: [{ name: 'mark_outcome', arguments: { outcome: 'scheduled', time: '2026-12-01T10:00:00Z' } }, { name: 'end_call', arguments: { reason: 'callback agreed' } }],
    };
  }
  return { tokens: ['OK. ', 'Goodbye!'], toolCalls: [{ name: 'end_call', arguments: { reason: 'busy' } }] };
}

function personaTurn(body: Body): FakeLlmTurn {
  const own = body.messages.filter((m) => m.role === 'assistant').length;
  return { tokens: [['Hello? I am busy right now.', 'Can you call me back tomorrow?', 'Thanks, bye. [HANG UP]'][Math.min(own, 2)]!] };
}

/** The judge reads the transcript in the extractor's context and answers the schema it was given. */
function judgeTurn(body: Body): FakeLlmTurn {
  const format = body.response_format as unknown as { json_schema: { schema: { properties: Record<string, unknown> } } };
  const context = lastUser(body);
  const met = [context.includes('mark_outcome') && context.includes('scheduled'), context.includes('end_call') && context.includes('Goodbye')];
  const answer: Record<string, unknown> = {};
  for (const key of Object.keys(format.json_schema.schema.properties)) {
    const i = Number(key.match(/^criterion_(\d+)/)![1]) - 1;
    answer[key] = key.endsWith('_reason') ? (met[i] ? `criterion ${i + 1} is met in the transcript` : `criterion ${i + 1} is not met: nothing in the transcript shows it`) : met[i];
  }
  return { tokens: [JSON.stringify(answer)] };
}

const roleOf = (body: Body) => (body.response_format ? 'judge' : systemOf(body).startsWith(PERSONA_PROMPT_START) ? 'persona' : body.tools ? 'agent' : 'other');

let llm: FakeStreamingLlm;
let proxy: Server;
let inFlight = 0;
let maxInFlight = 0;
let t: TestApp;
let worker: ClaimWorker;
let owner: Account;
let stranger: Account;
let sub: SubUser;
let ungrantedSub: SubUser;
let campaignId: number;
let otherCampaignId: number;

beforeAll(async () => {
  llm = await startFakeStreamingLlm((body) => {
    const role = roleOf(body);
    return role === 'judge' ? judgeTurn(body) : role === 'persona' ? personaTurn(body) : agentTurn(body);
  }, { firstTokenDelayMs: 15 });
  // In front of the fake: counts the LLM requests in flight at once (the runner's concurrency, seen from the model's side).
  proxy = createServer((req, res) => {
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      try {
        const answer = await fetch(`${llm.url.replace(/\/v1$/, '')}${req.url}`, { method: req.method, headers: { 'content-type': 'application/json' }, body: Buffer.concat(chunks) });
        res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
        res.end(Buffer.from(await answer.arrayBuffer()));
      } finally {
        inFlight--;
      }
    });
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/v1`;
  t = await createTestApp({ LLM_BASE_URL: base, LLM_MODEL: 'fake-model', SCENARIO_RUN_CONCURRENCY: '2' });
  worker = createScenarioRunWorker(t.deps, { pollMs: 50 });
  worker.start();
  owner = await createAccount(t);
  stranger = await createAccount(t);
  campaignId = (await createCampaignViaApi(t, owner.headers, { campaign_data: { prompt: GOOD_PROMPT } })).id;
  otherCampaignId = (await createCampaignViaApi(t, owner.headers, { campaign_data: { prompt: BAD_PROMPT } })).id;
  sub = await createSubUser(t, owner.id, [campaignId]);
  ungrantedSub = await createSubUser(t, owner.id, []);
});
afterAll(async () => {
  await worker?.stop();
  await t?.close();
  proxy?.close();
  await llm?.close();
});

const api = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, headers = owner.headers, payload?: unknown) =>
  t.request({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as object }) });

const busyScenario = async (id = campaignId, headers = owner.headers) => {
  const res = await api('POST', `/api/v1/campaigns/${id}/test-scenarios`, headers, {
    name: 'Busy caller', persona: { who: 'A busy nurse', goal: 'Be called back later', style: 'Hurried', language: 'English' }, criteria: CRITERIA,
    contact_data: { name: 'Dana' },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};

async function runToEnd(id: number, scenarioId: number, body: Record<string, unknown> = {}, headers = owner.headers) {
  const queued = await api('POST', `/api/v1/campaigns/${id}/test-scenarios/${scenarioId}/runs`, headers, body);
  expect(queued.statusCode, queued.body).toBe(202);
  expect(queued.json().status).toBe('queued');
  return waitFor(async () => {
    const run = (await api('GET', `/api/v1/campaigns/${id}/test-runs/${queued.json().id}`, headers)).json();
    return ['queued', 'running'].includes(run.status) ? undefined : run;
  });
}

describe('test scenarios with a language model', () => {
  it('plays the campaign\'s agent against the persona and passes when every criterion is met', async () => {
    const scenario = await busyScenario();
    const before = llm.seen.length;
    const run = await runToEnd(campaignId, scenario.id);
    expect(run.status).toBe('passed');
    expect(run.judge).toBe('llm');
    expect(run.verdicts.map((v: { passed: boolean }) => v.passed)).toEqual([true, true]);
    expect(run.verdicts[0]).toMatchObject({ criterion: CRITERIA[0], reason: 'criterion 1 is met in the transcript' });
    // The conversation as it went: persona first (no first message), the agent's words, its tools in place.
    expect(run.transcript).toEqual([
      { role: 'persona', text: 'Hello? I am busy right now.' },
      { role: 'agent', text: 'Hi Dana, this is Ava from Acme Solar. Is now a good time?' },
      { role: 'persona', text: 'Can you call me back tomorrow?' },
      { role: 'agent', text: 'Of course, I will call you back tomorrow at 10. Goodbye!' },
      { role: 'tool', tool: { name: 'mark_outcome', outcome: 'scheduled', time: '2026-12-01T10:00:00Z', note: null } },
      { role: 'tool', tool: { name: 'end_call', reason: 'callback agreed' } },
    ]);
    expect(run.ended_by).toBe('agent');
    // The same engine as a call: the campaign's prompt with the sample contact filled in, and the agent's tools.
    const requests = llm.seen.slice(before);
    const agent = requests.filter((r) => roleOf(r.body) === 'agent');
    expect(agent).toHaveLength(2);
    expect(systemOf(agent[0]!.body)).toBe(GOOD_PROMPT.replace('{{contact.name}}', 'Dana'));
    expect((agent[0]!.body.tools as { function: { name: string } }[]).map((x) => x.function.name)).toEqual(['end_call', 'do_not_call', 'mark_outcome']);
    expect(agent[0]!.body.stream_options).toEqual({ include_usage: true });
    expect(run.prompt_text).toBe(GOOD_PROMPT.replace('{{contact.name}}', 'Dana'));
    expect(run.system_prompt_source).toBe('campaign');
    // Cost: 2 agent turns, 2 persona turns, 1 judge call; the fake reports 50 prompt tokens a request.
    expect(requests.map((r) => roleOf(r.body)).sort()).toEqual(['agent', 'agent', 'judge', 'persona', 'persona']);
    expect(run.cost).toMatchObject({ llm_requests: 5, prompt_tokens: 250 });
    expect(run.cost.completion_tokens).toBeGreaterThan(0);
    expect(run.cost.duration_ms).toBeGreaterThanOrEqual(0);
  });

  it('fails for exactly the criterion the agent did not meet', async () => {
    const scenario = await busyScenario(otherCampaignId);
    const run = await runToEnd(otherCampaignId, scenario.id);
    expect(run.status).toBe('failed');
    expect(run.verdicts).toEqual([
      { criterion: CRITERIA[0], passed: false, reason: 'criterion 1 is not met: nothing in the transcript shows it' },
      { criterion: CRITERIA[1], passed: true, reason: 'criterion 2 is met in the transcript' },
    ]);
    expect(run.transcript.some((e: { tool?: { name: string } }) => e.tool?.name === 'mark_outcome')).toBe(false);
  });

  it('lists runs per scenario and per campaign, newest first', async () => {
    const scenario = await busyScenario();
    const a = await runToEnd(campaignId, scenario.id);
    const b = await runToEnd(campaignId, scenario.id);
    const perScenario = (await api('GET', `/api/v1/campaigns/${campaignId}/test-scenarios/${scenario.id}/runs`)).json().items;
    expect(perScenario.map((r: { id: number }) => r.id)).toEqual([b.id, a.id]);
    const perCampaign = (await api('GET', `/api/v1/campaigns/${campaignId}/test-runs`)).json().items;
    expect(perCampaign.map((r: { id: number }) => r.id).slice(0, 2)).toEqual([b.id, a.id]);
    expect(perCampaign.every((r: { campaign_id: number }) => r.campaign_id === campaignId)).toBe(true);
  });

  it('tests a pending prompt and blocks its approval until the campaign\'s scenarios pass against it', async () => {
    const id = (await createCampaignViaApi(t, owner.headers, { campaign_data: { prompt: GOOD_PROMPT } })).id;
    const granted = await createSubUser(t, owner.id, [id]);
    expect((await api('PUT', '/api/v1/quality/scenario-settings', owner.headers, { require_scenarios_before_approval: true })).json().require_scenarios_before_approval).toBe(true);
    const propose = async (prompt: string) => {
      const res = await api('PUT', `/api/v1/campaigns/${id}`, granted.headers, { campaign_data: { prompt } });
      expect(res.statusCode).toBe(200);
      return res.json().prompt_history[0] as { id: number; status: string };
    };
    const approve = (historyId: number) => api('POST', `/api/v1/campaigns/${id}/prompt-history/${historyId}/approve`, owner.headers, {});
    const bad = await propose(BAD_PROMPT);
    expect(bad.status).toBe('pending');
    // No scenario yet: refused, saying to write one.
    const none = await approve(bad.id);
    expect(none.statusCode).toBe(409);
    expect(none.json().detail).toMatch(/has none: write a test scenario/);
    const scenario = await busyScenario(id, granted.headers);
    const blocked = await approve(bad.id);
    expect(blocked.statusCode).toBe(409);
    expect(blocked.json().detail).toContain(`"Busy caller" (id ${scenario.id})`);
    // The sub-user tests the pending prompt: the agent speaks it (not the approved one) and fails.
    const failed = await runToEnd(id, scenario.id, { prompt_history_id: bad.id }, granted.headers);
    expect(failed).toMatchObject({ status: 'failed', prompt_history_id: bad.id, prompt_text: BAD_PROMPT.replace('{{contact.name}}', 'Dana'), created_by_sub_user_id: granted.id });
    expect((await approve(bad.id)).statusCode).toBe(409);
    // Rejecting is never blocked.
    expect((await api('POST', `/api/v1/campaigns/${id}/prompt-history/${bad.id}/reject`, owner.headers, {})).statusCode).toBe(200);
    const good = await propose(`${GOOD_PROMPT} Be warm.`);
    // A passed run of the current prompt does not count for the pending one.
    expect((await runToEnd(id, scenario.id)).status).toBe('passed');
    expect((await approve(good.id)).statusCode).toBe(409);
    const passed = await runToEnd(id, scenario.id, { prompt_history_id: good.id });
    expect(passed).toMatchObject({ status: 'passed', prompt_history_id: good.id });
    const approved = await approve(good.id);
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json().status).toBe('approved');
    // With the setting off, approval works as before.
    expect((await api('PUT', '/api/v1/quality/scenario-settings', owner.headers, { require_scenarios_before_approval: false })).statusCode).toBe(200);
    const later = await propose(BAD_PROMPT);
    expect((await approve(later.id)).statusCode).toBe(200);
    const audit = (await api('GET', '/api/v1/audit-events?kind=quality.scenario_gate_changed')).json();
    expect(audit.data.map((e: { details: { to: boolean } }) => e.details.to)).toEqual([false, true]);
  });

  it('refuses another campaign\'s prompt_history entry (404)', async () => {
    const scenario = await busyScenario();
    const foreign = (await api('GET', `/api/v1/campaigns/${otherCampaignId}`)).json().prompt_history[0].id;
    const res = await api('POST', `/api/v1/campaigns/${campaignId}/test-scenarios/${scenario.id}/runs`, owner.headers, { prompt_history_id: foreign });
    expect(res.statusCode).toBe(404);
  });

  it('never plays more runs at once than SCENARIO_RUN_CONCURRENCY', async () => {
    const scenario = await busyScenario();
    maxInFlight = 0;
    const ids: number[] = [];
    for (let i = 0; i < 6; i++) ids.push((await api('POST', `/api/v1/campaigns/${campaignId}/test-scenarios/${scenario.id}/runs`, owner.headers, {})).json().id);
    await waitFor(async () => {
      const runs = await Promise.all(ids.map(async (id) => (await api('GET', `/api/v1/campaigns/${campaignId}/test-runs/${id}`)).json()));
      return runs.every((r) => r.status === 'passed');
    }, 20_000);
    expect(maxInFlight).toBe(2);
  });

  it('keeps tenancy: another account 403, a sub-user without the grant 403, a granted one writes and runs', async () => {
    const scenario = await busyScenario();
    const base = `/api/v1/campaigns/${campaignId}/test-scenarios`;
    for (const headers of [stranger.headers, ungrantedSub.headers]) {
      expect((await api('GET', base, headers)).statusCode).toBe(403);
      expect((await api('POST', base, headers, { template: 'hostile' })).statusCode).toBe(403);
      expect((await api('GET', `${base}/${scenario.id}`, headers)).statusCode).toBe(403);
      expect((await api('PUT', `${base}/${scenario.id}`, headers, { name: 'x' })).statusCode).toBe(403);
      expect((await api('DELETE', `${base}/${scenario.id}`, headers)).statusCode).toBe(403);
      expect((await api('POST', `${base}/${scenario.id}/runs`, headers, {})).statusCode).toBe(403);
      expect((await api('GET', `/api/v1/campaigns/${campaignId}/test-runs`, headers)).statusCode).toBe(403);
    }
    const mine = await api('POST', base, sub.headers, { template: 'hostile' });
    expect(mine.statusCode).toBe(200);
    expect(mine.json()).toMatchObject({ name: 'Hostile', template: 'hostile', max_turns: 12 });
    expect((await api('PUT', `${base}/${mine.json().id}`, sub.headers, { name: 'Angry' })).json().name).toBe('Angry');
    expect((await api('PUT', '/api/v1/quality/scenario-settings', sub.headers, { require_scenarios_before_approval: true })).statusCode).toBe(403);
    expect((await api('GET', '/api/v1/quality/scenario-settings', stranger.headers)).json().require_scenarios_before_approval).toBe(false);
    expect((await api('DELETE', `${base}/${mine.json().id}`, sub.headers)).statusCode).toBe(200);
    expect((await api('GET', `${base}/${mine.json().id}`, sub.headers)).statusCode).toBe(404);
  });

  it('answers 422 to bad input and changes nothing', async () => {
    const base = `/api/v1/campaigns/${campaignId}/test-scenarios`;
    const count = async () => (await api('GET', base)).json().items.length;
    const before = await count();
    const persona = { who: 'x', goal: 'y', style: 'z', language: 'English' };
    for (const body of [
      {},
      { name: 'no persona', criteria: ['c'] },
      { name: 'no criteria', persona },
      { template: 'no_such_template' },
      { name: 'too many', persona, criteria: Array.from({ length: 11 }, (_, i) => `criterion ${i}`) },
      { name: 'too long', persona, criteria: ['x'.repeat(301)] },
      { name: 'empty', persona, criteria: [] },
      { name: 'turns', persona, criteria: ['c'], max_turns: 0 },
    ]) {
      const res = await api('POST', base, owner.headers, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(422);
      expect(Array.isArray(res.json().detail)).toBe(true);
    }
    expect(await count()).toBe(before);
    const scenario = await busyScenario();
    expect((await api('POST', `${base}/${scenario.id}/runs`, owner.headers, { prompt_history_id: 'x' })).statusCode).toBe(422);
    expect((await api('PUT', '/api/v1/quality/scenario-settings', owner.headers, { require_scenarios_before_approval: 'yes' })).statusCode).toBe(422);
  });
});
