import type { Deps } from '../../../deps.ts';
import type { CallEvent, EventDelivery, WebhookInput } from '../../../voice/provider.ts';
import { providerFor, VoiceNotConfiguredError, type Route } from '../../../voice/registry.ts';
import { answerVendorInbound } from '../inbound/vendor-inbound.ts';
import { applyCallEvents } from './call-events.service.ts';
import { scopeEventsToRoute } from './route-scope.ts';
import { withActionStatus } from './analysis-outcome.ts';
import { withLlmOptOut } from '../../compliance/opt-out/llm-opt-out.ts';
import { redactCallEvents } from '../../privacy/redaction-policy/redact-call-events.ts';

export type EventsAnswer =
  | { statusCode: 200; body: { received: number; applied: number; duplicates: number; unknown_calls: number } }
  | { statusCode: 401 | 404 | 400; body: { detail: string } }
  /** A vendor's own answer (an inbound call's assistant), sent as the adapter formatted it. */
  | { statusCode: number; body: unknown; vendor: true };

/**
 * A provider's signed request: verify it with the route's credentials (the environment's, or
 * the voice connection `?connection=` names), then answer an inbound call's assistant request
 * or apply the events to the calls of that same route (no other). The events route does this for a vendor's requests; the simulator's
 * events come here in-process (eventsServiceSink).
 */
export async function handleProviderEvents({ deps, provider: name, input, connectionId = null }: {
  deps: Deps;
  provider: string;
  input: WebhookInput;
  connectionId?: number | null;
}): Promise<EventsAnswer> {
  const route: Route = { provider: name, connectionId };
  let provider;
  try {
    provider = await providerFor(deps, route);
  } catch (error) {
    if (!(error instanceof VoiceNotConfiguredError)) throw error;
    return { statusCode: 404, body: { detail: `Voice provider '${name}'${connectionId === null ? '' : ` (connection ${connectionId})`} is not configured` } };
  }
  if (provider.name !== name) return { statusCode: 404, body: { detail: `Voice provider '${name}' is not configured` } };
  if (!provider.verifyWebhook(input)) return { statusCode: 401, body: { detail: 'Invalid signature' } };
  let events: CallEvent[];
  try {
    const inbound = provider.parseInbound?.(input) ?? null;
    if (inbound) {
      const answer = await answerVendorInbound(deps, provider, route, inbound);
      return { ...answer, vendor: true };
    }
    events = provider.parseWebhook(input);
  } catch (error) {
    if (error instanceof SyntaxError || error instanceof TypeError) return { statusCode: 400, body: { detail: 'Malformed event body' } };
    throw error;
  }
  // Only this route's calls, before anything reads or asks about them (route-scope.ts): another
  // route's call is answered as an unknown call is.
  const received = events.length;
  const scoped = await scopeEventsToRoute(deps.db, deps.config.VOICE_PROVIDER, route, events);
  // Redacted by each call's rule before anything reads them (the LLM's checks below included).
  events = await redactCallEvents(deps.db, scoped.events);
  if (provider.settleEvents) events = await provider.settleEvents(events);
  if (provider.runsConversation) events = await deps.completeAgentCallEnds(events);
  events = await withActionStatus(deps, events);
  events = await withLlmOptOut(deps, events);
  const r = await applyCallEvents({ deps, route, events });
  return { statusCode: 200, body: { received, applied: r.applied, duplicates: r.duplicates, unknown_calls: r.unknownCalls + scoped.foreign } };
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
