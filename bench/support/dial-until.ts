import type { Deps } from '../../src/deps.ts';
import { connectProviderEvents } from '../../src/modules/dialer/call-events/provider-events.ts';
import { dialDueContacts } from '../../src/modules/dialer/outbound/outbound.service.ts';
import type { SimProvider } from '../../src/voice/providers/sim.ts';

/**
 * The dialer's rounds in `workers` parallel loops until `target` calls started (or nothing is
 * due three times running), with `sim` answering at once and its events applied in-process, as
 * the benchmarks of the dialer's throughput drive it. The simulator's last events are applied
 * and it is closed before the answer: the rate is of calls started, per second of wall time.
 */
export async function dialUntil(deps: Deps, sim: SimProvider, input: { target: number; workers: number; batch: number }): Promise<{ started: number; seconds: number }> {
  deps.voice = sim;
  connectProviderEvents(deps);
  let started = 0;
  const t0 = performance.now();
  await Promise.all(Array.from({ length: input.workers }, async () => {
    let idle = 0;
    while (idle < 3 && started < input.target) {
      const r = await dialDueContacts({ deps, batchSize: input.batch });
      started += r.started;
      if (r.claimed === 0) {
        idle++;
        await sim.pump();
        await new Promise((resolve) => setTimeout(resolve, 5));
      } else idle = 0;
    }
  }));
  const seconds = (performance.now() - t0) / 1000;
  for (let i = 0; i < 100 && sim.pendingCount() > 0; i++) await sim.pump();
  sim.close();
  return { started, seconds };
}
