import type { Deps } from '../../../deps.ts';
import type { EventDelivery, WebhookInput } from '../../../voice/provider.ts';
import { applyCallEvents } from './call-events.service.ts';

export type EventsAnswer = { statusCode: 200; body: { received: number; applied: number; duplicates: number; unknown_calls: number } } | { statusCode: 401 | 404 | 400; body: { detail: string } };

/**
 * A provider's signed events: verify the signature, parse, apply. The events route does this
 * for a vendor's requests; the simulator's events come here in-process (eventsServiceSink).
 */
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

/**
 * Where a provider whose calls live in this process (the simulator) sends its events: straight
 * to handleProviderEvents, signature check included, never over HTTP to this same process. A
 * refusal throws, so the provider retries as a vendor would.
 */
export function eventsServiceSink(deps: Deps): EventDelivery {
  return async ({ path, body, headers }) => {
    const provider = path.split('/').at(-2)!;
    const answer = await handleProviderEvents({ deps, provider, input: { rawBody: body, headers } });
    if (answer.statusCode !== 200) throw new Error(`event delivery answered ${answer.statusCode}`);
  };
}

/**
 * Decides, once, how provider events reach the events service: called where a process is
 * assembled (server.ts for `serve`, the `worker` command, test and bench harnesses), before
 * any call starts. A vendor posts to the events route instead and has no sink to set.
 */
export function connectProviderEvents(deps: Deps): void {
  deps.voice.setDelivery?.(eventsServiceSink(deps));
}
