import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from './helpers/test-app.ts';
import type { Account } from './helpers/factories.ts';
import { appWithWebhookWorker, settled, type WebhookScene } from './helpers/deliveries.ts';
import { startFakeLlm } from './fakes/llm-server.ts';
import type { Receiver } from './fakes/webhook-receiver.ts';
import { seed } from './helpers/seed.ts';
import { waitFor } from './helpers/wait-for.ts';
import { finishCalls } from '../src/modules/dialer/call-events/call-finish.ts';
import { createScoringWorker, scoreCall } from '../src/modules/quality/scorecards/scoring.worker.ts';
import { createOfflineExtractor } from '../src/extraction/offline-extractor.ts';
import type { ClaimWorker } from '../src/claim-worker.ts';

/**
 * Scoring every call end to end: a finished call (through finishCalls, as the dialer ends it)
 * is judged by the fake LLM through the extraction pipeline after its webhook went out, the
 * score is stored and shown, filtered in the calls list and summed up in the campaign's summary.
 */

let llm: Awaited<ReturnType<typeof startFakeLlm>>;
let scene: WebhookScene;
let t: TestApp;
let alice: Account;
let receiver: Receiver;
let scoring: ClaimWorker;
/** What reached the fakes, in order: the webhook's extraction, the webhook itself, the judge. */
const events: string[] = [];
let judgeAnswer: (body: any) => { status?: number; content?: unknown } = () => ({ content: {} });

const isJudge = (body: any) => Object.keys(body.response_format?.json_schema?.schema?.properties ?? {}).some((k) => k.startsWith('reason_'));
const transcriptText = (body: any) => String(body.messages?.[1]?.content ?? '');

beforeAll(async () => {
  llm = await startFakeLlm((body) => {
    if (!isJudge(body)) {
      events.push('llm:webhook');
      return { content: { name: 'Ann' } };
    }
    events.push('llm:judge');
    return judgeAnswer(body);
  });
  ({ t, alice, receiver } = scene = await appWithWebhookWorker({ LLM_BASE_URL: llm.url, LLM_MODEL: 'judge-model', LLM_CONCURRENCY: '4' }));
  // The webhook takes a while to answer: scoring must still wait for it.
  receiver.respond = () => {
    events.push('webhook');
    return { delayMs: 300 };
  };
  scoring = createScoringWorker(t.deps, { pollMs: 20 });
  scoring.start();
});
afterAll(async () => {
  await scoring?.stop();
  await scene?.close();
  await llm?.close();
});

const put = (campaignId: number, payload: unknown, who = alice) =>
  t.request({ method: 'PUT', url: `/api/v1/campaigns/${campaignId}/scorecard`, headers: who.headers, payload: payload as object });
const get = async (url: string) => {
  const res = await t.request({ method: 'GET', url, headers: alice.headers });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};

const CARD = {
  enabled: true,
  criteria: [
    { key: 'goal', question: 'Did the person agree to a callback?', type: 'boolean', weight: 3 },
    { key: 'clarity', question: 'How clear was the agent?', type: 'scale', weight: 1 },
    { key: 'sentiment', question: 'How did the person feel?', type: 'category', weight: 1, options: [{ label: 'positive', value: 1 }, { label: 'neutral', value: 0.5 }, { label: 'negative', value: 0 }] },
  ],
  tags: ['dead_air', 'frustrated'],
};

async function campaign(card?: unknown) {
  const { campaigns: [c] } = await seed(t.deps.db, { campaigns: [{ owner: alice }] });
  if (card) expect((await put(c!.id, card)).statusCode).toBe(200);
  return c!.id;
}

async function webhookFor(campaignId: number) {
  const res = await t.request({
    method: 'POST', url: '/api/v1/integrations/webhooks', headers: alice.headers,
    payload: { url: `${receiver.url}/score-${campaignId}`, request_schema: 'name - client name', campaign_ids: [campaignId], only_interested: false },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().id as number;
}

/** A call in progress, ended by finishCalls in one transaction as the dialer ends it. */
async function finishedCall(campaignId: number, text: string, promptHistoryId: number | null = null) {
  const { contacts: [contact], calls: [c] } = await seed(t.deps.db, {
    contacts: [{ campaign: { id: campaignId, owner_id: alice.id }, status: 'in progress' }],
    calls: [{ contact: 0, status: 'in progress', start_time: new Date(Date.now() - 60_000), call_type: 'outbound', prompt_history_id: promptHistoryId }],
  });
  await t.deps.db.transaction().execute((trx) => finishCalls(trx, t.deps, [{
    call: { id: c!.id, status: 'in progress', contact_id: contact!.id, campaign_id: campaignId, call_type: 'outbound', start_time: c!.start_time, provider: null },
    outcome: { status: 'finished', durationSec: 60, actionStatus: 'interested', transcript: text ? [{ role: 'assistant', text: 'Can I call you back tomorrow?' }, { role: 'user', text }] : [] },
  }]));
  return c!.id;
}

const scoreRow = (callId: number) => t.deps.db.selectFrom('call_scores').selectAll().where('call_id', '=', callId).executeTakeFirst();
const settledScore = (callId: number) => waitFor(async () => {
  const row = await scoreRow(callId);
  return row && row.status !== 'pending' ? row : null;
}, 15_000, async () => JSON.stringify(await scoreRow(callId)));

describe('scoring a finished call with the LLM', () => {
  it('judges it after its webhook, through a strict schema of the card, and stores answers, reasons, tags and the weighted score', async () => {
    judgeAnswer = () => ({
      content: {
        goal: true, reason_goal: 'The person said yes to tomorrow.', clarity: 4, reason_clarity: 'Clear, one hesitation.',
        sentiment: 'neutral', reason_sentiment: 'Polite but short.', tag_dead_air: false, tag_frustrated: true,
      },
    });
    const campaignId = await campaign(CARD);
    const integration = await webhookFor(campaignId);
    events.length = 0;
    const judgedBefore = llm.seen.filter((s) => isJudge(s.body)).length;
    const callId = await finishedCall(campaignId, 'Yes, tomorrow works. Hurry up though.', 7);
    const row = await settledScore(callId);
    const [delivery] = await settled(t.deps.db, integration, 1);

    // Order at the fakes: the webhook's extraction, the webhook, and only then the judge.
    expect(events).toEqual(['llm:webhook', 'webhook', 'llm:judge']);
    expect(delivery!.status).toBe('sent');
    expect(delivery!.finished_at!.getTime()).toBeLessThanOrEqual(row.scored_at!.getTime());

    const judged = llm.seen.filter((s) => isJudge(s.body));
    expect(judged).toHaveLength(judgedBefore + 1);
    const format = judged.at(-1)!.body.response_format;
    expect(format.json_schema.strict).toBe(true);
    expect(format.json_schema.schema.additionalProperties).toBe(false);
    const props = format.json_schema.schema.properties;
    expect(Object.keys(props)).toEqual(['goal', 'reason_goal', 'clarity', 'reason_clarity', 'sentiment', 'reason_sentiment', 'tag_dead_air', 'tag_frustrated']);
    expect(format.json_schema.schema.required).toEqual(Object.keys(props));
    expect(props.goal.type).toEqual(['boolean', 'null']);
    expect(props.clarity).toMatchObject({ type: ['integer', 'null'], enum: [1, 2, 3, 4, 5, null] });
    expect(props.sentiment).toMatchObject({ type: ['string', 'null'], enum: ['positive', 'neutral', 'negative', null] });
    expect(props.tag_frustrated.type).toEqual(['boolean', 'null']);
    expect(transcriptText(judged.at(-1)!.body)).toContain('Yes, tomorrow works.');

    // (3 x 1 + 1 x (4 - 1) / 4 + 1 x 0.5) / (3 + 1 + 1) = 0.85
    const expected = Math.round(((3 * 1 + 1 * 0.75 + 1 * 0.5) / 5) * 1000) / 10;
    const score = await get(`/api/v1/calls/${callId}/score`);
    expect(score).toMatchObject({ call_id: callId, campaign_id: campaignId, prompt_history_id: 7, status: 'scored', score: expected, tags: ['frustrated'], method: 'llm:judge-model', error: null, attempts: 1 });
    expect(score.answers).toEqual([
      { key: 'goal', question: 'Did the person agree to a callback?', type: 'boolean', weight: 3, answer: true, value: 1, reason: 'The person said yes to tomorrow.' },
      { key: 'clarity', question: 'How clear was the agent?', type: 'scale', weight: 1, answer: 4, value: 0.75, reason: 'Clear, one hesitation.' },
      { key: 'sentiment', question: 'How did the person feel?', type: 'category', weight: 1, answer: 'neutral', value: 0.5, reason: 'Polite but short.' },
    ]);
    // The Call object itself is unchanged by scoring (the spec's shape).
    expect(Object.keys(await get(`/api/v1/calls/${callId}`))).not.toContain('score');
  });

  it('leaves an answer the judge could not give out of the score, and a value outside the schema is no answer', async () => {
    judgeAnswer = () => ({ content: { goal: null, reason_goal: null, clarity: 9, reason_clarity: 'x', sentiment: 'positive', reason_sentiment: 'Happy.', tag_dead_air: true, tag_frustrated: false } });
    const campaignId = await campaign(CARD);
    const callId = await finishedCall(campaignId, 'Sounds great!');
    const row = await settledScore(callId);
    // Only sentiment counts: 1 x 1 / 1.
    expect([row.status, row.score, row.tags]).toEqual(['scored', 100, ['dead_air']]);
  });

  it('records a judge failure (LLM 500) and tries again later, then fails for good after three attempts; never a score', async () => {
    judgeAnswer = () => ({ status: 500, content: 'overloaded' });
    const campaignId = await campaign(CARD);
    const callId = await finishedCall(campaignId, 'Maybe.');
    for (let attempt = 1; attempt <= 3; attempt++) {
      const row = await waitFor(async () => {
        const r = await scoreRow(callId);
        return r && r.attempts === attempt && r.claimed_by === null ? r : null;
      }, 15_000, async () => JSON.stringify(await scoreRow(callId)));
      expect(row.error).toMatch(/HTTP 500/);
      expect(row.score).toBeNull();
      if (attempt < 3) {
        expect(row.status).toBe('pending');
        expect(row.due_at.getTime()).toBeGreaterThan(Date.now() + 30_000); // a back-off, not a hot loop
        await t.deps.db.updateTable('call_scores').set({ due_at: new Date(Date.now() - 1000) }).where('call_id', '=', callId).execute();
      } else {
        expect(row.status).toBe('failed');
      }
    }
    expect((await get(`/api/v1/calls/${callId}/score`)).status).toBe('failed');
  });

  it('without an LLM says needs_model and asks nothing; a call without a transcript is no_transcript', async () => {
    const campaignId = await campaign(CARD);
    judgeAnswer = () => ({ content: {} });
    await scoring.stop();
    try {
      const callId = await finishedCall(campaignId, 'Hello?');
      const asked = llm.seen.length;
      const outcome = await scoreCall({ ...t.deps, extractor: createOfflineExtractor() }, callId);
      expect(outcome).toMatchObject({ status: 'needs_model' });
      expect(outcome.score).toBeUndefined();
      expect(llm.seen.length).toBe(asked);
    } finally {
      scoring.start();
    }
    const silent = await finishedCall(campaignId, '');
    expect((await settledScore(silent)).status).toBe('no_transcript');
  });

  it('judges the calls of the last week left needs_model once a process starts with a model; older ones stay', async () => {
    judgeAnswer = () => ({ content: { goal: true, reason_goal: 'r', clarity: 5, reason_clarity: 'r', sentiment: 'positive', reason_sentiment: 'r', tag_dead_air: false, tag_frustrated: false } });
    const campaignId = await campaign(CARD);
    await scoring.stop();
    let restarted = false;
    try {
      const recent = await finishedCall(campaignId, 'Yes, call me tomorrow.');
      const old = await finishedCall(campaignId, 'Yes, call me next week.');
      // As a process without a model left them (the offline judge), the older one 8 days ago.
      const leftAs = { status: 'needs_model', error: 'no LLM is configured (LLM_BASE_URL)', scored_at: new Date() };
      await t.deps.db.updateTable('call_scores').set(leftAs).where('call_id', 'in', [recent, old]).execute();
      await t.deps.db.updateTable('call_scores').set({ created_at: new Date(Date.now() - 8 * 86_400_000) }).where('call_id', '=', old).execute();
      scoring.start();
      restarted = true;
      // The worker queues the row again as it starts, then judges it: wait for the score, not for the first change.
      const judged = await waitFor(async () => {
        const row = await scoreRow(recent);
        return row?.status === 'scored' ? row : null;
      }, 15_000, async () => JSON.stringify(await scoreRow(recent)));
      expect(judged).toMatchObject({ status: 'scored', score: 100, error: null });
      expect(await scoreRow(old)).toMatchObject({ status: 'needs_model' });
    } finally {
      if (!restarted) scoring.start();
    }
  });

  it('scores nothing for a campaign whose card is off (the default), and says not_scored', async () => {
    const campaignId = await campaign();
    expect(await get(`/api/v1/campaigns/${campaignId}/scorecard`)).toMatchObject({ enabled: false, is_default: true, tags: ['dead_air', 'talked_over', 'unanswered_question', 'frustrated'] });
    const callId = await finishedCall(campaignId, 'Yes.');
    expect(await scoreRow(callId)).toBeUndefined();
    expect(await get(`/api/v1/calls/${callId}/score`)).toMatchObject({ status: 'not_scored', score: null, answers: [] });
  });
});

describe('personal data in scores', () => {
  it('a person\'s erasure and the retention purge forget the judge\'s reasons (they may quote the person) and keep the score', async () => {
    judgeAnswer = () => ({ content: { goal: true, reason_goal: 'Ann said call me at home.', clarity: 5, reason_clarity: 'Ann was clear.', sentiment: 'positive', reason_sentiment: 'Ann laughed.', tag_dead_air: false, tag_frustrated: false } });
    const campaignId = await campaign(CARD);
    const erased = await finishedCall(campaignId, 'Call me at home.');
    const purged = await finishedCall(campaignId, 'Call me at work.');
    for (const id of [erased, purged]) expect((await settledScore(id)).status).toBe('scored');
    const before = await get(`/api/v1/calls/${erased}/score`);
    expect(before.answers.map((a: { reason: string }) => a.reason)).toEqual(['Ann said call me at home.', 'Ann was clear.', 'Ann laughed.']);

    const { phone_number } = await t.deps.db.selectFrom('calls').innerJoin('contacts', 'contacts.id', 'calls.contact_id').select('contacts.phone_number').where('calls.id', '=', erased).executeTakeFirstOrThrow();
    const res = await t.request({ method: 'POST', url: '/api/v1/privacy/erasures', headers: alice.headers, payload: { phone_number } });
    expect(res.statusCode, res.body).toBe(200);
    const after = await get(`/api/v1/calls/${erased}/score`);
    expect(after.answers.map((a: { reason: string | null }) => a.reason)).toEqual([null, null, null]);
    expect([after.score, after.answers.map((a: { answer: unknown }) => a.answer)]).toEqual([before.score, before.answers.map((a: { answer: unknown }) => a.answer)]);

    const { purgeCalls } = await import('../src/modules/privacy/retention/retention-purge.ts');
    await purgeCalls(t.deps.db, { campaignId, ownerId: alice.id, days: 1 }, new Date(Date.now() + 2 * 86_400_000), 100);
    const purgedScore = await get(`/api/v1/calls/${purged}/score`);
    expect(purgedScore.answers.map((a: { reason: string | null }) => a.reason)).toEqual([null, null, null]);
    expect(purgedScore.score).toBe(before.score);
  });
});

describe('the scoring job across processes and crashes', () => {
  it('two workers score each call once; a row whose process died (lease ran out) is taken over', async () => {
    judgeAnswer = (body) => ({ content: { goal: transcriptText(body).includes('yes'), reason_goal: 'r', clarity: 3, reason_clarity: 'r', sentiment: 'positive', reason_sentiment: 'r', tag_dead_air: false, tag_frustrated: false } });
    const campaignId = await campaign(CARD);
    await scoring.stop();
    const second = createScoringWorker(t.deps, { pollMs: 20, workerId: 'second-process' });
    try {
      const calls: number[] = [];
      for (let i = 0; i < 8; i++) calls.push(await finishedCall(campaignId, `call ${i}: yes`));
      // A ninth call claimed by a process that died: its lease has run out.
      const orphan = await finishedCall(campaignId, 'orphaned: yes');
      await t.deps.db.updateTable('call_scores').set({ claimed_by: 'dead-process', lease_until: new Date(Date.now() - 1000), attempts: 1 }).where('call_id', '=', orphan).execute();
      const judgedBefore = llm.seen.filter((x) => isJudge(x.body)).length;
      scoring.start();
      second.start();
      const rows = await Promise.all([...calls, orphan].map(settledScore));
      expect(rows.map((r) => r.status)).toEqual(rows.map(() => 'scored'));
      // Each call judged once: as many judge requests as calls.
      expect(llm.seen.filter((x) => isJudge(x.body)).length - judgedBefore).toBe(calls.length + 1);
      expect(rows.at(-1)!.attempts).toBe(2);
    } finally {
      await second.stop();
    }
  });
});

describe('the scorecard', () => {
  it('keeps the default criteria when switched on without its own, and audits the change', async () => {
    const campaignId = await campaign();
    const res = await put(campaignId, { enabled: true });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ enabled: true, is_default: false });
    expect(res.json().criteria.map((c: { key: string }) => c.key)).toEqual(['goal_reached', 'clarity', 'stayed_on_script', 'sentiment']);
    const audit = await t.deps.db.selectFrom('audit_events').selectAll().where('kind', '=', 'campaign.scorecard_changed').where('subject_id', '=', campaignId).execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]!.details).toMatchObject({ from: null, to: { enabled: true } });
  });

  it('answers 422 naming the field for a bad card, and changes nothing', async () => {
    const campaignId = await campaign(CARD);
    const before = await get(`/api/v1/campaigns/${campaignId}/scorecard`);
    const c = (over: Record<string, unknown>) => ({ key: 'k', question: 'Q?', type: 'boolean', weight: 1, ...over });
    const cases: [unknown, (string | number)[]][] = [
      [{ enabled: true, criteria: [c({}), c({})] }, ['body', 'criteria', 1, 'key']],
      [{ enabled: true, criteria: [c({ key: 'reason_x' })] }, ['body', 'criteria', 0, 'key']],
      [{ enabled: true, criteria: [c({ type: 'category' })] }, ['body', 'criteria', 0, 'options']],
      [{ enabled: true, criteria: [c({ options: [{ label: 'a', value: 1 }, { label: 'b', value: 0 }] })] }, ['body', 'criteria', 0, 'options']],
      [{ enabled: true, criteria: [c({ type: 'category', options: [{ label: 'a', value: 1 }, { label: 'a', value: 0 }] })] }, ['body', 'criteria', 0, 'options', 1, 'label']],
      [{ enabled: true, criteria: [c({ weight: 11 })] }, ['body', 'criteria', 0, 'weight']],
      [{ enabled: true, criteria: [c({ key: 'Bad Key' })] }, ['body', 'criteria', 0, 'key']],
      [{ enabled: true, criteria: Array.from({ length: 21 }, (_, i) => c({ key: `k${i}` })) }, ['body', 'criteria']],
      [{ enabled: true, tags: ['rude'] }, ['body', 'tags', 0]],
      [{ enabled: true, criteria: [c({ question: 'x'.repeat(301) })] }, ['body', 'criteria', 0, 'question']],
    ];
    for (const [body, loc] of cases) {
      const res = await put(campaignId, body);
      expect(res.statusCode, JSON.stringify(body).slice(0, 200)).toBe(422);
      expect(res.json().detail.map((d: { loc: unknown }) => d.loc), JSON.stringify(body).slice(0, 200)).toContainEqual(loc);
    }
    expect(await get(`/api/v1/campaigns/${campaignId}/scorecard`)).toEqual(before);
  });
});

describe('scores in the calls list and the summary', () => {
  /** Scored rows written as the worker writes them, so the figures below are known. */
  async function scoredCalls(campaignId: number, rows: { score: number; tags: string[]; version: number | null; day: string }[]) {
    const { contacts } = await seed(t.deps.db, { contacts: rows.map(() => ({ campaign: { id: campaignId, owner_id: alice.id } })) });
    const { calls } = await seed(t.deps.db, { calls: rows.map((r, i) => ({ contact: { id: contacts[i]!.id, campaign_id: campaignId, owner_id: alice.id }, prompt_history_id: r.version })) });
    await t.deps.db.insertInto('call_scores').values(rows.map((r, i) => ({
      call_id: calls[i]!.id, owner_id: alice.id, campaign_id: campaignId, prompt_history_id: r.version, status: 'scored', score: r.score, tags: r.tags, scored_at: new Date(`${r.day}T12:00:00Z`),
    }))).execute();
    return calls.map((c) => c.id);
  }

  const rows: { score: number; tags: string[]; version: number | null; day: string }[] = [
    { score: 12.5, tags: ['dead_air'], version: 1, day: '2030-03-01' },
    { score: 47, tags: [], version: 1, day: '2030-03-01' },
    { score: 50, tags: ['frustrated'], version: 2, day: '2030-03-02' },
    { score: 85, tags: ['frustrated', 'dead_air'], version: 2, day: '2030-03-02' },
    { score: 100, tags: [], version: 2, day: '2030-03-03' },
    { score: 99.9, tags: [], version: null, day: '2030-03-03' },
  ];

  it('filters the calls list by score range and tag, together with the other filters', async () => {
    const campaignId = await campaign();
    const ids = await scoredCalls(campaignId, rows);
    // An unscored call in the same campaign, and a pending row: never matched by a score filter.
    const [pending] = await scoredCalls(campaignId, [{ score: 60, tags: ['frustrated'], version: null, day: '2030-03-03' }]);
    await t.deps.db.updateTable('call_scores').set({ status: 'pending', score: null }).where('call_id', '=', pending!).execute();
    const list = async (query: string) => (await get(`/api/v1/calls?campaign_id=${campaignId}&limit=100&${query}`)).data.map((c: { id: number }) => c.id).sort((a: number, b: number) => a - b);
    const expectIds = (keep: (r: (typeof rows)[number]) => boolean) => ids.filter((_, i) => keep(rows[i]!)).sort((a, b) => a - b);
    expect(await list('score_min=50&score_max=99.9')).toEqual(expectIds((r) => r.score >= 50 && r.score <= 99.9));
    expect(await list('score_min=100')).toEqual(expectIds((r) => r.score >= 100));
    expect(await list('score_tag=frustrated')).toEqual(expectIds((r) => r.tags.includes('frustrated')));
    expect(await list('score_tag=dead_air&score_max=50')).toEqual(expectIds((r) => r.tags.includes('dead_air') && r.score <= 50));
    expect(await list('score_tag=talked_over')).toEqual([]);
    const bad = await t.request({ method: 'GET', url: '/api/v1/calls?score_min=101', headers: alice.headers });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().detail[0].loc).toEqual(['query', 'score_min']);
  });

  it('sums up a campaign: average, ten buckets, per day, per prompt version, tags', async () => {
    const campaignId = await campaign();
    await scoredCalls(campaignId, rows);
    const summary = await get(`/api/v1/campaigns/${campaignId}/scores/summary?from=2030-03-01T00:00:00Z&to=2030-03-04T00:00:00Z`);
    const mean = (xs: number[]) => Math.round((xs.reduce((a, b) => a + b, 0) / xs.length) * 10) / 10;
    expect(summary.scored).toBe(rows.length);
    expect(summary.average).toBe(mean(rows.map((r) => r.score)));
    const buckets = Array.from({ length: 10 }, (_, i) => rows.filter((r) => Math.min(Math.floor(r.score / 10), 9) === i).length);
    expect(summary.distribution.map((b: { calls: number }) => b.calls)).toEqual(buckets);
    expect(summary.distribution[9]).toEqual({ from: 90, to: 100, calls: 2 });
    expect(summary.trend).toEqual(['2030-03-01', '2030-03-02', '2030-03-03'].map((day) => {
      const of = rows.filter((r) => r.day === day);
      return { day, calls: of.length, average: mean(of.map((r) => r.score)) };
    }));
    expect(summary.by_prompt_version).toEqual([null, 1, 2].map((v) => {
      const of = rows.filter((r) => r.version === v);
      return { prompt_history_id: v, calls: of.length, average: mean(of.map((r) => r.score)) };
    }));
    expect(summary.tags).toEqual([{ tag: 'dead_air', calls: 2 }, { tag: 'frustrated', calls: 2 }]);
    // Outside the period: nothing.
    const empty = await get(`/api/v1/campaigns/${campaignId}/scores/summary?from=2030-04-01T00:00:00Z&to=2030-04-02T00:00:00Z`);
    expect([empty.scored, empty.average, empty.trend]).toEqual([0, null, []]);
    const bad = await t.request({ method: 'GET', url: `/api/v1/campaigns/${campaignId}/scores/summary?from=2030-04-02T00:00:00Z&to=2030-04-01T00:00:00Z`, headers: alice.headers });
    expect(bad.statusCode).toBe(422);
  });
});

