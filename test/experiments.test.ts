import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gammaln } from 'simple-statistics';
import { createTestApp, type TestApp } from './helpers/test-app.ts';
import { createAccount, type Account } from './helpers/factories.ts';
import { seed, nextPhone } from './helpers/seed.ts';
import { promptsFor } from '../src/modules/campaigns/campaign-prompts.ts';

/** Experiments over HTTP (issue 28): validation, one running per campaign, results on seeded calls, promotion. */
let t: TestApp;
let owner: Account;
beforeAll(async () => {
  t = await createTestApp();
  owner = await createAccount(t);
});
afterAll(() => t?.close());

const api = async (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) => t.request({ method, url, headers: owner.headers, ...(payload && { payload }) });
async function campaign(prompt: string) {
  const res = await api('POST', '/api/v1/campaigns/', { title: `Campaign ${prompt}`, campaign_type: 'Outbound', campaign_data: { prompt } });
  expect(res.statusCode, res.body).toBe(200);
  return { id: res.json().id as number, version: res.json().prompt_history[0].id as number };
}
const auditKinds = async () => (await t.deps.db.selectFrom('audit_events').select('kind').where('owner_id', '=', owner.id).execute()).map((r) => r.kind);
const historyCount = async (campaignId: number) => (await t.deps.db.selectFrom('prompt_history').select('id').where('campaign_id', '=', campaignId).execute()).length;

describe('creating an experiment', () => {
  it('answers 422 naming the field for bad input and writes nothing', async () => {
    const c = await campaign('Base');
    const other = await campaign('Other');
    // A rejected entry: a sub-user's would be pending; the owner rejects one written here as pending.
    const rejected = await t.deps.db.insertInto('prompt_history').values({ campaign_id: c.id, prompt_data: JSON.stringify({ prompt: 'No' }), status: 'rejected', created_at: new Date(), created_by_user_id: owner.id }).returning('id').executeTakeFirstOrThrow();
    const before = { history: await historyCount(c.id), audit: (await auditKinds()).length };
    const cases: [object, (string | number)[]][] = [
      [{ name: 'x', control_weight: 1, variants: [{ weight: 1 }] }, ['body', 'variants', 0]],
      [{ name: 'x', control_weight: 1, variants: [{ weight: 1, prompt: 'A', prompt_history_id: c.version }] }, ['body', 'variants', 0]],
      [{ name: 'x', control_weight: 1, variants: [{ weight: 1, prompt_history_id: Number(rejected.id) }] }, ['body', 'variants', 0, 'prompt_history_id']],
      [{ name: 'x', control_weight: 1, variants: [{ weight: 1, prompt: 'ok' }, { weight: 1, prompt_history_id: other.version }] }, ['body', 'variants', 1, 'prompt_history_id']],
      [{ name: 'x', control_weight: 1, variants: [{ weight: 1, assistant_id: 999999 }] }, ['body', 'variants', 0, 'assistant_id']],
      [{ name: 'x', control_weight: 0, variants: [{ weight: 1, prompt: 'A' }] }, ['body', 'control_weight']],
      [{ name: 'x', control_weight: 1, variants: [{ weight: 101, prompt: 'A' }] }, ['body', 'variants', 0, 'weight']],
      [{ name: 'x', control_weight: 1, variants: [1, 2, 3, 4].map(() => ({ weight: 1, prompt: 'A' })) }, ['body', 'variants']],
      [{ name: 'x', control_weight: 1, min_calls_per_variant: 5, variants: [{ weight: 1, prompt: 'A' }] }, ['body', 'min_calls_per_variant']],
      [{ name: 'x'.repeat(121), control_weight: 1, variants: [{ weight: 1, prompt: 'A' }] }, ['body', 'name']],
      [{ name: 'x', control_weight: 1, variants: [{ weight: 1, prompt: 'A'.repeat(20001) }] }, ['body', 'variants', 0, 'prompt']],
    ];
    for (const [body, loc] of cases) {
      const res = await api('POST', `/api/v1/campaigns/${c.id}/experiments`, body);
      expect(res.statusCode, JSON.stringify(body).slice(0, 100)).toBe(422);
      expect(res.json().detail.map((d: { loc: unknown }) => d.loc), JSON.stringify(body).slice(0, 100)).toContainEqual(loc);
    }
    expect((await api('GET', `/api/v1/campaigns/${c.id}/experiments`)).json().data).toEqual([]);
    expect(await historyCount(c.id)).toBe(before.history);
    expect((await auditKinds()).length).toBe(before.audit);
  });

  it('runs one experiment per campaign at a time, and audits each change', async () => {
    const c = await campaign('One at a time');
    const body = { name: 'First', control_weight: 70, variants: [{ prompt_history_id: c.version, weight: 30, label: 'Same again' }] };
    const first = (await api('POST', `/api/v1/campaigns/${c.id}/experiments`, body)).json();
    expect(first.variants.map((v: { kind: string; share: number }) => [v.kind, v.share])).toEqual([['control', 0.7], ['prompt', 0.3]]);
    const second = (await api('POST', `/api/v1/campaigns/${c.id}/experiments`, { ...body, name: 'Second' })).json();
    expect((await api('POST', `/api/v1/campaigns/${c.id}/experiments/${first.id}/start`)).statusCode).toBe(200);
    expect((await api('POST', `/api/v1/campaigns/${c.id}/experiments/${first.id}/start`)).statusCode).toBe(409);
    const clash = await api('POST', `/api/v1/campaigns/${c.id}/experiments/${second.id}/start`);
    expect(clash.statusCode).toBe(409);
    expect(clash.json().detail).toMatch(/Another experiment/);
    expect((await api('POST', `/api/v1/campaigns/${c.id}/experiments/${second.id}/stop`)).statusCode).toBe(409);
    expect((await api('POST', `/api/v1/campaigns/${c.id}/experiments/${first.id}/stop`)).json().status).toBe('stopped');
    expect((await api('POST', `/api/v1/campaigns/${c.id}/experiments/${first.id}/start`)).statusCode).toBe(409);
    expect((await api('POST', `/api/v1/campaigns/${c.id}/experiments/${second.id}/start`)).json().status).toBe('running');
    expect((await api('GET', `/api/v1/campaigns/${c.id}/experiments`)).json().data.map((e: { name: string; status: string }) => [e.name, e.status])).toEqual([['Second', 'running'], ['First', 'stopped']]);
    expect((await api('GET', `/api/v1/campaigns/${c.id}/experiments/999999`)).statusCode).toBe(404);
    const kinds = await auditKinds();
    expect(kinds.filter((k) => k === 'experiment.created').length).toBeGreaterThanOrEqual(2);
    expect(kinds).toContain('experiment.started');
    expect(kinds).toContain('experiment.stopped');
  });
});

describe('results and promotion', () => {
  // P(B > A) for Beta posteriors in closed form (Evan Miller's sum).
  const lbeta = (a: number, b: number) => gammaln(a) + gammaln(b) - gammaln(a + b);
  const bBeatsA = (aA: number, bA: number, aB: number, bB: number) => {
    let s = 0;
    for (let i = 0; i < aB; i++) s += Math.exp(lbeta(aA + i, bA + bB) - Math.log(bB + i) - lbeta(1 + i, bB) - lbeta(aA, bA));
    return s;
  };

  it('computes each variant\'s rates, the z-test and the probability to be best from its calls, declares the winner and makes it live', async () => {
    const c = await campaign('Control words');
    const created = (await api('POST', `/api/v1/campaigns/${c.id}/experiments`, { name: 'Words', control_weight: 1, min_calls_per_variant: 100, variants: [{ prompt: 'Variant words', weight: 1, label: 'New words' }] })).json();
    const started = (await api('POST', `/api/v1/campaigns/${c.id}/experiments/${created.id}/start`)).json();
    const [control, variant] = started.variants as { id: number }[];
    const collecting = (await api('GET', `/api/v1/campaigns/${c.id}/experiments/${created.id}/results`)).json();
    expect(collecting.stopping_rule.state).toBe('collecting');
    expect(collecting.variants.map((v: { probability_to_be_best: number }) => v.probability_to_be_best)).toEqual([expect.closeTo(0.5, 6), expect.closeTo(0.5, 6)]);

    // Control: 200 contacts, 20 interested, 100 reached calls of 30 s, plus 10 unanswered retries; variant: 200 contacts, 40 successful (30 interested, 5 scheduled, 5 transferred), 120 reached of 60 s.
    const { contacts } = await seed(t.deps.db, { contacts: Array.from({ length: 400 }, () => ({ campaign: { id: c.id, owner_id: owner.id }, phone_number: nextPhone(), status: 'finished' })) });
    const call = (contact: (typeof contacts)[number], variantId: number, f: { action_status?: string | null; call_duration?: number; status?: string }) => ({
      contact: { id: contact.id, campaign_id: c.id, owner_id: owner.id }, experiment_variant_id: variantId, status: f.status ?? 'finished', action_status: f.action_status ?? null,
      call_duration: f.call_duration ?? 0, cost: 0.5, call_type: 'outbound', to_number: contact.phone_number, start_time: new Date(Date.now() - 3_600_000),
    });
    const calls = [
      ...contacts.slice(0, 200).map((ct, i) => call(ct, control!.id, { action_status: i < 20 ? 'interested' : null, call_duration: i < 100 ? 30 : 0 })),
      ...contacts.slice(0, 10).map((ct) => call(ct, control!.id, { status: 'no_answer' })),
      ...contacts.slice(200).map((ct, i) => call(ct, variant!.id, { action_status: i < 30 ? 'interested' : i < 35 ? 'scheduled' : i < 40 ? 'transferred' : null, call_duration: i < 120 ? 60 : 0 })),
      // In progress: no outcome yet, not counted.
      call(contacts[399]!, variant!.id, { status: 'in progress', action_status: null }),
      // Another campaign's call naming the variant is not counted either (the results read this campaign's calls).
    ];
    const { calls: rows } = await seed(t.deps.db, { calls });
    // Webhook payloads of four of the variant's calls (and a redelivery, not counted).
    const hook = (await api('POST', '/api/v1/integrations/webhooks/', { url: 'https://crm.example.com/hook', request_schema: { interested: 'did they want it' }, campaign_ids: [c.id] })).json();
    const variantCalls = rows.filter((r) => Number(r.experiment_variant_id) === variant!.id);
    const payloads = [{ interested: true, note: 'x' }, { interested: false, note: null }, { interested: true, note: '' }, { interested: true }];
    for (const [i, payload] of payloads.entries()) {
      await t.deps.db.insertInto('webhook_deliveries').values({ integration_id: hook.id, owner_id: owner.id, call_id: variantCalls[i]!.id, status: 'sent', kind: 'call', payload: JSON.stringify(payload), redelivery_of: null, created_at: new Date() }).execute();
    }
    await t.deps.db.insertInto('webhook_deliveries').values({ integration_id: hook.id, owner_id: owner.id, call_id: variantCalls[0]!.id, status: 'sent', kind: 'redeliver', payload: JSON.stringify({ interested: false, note: null }), redelivery_of: null, created_at: new Date() }).execute();

    // Three of the variant's calls scored on the campaign's scorecard (60, 80, 100), one judged in vain: it counts for nothing.
    const scored = [60, 80, 100, null];
    for (const [i, score] of scored.entries()) {
      await t.deps.db.insertInto('call_scores').values({ call_id: variantCalls[i]!.id, owner_id: owner.id, campaign_id: c.id, status: score === null ? 'failed' : 'scored', score, scored_at: new Date() }).execute();
    }

    const results = (await api('GET', `/api/v1/campaigns/${c.id}/experiments/${created.id}/results`)).json();
    const [a, b] = results.variants;
    expect(a).toMatchObject({ variant_id: control!.id, calls: 210, contacts: 200, reached_calls: 100, interested_contacts: 20, total_cost: 105, meets_minimum: true, z: null, p_value: null });
    expect(a.reached_rate).toBeCloseTo(100 / 210, 9);
    expect(a.interested_rate).toBeCloseTo(0.1, 9);
    expect(a.average_duration).toBeCloseTo(30, 9);
    expect(a.cost_per_interested).toBeCloseTo(5.25, 9);
    expect(b).toMatchObject({ variant_id: variant!.id, label: 'New words', calls: 200, contacts: 200, reached_calls: 120, interested_contacts: 40, total_cost: 100, average_score: 80, scored_calls: 3 });
    expect(a).toMatchObject({ average_score: null, scored_calls: 0 });
    expect(b.interested_rate).toBeCloseTo(0.2, 9);
    expect(b.average_duration).toBeCloseTo(60, 9);
    expect(b.cost_per_interested).toBeCloseTo(2.5, 9);
    // By hand: pooled p = 60/400 = 0.15, se = sqrt(0.15 * 0.85 * (1/200 + 1/200)) = 0.0357071, z = (0.2 - 0.1) / se = 2.80056; two-sided p = 2(1 - Φ(2.80056)) = 0.00510.
    expect(b.z).toBeCloseTo(2.80056, 4);
    expect(b.p_value).toBeCloseTo(0.0051, 4);
    const exact = bBeatsA(21, 181, 41, 161);
    expect(b.probability_to_be_best).toBeCloseTo(exact, 5);
    expect(a.probability_to_be_best).toBeCloseTo(1 - exact, 5);
    expect(results.stopping_rule).toMatchObject({ state: 'winner', winner_variant_id: variant!.id, min_calls_per_variant: 100, winner_probability: 0.95 });
    expect(results.stopping_rule.explanation).toMatch(/New words is the winner/);
    expect(b.fields).toEqual([
      { name: 'interested', deliveries: 4, filled_rate: 1, true_rate: 0.75 },
      { name: 'note', deliveries: 3, filled_rate: expect.closeTo(1 / 3, 9), true_rate: null },
    ]);
    expect(a.fields).toEqual([]);

    // Only the winner goes live without force.
    const refused = await api('POST', `/api/v1/campaigns/${c.id}/experiments/${created.id}/promote`, { variant_id: control!.id });
    expect(refused.statusCode).toBe(409);
    expect(await promptsFor(t.deps.db, [c.id])).toEqual(new Map([[c.id, 'Control words']]));
    const promoted = await api('POST', `/api/v1/campaigns/${c.id}/experiments/${created.id}/promote`, { variant_id: variant!.id });
    expect(promoted.statusCode, promoted.body).toBe(200);
    expect(promoted.json()).toMatchObject({ status: 'stopped', promoted_variant_id: variant!.id });
    const campaignNow = (await api('GET', `/api/v1/campaigns/${c.id}`)).json();
    const entry = campaignNow.prompt_history.find((e: { id: number }) => e.id === promoted.json().promoted_prompt_history_id);
    expect(entry).toMatchObject({ status: 'approved', approved_by_user_id: owner.id, prompt_data: { prompt: 'Variant words' } });
    expect(campaignNow.campaign_data.prompt).toBe('Variant words');
    expect(await promptsFor(t.deps.db, [c.id])).toEqual(new Map([[c.id, 'Variant words']]));
    expect(await auditKinds()).toContain('experiment.promoted');
    expect((await api('POST', `/api/v1/campaigns/${c.id}/experiments/${created.id}/promote`, { variant_id: variant!.id, force: true })).statusCode).toBe(409);
  });

  it('refuses a variant of another experiment and a draft', async () => {
    const c = await campaign('Drafted');
    const e = (await api('POST', `/api/v1/campaigns/${c.id}/experiments`, { name: 'Draft', control_weight: 1, variants: [{ prompt: 'B', weight: 1 }] })).json();
    expect((await api('POST', `/api/v1/campaigns/${c.id}/experiments/${e.id}/promote`, { variant_id: e.variants[1].id, force: true })).statusCode).toBe(409);
    const wrong = await api('POST', `/api/v1/campaigns/${c.id}/experiments/${e.id}/promote`, { variant_id: 999999, force: true });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().detail[0].loc).toEqual(['body', 'variant_id']);
  });
});
