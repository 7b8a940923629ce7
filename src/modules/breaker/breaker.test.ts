import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { breakerScene, type BreakerScene } from '../../../test/helpers/breaker-scene.ts';
import { finishCalls } from '../dialer/call-events/call-finish.ts';
import { lockCalls } from '../dialer/call-events/call-locks.ts';

/**
 * The circuit breaker over a real database: calls end the way the event batcher ends them, and
 * the campaign pauses itself once its failure rate over the window reaches the threshold after
 * the minimum of attempts (defaults: 50% over 120 s after 5 calls).
 */
let s: BreakerScene;
beforeAll(async () => {
  s = await breakerScene();
});
afterAll(() => s?.close());

const SEC = 1000;
const paused = async (id: number) => (await s.t.deps.db.selectFrom('campaigns').select('is_paused').where('id', '=', id).executeTakeFirstOrThrow()).is_paused;
const trips = (id: number) => s.t.deps.db.selectFrom('campaign_breaker_trips').selectAll().where('campaign_id', '=', id).orderBy('id').execute();
const audits = (id: number) => s.t.deps.db.selectFrom('audit_events').selectAll().where('kind', '=', 'campaign.paused_by_breaker').where('subject_id', '=', id).execute();
const resume = (id: number) => s.t.request({ method: 'PUT', url: `/api/v1/campaigns/${id}`, headers: s.alice.headers, payload: { is_paused: false } });

describe('the circuit breaker', () => {
  it('waits for the minimum of attempts: 4 failures of 4 do not pause at min 5', async () => {
    const c = await s.campaign();
    await s.end(c, 'failed', 'invalid number', 'rejected', 'failed');
    expect(await paused(c)).toBe(false);
    expect((await s.summary(c)).paused_by).toBeNull();
  });

  it('pauses at the 5th attempt when 3 of 5 failed (50%), once, and says why in the summary and the audit trail', async () => {
    const c = await s.campaign();
    await s.end(c, 'failed', 'finished', 'voicemail', 'rejected');
    expect(await paused(c)).toBe(false);
    s.clock.advance(10 * SEC);
    await s.end(c, 'invalid number');
    expect(await paused(c)).toBe(true);
    const summary = await s.summary(c);
    expect(summary.paused_by).toEqual({ reason: 'failure_rate', failures: 3, attempts: 5, window_seconds: 120, failure_rate_threshold: 0.5, at: s.clock.now().toISOString() });
    expect(summary.next_call_reason).toBe('campaign paused');
    // Calls still ending on the paused campaign do not pause it again.
    await s.end(c, 'failed', 'failed');
    expect(await trips(c)).toHaveLength(1);
    const [event, ...more] = await audits(c);
    expect(more).toEqual([]);
    expect(event).toMatchObject({ owner_id: s.alice.id, actor_label: 'circuit breaker', actor_user_id: null, subject_type: 'campaign' });
    expect(event!.details).toMatchObject({ reason: 'failure_rate', failures: 3, attempts: 5, window_seconds: 120, failure_rate_threshold: 0.5, min_attempts: 5 });
    const listed = await s.t.request({ method: 'GET', url: '/api/v1/audit-events/?kind=campaign.paused_by_breaker', headers: s.alice.headers });
    expect(listed.json().data.map((e: { subject: { id: number } }) => e.subject.id)).toContain(c);
    // The live stream is told once, with the reason and the figures.
    const live = await s.t.deps.db.selectFrom('live_events').select(['type', 'data']).where('campaign_id', '=', c).where('type', '=', 'campaign.paused').execute();
    expect(live.map((e) => e.data)).toEqual([expect.objectContaining({ campaign_id: c, reason: 'failure_rate', failures: 3, attempts: 5, window_seconds: 120 })]);
  });

  it('does not count busy, no answer, voicemail, silence or a person hanging up as failures', async () => {
    const c = await s.campaign();
    await s.end(c, 'busy_or_rejected', 'unavailable', 'voicemail', 'silence', 'terminated', 'finished', 'failed', 'failed');
    expect(await paused(c)).toBe(false);
  });

  it('is judged when a call fails: failures that reached the rate under the minimum pause at the next failure, not at a success', async () => {
    const c = await s.campaign();
    await s.end(c, 'failed', 'failed', 'failed', 'failed');
    await s.end(c, 'finished'); // 4 of 5, but a success only lowers the rate: not judged
    expect(await paused(c)).toBe(false);
    await s.end(c, 'failed');
    expect((await s.summary(c)).paused_by).toMatchObject({ failures: 5, attempts: 6 });
  });

  it('does not pause while the failures stay below the threshold', async () => {
    const c = await s.campaign();
    await s.end(c, 'failed', 'finished', 'finished', 'failed', 'finished');
    await s.end(c, 'finished', 'failed', 'finished', 'finished', 'failed');
    expect(await paused(c)).toBe(false);
  });

  it('slides its window: failures that ended before it do not count', async () => {
    const c = await s.campaign();
    await s.end(c, 'failed', 'failed', 'failed', 'failed');
    s.clock.advance(121 * SEC);
    // In the window: 1 failure of 5 (the 4 older ones are out of it).
    await s.end(c, 'failed', 'finished', 'finished', 'finished', 'finished');
    expect(await paused(c)).toBe(false);
    s.clock.advance(30 * SEC);
    // Now 3 of 7 in the window: still below 50%; one more makes 4 of 8.
    await s.end(c, 'failed', 'failed');
    expect(await paused(c)).toBe(false);
    await s.end(c, 'rejected');
    expect(await paused(c)).toBe(true);
    expect((await s.summary(c)).paused_by).toMatchObject({ failures: 4, attempts: 8 });
  });

  it('pauses once when two batches end failing calls of the campaign at the same time', async () => {
    const c = await s.campaign();
    const [a, b] = [await s.callsInProgress(c, 5), await s.callsInProgress(c, 5)];
    await Promise.all([
      s.endBatch(a.map((id) => [id, 'failed'] as const)),
      s.endBatch(b.map((id) => [id, 'failed'] as const)),
    ]);
    expect(await paused(c)).toBe(true);
    expect(await trips(c)).toHaveLength(1);
    expect(await audits(c)).toHaveLength(1);
  });

  it('counts the failures of a batch that committed while another waited for the campaign (3 + 2 of 5)', async () => {
    const c = await s.campaign();
    const [a, b] = [await s.callsInProgress(c, 3), await s.callsInProgress(c, 2)];
    // Batch a has ended its calls and holds the campaign row when batch b starts; on PostgreSQL b
    // waits for the row, and its count, read after, sees a's three failures beside its own two.
    let second: Promise<void> | undefined;
    await s.t.deps.db.transaction().execute(async (trx) => {
      const { byId } = await lockCalls(trx, a, []);
      await finishCalls(trx, s.t.deps, a.map((id) => ({ call: byId.get(id)!, outcome: { status: 'failed' as const } })));
      second = s.endBatch(b.map((id) => [id, 'failed'] as const));
      await new Promise((resolve) => setTimeout(resolve, 150));
    });
    await second;
    expect(await paused(c)).toBe(true);
    expect((await s.summary(c)).paused_by).toMatchObject({ failures: 5, attempts: 5 });
  });

  it('is cleared by resuming the campaign, and counts again from the resume', async () => {
    const c = await s.campaign();
    await s.end(c, 'failed', 'failed', 'failed', 'failed', 'failed');
    expect(await paused(c)).toBe(true);
    s.clock.advance(5 * SEC);
    const res = await resume(c);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().is_paused).toBe(false);
    expect((await s.summary(c)).paused_by).toBeNull();
    expect((await trips(c))[0]!.resumed_at).toEqual(s.clock.now());
    // The five failures before the resume are inside the window but counted no more.
    s.clock.advance(SEC);
    await s.end(c, 'failed', 'failed', 'failed', 'failed');
    expect(await paused(c)).toBe(false);
    await s.end(c, 'failed');
    expect(await paused(c)).toBe(true);
    expect((await s.summary(c)).paused_by).toMatchObject({ failures: 5, attempts: 5 });
    expect(await trips(c)).toHaveLength(2);
    expect(await audits(c)).toHaveLength(2);
  });

  it('forgets a pause it made when the campaign was resumed outside the service, so a person\'s later pause has no breaker reason', async () => {
    const c = await s.campaign();
    await s.end(c, 'failed', 'failed', 'failed', 'failed', 'failed');
    await s.t.deps.db.updateTable('campaigns').set({ is_paused: false }).where('id', '=', c).execute(); // an operator's psql
    const pause = await s.t.request({ method: 'PUT', url: `/api/v1/campaigns/${c}`, headers: s.alice.headers, payload: { is_paused: true } });
    expect(pause.statusCode, pause.body).toBe(200);
    expect((await s.summary(c)).paused_by).toBeNull();
  });

  it('never pauses a campaign whose breaker is off, and follows its own threshold, window and minimum', async () => {
    const off = await s.campaign();
    const put = (id: number, body: object) => s.t.request({ method: 'PUT', url: `/api/v1/campaigns/${id}/protection`, headers: s.alice.headers, payload: body });
    expect((await put(off, { breaker_enabled: false })).statusCode).toBe(200);
    await s.end(off, 'failed', 'failed', 'failed', 'failed', 'failed', 'failed');
    expect(await paused(off)).toBe(false);

    const strict = await s.campaign();
    expect((await put(strict, { failure_rate_threshold: 0.3, min_attempts: 10, window_seconds: 30 })).statusCode).toBe(200);
    await s.end(strict, 'failed', 'failed', 'finished', 'finished', 'finished', 'finished', 'finished', 'finished', 'finished');
    expect(await paused(strict)).toBe(false); // 9 attempts, under the minimum of 10
    await s.end(strict, 'failed');
    expect(await paused(strict)).toBe(true); // 3 of 10: exactly 0.3
    expect((await s.summary(strict)).paused_by).toMatchObject({ failures: 3, attempts: 10, window_seconds: 30, failure_rate_threshold: 0.3 });
  });
});
