import type { App } from '../../src/app.ts';
import type { Deps } from '../../src/deps.ts';
import type { VoiceProvider } from '../../src/voice/provider.ts';

/**
 * Latencies a benchmark records without touching the service's code: the events route's
 * requests (Fastify hooks) and the vendor adapters' startCall (wrapped as the registry
 * creates them). They explain a rate: under a cap, calls started per second is the cap over
 * how long each call holds its line, and these are the parts of that time.
 */
export interface Latencies {
  note(key: string, ms: number): void;
  /** Mean and 95th percentile of a key since the last take, then forgets it. */
  take(key: string): { n: number; mean: number; p95: number };
}

export function latencies(): Latencies {
  const byKey = new Map<string, number[]>();
  return {
    note: (key, ms) => void (byKey.get(key) ?? byKey.set(key, []).get(key)!).push(ms),
    take(key) {
      const v = (byKey.get(key) ?? []).sort((a, b) => a - b);
      byKey.delete(key);
      if (v.length === 0) return { n: 0, mean: 0, p95: 0 };
      return { n: v.length, mean: v.reduce((a, b) => a + b, 0) / v.length, p95: v[Math.floor(v.length * 0.95)]! };
    },
  };
}

const started = new WeakMap<object, number>();

/** Times every request whose path starts with `prefix`, as `route`. Call before listen. */
export function timeRoute(app: App, prefix: string, into: Latencies) {
  app.addHook('onRequest', async (request) => {
    if (request.url.startsWith(prefix)) started.set(request, performance.now());
  });
  app.addHook('onResponse', async (request) => {
    const t = started.get(request);
    if (t !== undefined) into.note('route', performance.now() - t);
  });
}

/** Times startCall of every adapter the registry hands out, as `startCall`. */
export function timeStartCalls(deps: Deps, into: Latencies) {
  const forRoute = deps.voices.forRoute.bind(deps.voices);
  const wrapped = new WeakSet<VoiceProvider>();
  deps.voices.forRoute = async (route) => {
    const provider = await forRoute(route);
    if (!wrapped.has(provider)) {
      wrapped.add(provider);
      const startCall = provider.startCall.bind(provider);
      provider.startCall = async (request) => {
        const t = performance.now();
        try {
          return await startCall(request);
        } finally {
          into.note('startCall', performance.now() - t);
        }
      };
    }
    return provider;
  };
}
