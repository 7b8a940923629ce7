import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialerHarness, seeingStarts, usNumber, type DialerHarness } from './helpers/dialer-harness.ts';
import type { StartCallRequest } from '../src/voice/provider.ts';
import { assignVariant } from '../src/modules/quality/experiments/assignment.ts';
import { loadCallScript } from '../src/modules/agent/call-script.ts';
import { resumeInterruptedCalls } from '../src/modules/dialer/outbound/resume.ts';

/**
 * Experiments through the dialer (issue 28): each call records the variant its contact's hash
 * gives, the vendor receives that variant's prompt (or assistant), a contact keeps its variant
 * on its next call, and a promoted variant is what calls use afterwards.
 */
let h: DialerHarness;
const started = new Map<number, StartCallRequest>();
beforeAll(async () => {
  h = await dialerHarness('2030-01-07T15:00:00Z', { LOG_LEVEL: 'error' }, { voice: seeingStarts((req) => started.set(req.callId, req)) });
});
afterAll(() => h?.close());

const api = async (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) => h.t.request({ method, url, headers: h.account.headers, ...(payload && { payload }) });

async function campaignWithPrompt(prompt: string, extra: Record<string, unknown> = {}) {
  const res = await api('POST', '/api/v1/campaigns/', { title: `Experiment ${prompt}`, campaign_type: 'Outbound', campaign_data: { prompt }, ...extra });
  expect(res.statusCode, res.body).toBe(200);
  return { id: res.json().id as number, version: res.json().prompt_history[0].id as number };
}

/** Rounds until the campaign has `total` calls (the simulator's calls end as the clock moves). */
async function dialAll(campaignId: number, total: number) {
  expect((await h.enqueue(campaignId)).statusCode).toBe(200);
  for (let i = 0; i < 200; i++) {
    await h.round(campaignId);
    const rows = await h.t.deps.db.selectFrom('calls').select(['contact_id']).where('campaign_id', '=', campaignId).execute();
    if (rows.length >= total) return;
    await h.advance(60_000);
  }
  const left = await h.t.deps.db.selectFrom('contacts').select(['status', 'next_action_code', 'next_action_reason']).where('campaign_id', '=', campaignId).limit(3).execute();
  throw new Error(`the contacts were not all called: ${JSON.stringify(left)}`);
}

const callsOf = (campaignId: number) => h.t.deps.db.selectFrom('calls').select(['id', 'contact_id', 'experiment_variant_id', 'prompt_history_id', 'call_data', 'status'])
  .where('campaign_id', '=', campaignId).orderBy('id').execute();

describe('an experiment in the dialer', () => {
  it('gives each contact its hashed variant, sends that variant\'s prompt, keeps it on the next call, and uses the promoted winner afterwards', async () => {
    const { id: campaignId, version: controlVersion } = await campaignWithPrompt('Control prompt');
    const created = await api('POST', `/api/v1/campaigns/${campaignId}/experiments`, { name: 'Shorter opener', control_weight: 50, min_calls_per_variant: 10, variants: [{ label: 'Short', prompt: 'Variant prompt', weight: 50 }] });
    expect(created.statusCode, created.body).toBe(200);
    const experiment = created.json();
    expect(experiment.status).toBe('draft');
    const variantVersion = experiment.variants[1].prompt_history_id as number;
    expect((await api('GET', `/api/v1/campaigns/${campaignId}`)).json().prompt_history.find((e: { id: number }) => e.id === variantVersion).status).toBe('pending');
    const start = await api('POST', `/api/v1/campaigns/${campaignId}/experiments/${experiment.id}/start`);
    expect(start.statusCode, start.body).toBe(200);
    expect(start.json().variants[0].prompt_history_id).toBe(controlVersion);

    const contacts = await h.contacts(campaignId, Array.from({ length: 300 }, () => usNumber()));
    await dialAll(campaignId, 300);
    const variants = start.json().variants as { id: number; weight: number; prompt_history_id: number }[];
    const textOf = new Map([[variants[0]!.id, 'Control prompt'], [variants[1]!.id, 'Variant prompt']]);
    const first = await callsOf(campaignId);
    expect(first).toHaveLength(300);
    const variantOf = new Map<number, number>();
    for (const call of first) {
      const expected = assignVariant(experiment.id, call.contact_id, variants);
      expect(Number(call.experiment_variant_id)).toBe(expected.id);
      expect(Number(call.prompt_history_id)).toBe(expected.prompt_history_id);
      expect(started.get(call.id)?.prompt).toBe(textOf.get(expected.id));
      variantOf.set(call.contact_id, expected.id);
    }
    const share = first.filter((c) => Number(c.experiment_variant_id) === variants[1]!.id).length / first.length;
    expect(share).toBeGreaterThan(0.4);
    expect(share).toBeLessThan(0.6);

    // The next attempt of every contact: the same variant.
    await h.advance(30 * 60_000);
    expect((await callsOf(campaignId)).filter((c) => c.status === 'in progress')).toHaveLength(0);
    // (The simulator's callers who opted out stay on the do-not-call list.)
    const again = await h.t.deps.db.updateTable('contacts').set({ status: 'new', calls_attempts: 0, next_action_time: null })
      .where('campaign_id', '=', campaignId).where('status', '<>', 'do_not_disturb').returning('id').execute();
    expect(again.length).toBeGreaterThan(200);
    await dialAll(campaignId, 300 + again.length);
    const second = (await callsOf(campaignId)).slice(300);
    expect(second).toHaveLength(again.length);
    for (const call of second) {
      expect(Number(call.experiment_variant_id)).toBe(variantOf.get(call.contact_id));
      expect(started.get(call.id)?.prompt).toBe(textOf.get(Number(call.experiment_variant_id)));
    }

    // Made live (forced: the simulator's outcomes decide no winner here): an approved entry, used by the calls after.
    await h.advance(30 * 60_000);
    const promote = await api('POST', `/api/v1/campaigns/${campaignId}/experiments/${experiment.id}/promote`, { variant_id: variants[1]!.id, force: true });
    expect(promote.statusCode, promote.body).toBe(200);
    expect(promote.json().status).toBe('stopped');
    const live = promote.json().promoted_prompt_history_id as number;
    const entry = (await api('GET', `/api/v1/campaigns/${campaignId}`)).json().prompt_history.find((e: { id: number }) => e.id === live);
    expect(entry.status).toBe('approved');
    expect(entry.prompt_data.prompt).toBe('Variant prompt');
    const [fresh] = await h.contacts(campaignId, [usNumber()]);
    await dialAll(campaignId, 300 + again.length + 1);
    const [last] = await h.callsOf(fresh!);
    expect(Number(last.prompt_history_id)).toBe(live);
    expect(last.experiment_variant_id).toBeNull();
    expect(started.get(last.id)?.prompt).toBe('Variant prompt');
  });

  it('dials an assistant variant with its assistant on the campaign\'s route, and refuses one on another route', async () => {
    const assistant = async (name: string) => api('POST', '/api/v1/assistants/', { name, provider: 'sim' });
    const a = (await assistant('Original')).json().id as number;
    const b = (await assistant('Challenger')).json().id as number;
    const { id: campaignId } = await campaignWithPrompt('Shared prompt', { assistant_id: a });
    // An assistant on another vendor (written directly: no vendor is configured here) would pace on another route.
    const other = await h.t.deps.db.insertInto('assistants').values({ owner_id: h.account.id, name: 'Elsewhere', provider: 'vapi', action_status_rules: '[]' }).returning('id').executeTakeFirstOrThrow();
    const refused = await api('POST', `/api/v1/campaigns/${campaignId}/experiments`, { name: 'Other route', control_weight: 1, variants: [{ assistant_id: Number(other.id), weight: 1 }] });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().detail[0].loc).toEqual(['body', 'variants', 0, 'assistant_id']);
    expect((await api('GET', `/api/v1/campaigns/${campaignId}/experiments`)).json().data).toEqual([]);
    const created = await api('POST', `/api/v1/campaigns/${campaignId}/experiments`, { name: 'Voices', control_weight: 1, variants: [{ assistant_id: b, weight: 3 }] });
    expect(created.statusCode, created.body).toBe(200);
    const experiment = (await api('POST', `/api/v1/campaigns/${campaignId}/experiments/${created.json().id}/start`)).json();
    const contacts = await h.contacts(campaignId, Array.from({ length: 40 }, () => usNumber()));
    await dialAll(campaignId, contacts.length);
    const calls = await callsOf(campaignId);
    expect(calls).toHaveLength(40);
    for (const call of calls) {
      const v = assignVariant(experiment.id, call.contact_id, experiment.variants as { id: number; weight: number; kind: string }[]);
      expect(Number(call.experiment_variant_id)).toBe(v.id);
      const expectedAssistant = v.kind === 'assistant' ? b : a;
      expect(started.get(call.id)?.assistant?.id).toBe(expectedAssistant);
      expect(started.get(call.id)?.prompt).toBe('Shared prompt');
      expect((call.call_data as { assistant_id: number }).assistant_id).toBe(expectedAssistant);
      // Our own agent (Twilio) reads the same assistant and prompt for the call.
      const script = (await loadCallScript(h.t.deps, call.id))!;
      expect(script.assistant?.id).toBe(expectedAssistant);
      expect(script.prompt).toBe('Shared prompt');
    }
    expect(new Set(calls.map((c) => Number(c.experiment_variant_id))).size).toBe(2);
  });

  it('splits inbound callers too: each inbound call records its caller\'s variant and is answered with that variant\'s prompt', async () => {
    const campaignId = await h.campaign({ campaign_type: 'Inbound', campaign_phone: '+12125550177' });
    const put = await api('PUT', `/api/v1/campaigns/${campaignId}`, { campaign_data: { prompt: 'Inbound control' } });
    expect(put.statusCode, put.body).toBe(200);
    const created = await api('POST', `/api/v1/campaigns/${campaignId}/experiments`, { name: 'Inbound', control_weight: 1, variants: [{ prompt: 'Inbound variant', weight: 1 }] });
    const experiment = (await api('POST', `/api/v1/campaigns/${campaignId}/experiments/${created.json().id}/start`)).json();
    const textOf = new Map([[experiment.variants[0].id, 'Inbound control'], [experiment.variants[1].id, 'Inbound variant']]);
    for (let i = 0; i < 40; i++) {
      const res = await h.t.request({ method: 'POST', url: '/api/v1/voice/sim/inbound', headers: h.account.headers, payload: { from: usNumber(), to: '+12125550177' } });
      expect(res.statusCode, res.body).toBe(200);
    }
    const calls = await callsOf(campaignId);
    expect(calls).toHaveLength(40);
    for (const call of calls) {
      const v = assignVariant(experiment.id, call.contact_id, experiment.variants as { id: number; weight: number }[]);
      expect(Number(call.experiment_variant_id)).toBe(v.id);
      expect(started.get(call.id)?.prompt).toBe(textOf.get(v.id));
    }
    expect(new Set(calls.map((c) => Number(c.experiment_variant_id))).size).toBe(2);
  });

  it('gives our own agent and a resumed call the prompt of the call\'s variant, not the campaign\'s latest', async () => {
    const { id: campaignId } = await campaignWithPrompt('Resumed control');
    const created = (await api('POST', `/api/v1/campaigns/${campaignId}/experiments`, { name: 'Resume', control_weight: 1, variants: [{ prompt: 'Resumed variant', weight: 1 }] })).json();
    const experiment = (await api('POST', `/api/v1/campaigns/${campaignId}/experiments/${created.id}/start`)).json();
    const contacts = await h.contacts(campaignId, Array.from({ length: 20 }, () => usNumber()));
    expect((await h.enqueue(campaignId)).statusCode).toBe(200);
    await h.round(campaignId);
    // A newer approved prompt meanwhile: calls already written keep their variant's.
    expect((await api('PUT', `/api/v1/campaigns/${campaignId}`, { campaign_data: { prompt: 'Approved later' } })).statusCode).toBe(200);
    const live = (await callsOf(campaignId)).filter((c) => c.status === 'in progress');
    expect(live.length).toBeGreaterThan(0);
    const resumed = new Map<number, string | null>();
    const resume = h.sim.resumeCall!.bind(h.sim);
    h.sim.resumeCall = async (req, at) => {
      resumed.set(req.callId, req.prompt);
      return resume(req, at);
    };
    try {
      await resumeInterruptedCalls(h.t.deps);
    } finally {
      h.sim.resumeCall = resume;
    }
    const textOf = new Map([[experiment.variants[0].id, 'Resumed control'], [experiment.variants[1].id, 'Resumed variant']]);
    for (const call of live) {
      const expected = textOf.get(Number(call.experiment_variant_id));
      expect(expected).toBeDefined();
      expect(resumed.get(call.id)).toBe(expected);
      expect((await loadCallScript(h.t.deps, call.id))!.prompt).toBe(expected);
    }
    expect(contacts.length).toBe(20);
    await h.advance(30 * 60_000);
  });
});
