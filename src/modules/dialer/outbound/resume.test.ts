import { afterEach, describe, expect, it } from 'vitest';
import { SimProvider } from '../../../voice/providers/sim.ts';
import { webhookSecret } from '../../../voice/signature.ts';
import { resumeInterruptedCalls } from './resume.ts';
import { connectProviderEvents } from '../call-events/provider-events.ts';
import { dialerHarness, usNumber, type DialerHarness } from '../../../../test/helpers/dialer-harness.ts';

/**
 * A restart while simulated calls are in flight: the new process's simulator takes them up again
 * from what the database holds, so they end as planned and no contact loses an attempt to a
 * restart. Before, the reconciler ended each of them `failed` ("no end event received").
 */
let h: DialerHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** A fresh simulator on the same app, as a restarted process has: it knows none of the calls. */
function restartSimulator(harness: DialerHarness): SimProvider {
  harness.sim.close();
  const sim = new SimProvider({ secret: webhookSecret(harness.t.config), clock: harness.clock, timeScale: 1, seed: 7 });
  // Its events reach the events service as a restarted process's would.
  connectProviderEvents({ ...harness.t.deps, voice: sim });
  return sim;
}

describe('calls in flight at a restart', () => {
  it('end with the outcome the simulator planned for them, each attempt counted once', async () => {
    h = await dialerHarness();
    const campaign = await h.campaign({ max_call_attempts: 3 });
    const ids = await h.contacts(campaign, Array.from({ length: 6 }, usNumber));
    await h.enqueue(campaign);
    expect(await h.round(campaign)).toBe(6);
    await h.advance(1_000); // ringing delivered, then the process stops
    const sim = restartSimulator(h);

    // What an uninterrupted run of the same calls ends with (same seed, same call ids).
    const reference = new SimProvider({ secret: 'unused-secret-0123456789', clock: h.clock, timeScale: 1, seed: 7 });
    const calls = await h.t.deps.db.selectFrom('calls').selectAll().where('campaign_id', '=', campaign).orderBy('id').execute();
    expect(calls.every((c) => c.status === 'in progress')).toBe(true);

    // The restarted process dials through the new simulator; the app's routes only read events.
    expect(await resumeInterruptedCalls({ ...h.t.deps, voice: sim })).toBe(6);
    h.clock.advance(700_000); // past the longest simulated call
    await sim.pump();

    for (const call of calls) {
      const after = await h.t.deps.db.selectFrom('calls').selectAll().where('id', '=', call.id).executeTakeFirstOrThrow();
      await reference.resumeCall({ callId: call.id, from: call.from_number, to: call.to_number!, campaignId: campaign, prompt: null, contactData: {}, direction: 'outbound' }, call.start_time!);
      const planned = await reference.fetchCall(`sim-${call.id}`);
      if (planned === null) continue; // a call the simulated vendor loses stays the reconciler's
      expect(planned.state).toBe('ended');
      expect(after.status, `call ${call.id}`).toBe(planned.state === 'ended' ? planned.event.status : 'in progress');
      expect(String((after.call_data as Record<string, unknown> | null)?.ended_reason ?? '')).not.toMatch(/no end event/);
    }
    for (const id of ids) expect((await h.contact(id)).calls_attempts).toBe(1);
    reference.close();
  });

  it('is left to the reconciler when the provider keeps no calls in the process', async () => {
    h = await dialerHarness();
    const campaign = await h.campaign();
    await h.contacts(campaign, [usNumber()]);
    await h.enqueue(campaign);
    await h.round(campaign);
    const vendorLike = Object.assign(Object.create(h.sim), { resumeCall: undefined });
    expect(await resumeInterruptedCalls({ ...h.t.deps, voice: vendorLike })).toBe(0);
  });
});
