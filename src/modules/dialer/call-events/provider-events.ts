import type { Deps } from '../../../deps.ts';
import type { EventDelivery, WebhookInput } from '../../../voice/provider.ts';
import { applyCallEvents } from './call-events.service.ts';

export type EventsAnswer = { statusCode: 200; body: { received: number; applied: number; duplicates: number; unknown_calls: number } } | { statusCode: 401 | 404 | 400; body: { detail: string } };

/** The events route's work, callable without HTTP (the worker process delivers the simulator's events this way). */
export async function handleProviderEvents({ deps, provider, input }: { deps: Deps; provider: string; input: WebhookInput }): Promise<EventsAnswer> {
  if (provider !== deps.voice.name) return { statusCode: 404, body: { detail: `Voice provider '${provider}' is not configured` } };
  if (!deps.voice.verifyWebhook(input)) return { statusCode: 401, body: { detail: 'Invalid signature' } };
  let events;
  try {
    events = deps.voice.parseWebhook(input);
  } catch {
    return { statusCode: 400, body: { detail: 'Malformed event body' } };
  }
  const r = await applyCallEvents({ deps, provider, events });
  return { statusCode: 200, body: { received: events.length, applied: r.applied, duplicates: r.duplicates, unknown_calls: r.unknownCalls } };
}

/** Delivery straight into this process (no HTTP): the fallback when no server listens here. */
export function inProcessDelivery(deps: Deps): EventDelivery {
  return async ({ path, body, headers }) => {
    const provider = path.split('/').at(-2)!;
    const answer = await handleProviderEvents({ deps, provider, input: { rawBody: body, headers } });
    if (answer.statusCode !== 200) throw new Error(`event delivery answered ${answer.statusCode}`);
  };
}

/** Delivery over real HTTP to the service's own listening address. */
export function httpDelivery(baseUrl: string): EventDelivery {
  return async ({ path, body, headers }) => {
    const res = await fetch(new URL(path, baseUrl), { method: 'POST', body, headers, signal: AbortSignal.timeout(10_000) });
    await res.arrayBuffer();
    if (!res.ok) throw new Error(`event delivery answered ${res.status}`);
  };
}

const attached = new WeakSet<object>();

/** Gives the provider a way to reach our events route unless something already did. */
export function ensureDelivery(deps: Deps) {
  if (!deps.voice.setDelivery || attached.has(deps.voice)) return;
  deps.voice.setDelivery(inProcessDelivery(deps));
  attached.add(deps.voice);
}

export function markDeliveryAttached(provider: object) {
  attached.add(provider);
}
