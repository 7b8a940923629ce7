import type { Vapi } from '@vapi-ai/server-sdk';
import type { Clock } from '../../../shared/clock.ts';
import type { CallControls, CallEvent, FetchedCall, InboundCallRequest, LiveAudioSocket, StartCallRequest, VendorAnswer, VoiceProvider, WebhookInput } from '../../provider.ts';
import { CallNotLiveError, VoiceProviderError } from '../../provider.ts';
import type { VendorCredentials } from '../../vendor-credentials.ts';
import { callIdOf, callRecordEvent, parseAssistantRequest, parseVapiMessage } from './vapi-events.ts';
import { buildCallAssistant, buildCreateCall, VAPI_DEFAULT_MAX_DURATION_SEC } from './vapi-requests.ts';
import { verifyVapiRequest } from './vapi-signature.ts';
import { buildByoNumber, buildSipCredential } from './vapi-sip.ts';
import type { SipNumbers } from '../../provider.ts';

/**
 * Vapi (https://docs.vapi.ai) over plain fetch, typed with the official SDK's types. Not the SDK
 * client: it retries 408/429/5xx by default, and a retried POST /call after a 5xx or timeout may
 * place a second call; with plain fetch every request is sent exactly once and the dialer decides
 * (findCall before a retry). docs/voice-providers.md has the whole decision.
 */
export interface VapiProviderOptions {
  credentials: VendorCredentials;
  clock: Clock;
  /** Real ms after which a call without its end is asked about (default: Vapi's maximum call + a margin). */
  reconcileAfterMs?: number;
  /** Per request; Vapi answers POST /call in well under a second. */
  timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 10_000;
/** How far back findCall looks: a retry happens minutes after the lost attempt, never days. */
const FIND_WINDOW_MS = 6 * 3600_000;
const FIND_LIMIT = 1000;

interface VapiErrorBody {
  message?: string | string[];
  error?: string;
  statusCode?: number;
}

export class VapiProvider implements VoiceProvider {
  readonly name = 'vapi';
  readonly capabilities;
  readonly pacing;
  private readonly credentials: VendorCredentials;
  private readonly clock: Clock;
  private readonly timeoutMs: number;

  constructor(options: VapiProviderOptions) {
    this.credentials = options.credentials;
    this.clock = options.clock;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    // A call lasts at most maxDurationSeconds (ours: 10 min) plus ringing; the report comes within seconds.
    this.capabilities = { reconcileAfterMs: options.reconcileAfterMs ?? (VAPI_DEFAULT_MAX_DURATION_SEC + 120) * 1000 };
    this.pacing = { maxConcurrent: options.credentials.maxConcurrent, callsPerSecond: options.credentials.callsPerSecond };
  }

  async startCall(req: StartCallRequest, options: { signal?: AbortSignal } = {}): Promise<{ providerCallId: string }> {
    const phoneNumberId = req.fromProviderNumberId ?? this.credentials.phoneNumberId;
    if (!phoneNumberId) {
      throw new VoiceProviderError('rejected', 'Vapi needs a phoneNumberId to call from: set the phone number\'s provider_number_id or VAPI_PHONE_NUMBER_ID (or the connection\'s phone number id)', false);
    }
    const res = await this.request('POST', '/call', buildCreateCall(req, this.credentials, phoneNumberId), options.signal);
    const body = (await res.json().catch(() => ({}))) as Partial<Vapi.Call> & VapiErrorBody & { subscriptionLimits?: { concurrencyBlocked?: boolean } };
    if (res.ok) {
      if (body.subscriptionLimits?.concurrencyBlocked) throw new VoiceProviderError('rate_limited', 'Vapi: concurrency limit reached (concurrencyBlocked)', true, retryAfterMs(res));
      if (!body.id) throw new Error(`Vapi POST /call answered ${res.status} without a call id`);
      return { providerCallId: body.id };
    }
    throw refusal(res, body);
  }

  async findCall(callId: number): Promise<string | null> {
    const since = new Date(this.clock.now().getTime() - FIND_WINDOW_MS).toISOString();
    const res = await this.request('GET', `/call?createdAtGt=${encodeURIComponent(since)}&limit=${FIND_LIMIT}`);
    if (!res.ok) throw refusal(res, (await res.json().catch(() => ({}))) as VapiErrorBody);
    const calls = (await res.json()) as Vapi.Call[];
    return calls.find((c) => callIdOf(c) === callId)?.id ?? null;
  }

  /** `callId` fills in for a call record whose metadata lost our id (an assistant changed at Vapi). */
  async fetchCall(providerCallId: string, callId?: number): Promise<FetchedCall> {
    const res = await this.request('GET', `/call/${encodeURIComponent(providerCallId)}`);
    if (res.status === 404) return null;
    if (!res.ok) throw refusal(res, (await res.json().catch(() => ({}))) as VapiErrorBody);
    const event = callRecordEvent((await res.json()) as Vapi.Call, this.clock.now());
    if (!event) return { state: 'in progress' };
    return { state: 'ended', event: { ...event, callId: event.callId ?? callId ?? null } };
  }

  /**
   * Vapi has no hang-up endpoint (DELETE /call/{id} deletes the record); a live call is ended
   * through its control URL. Best effort: a call already over, or unreachable, is left alone.
   */
  async hangup(providerCallId: string): Promise<void> {
    try {
      const res = await this.request('GET', `/call/${encodeURIComponent(providerCallId)}`);
      if (!res.ok) return;
      const call = (await res.json()) as Vapi.Call;
      if (call.status === 'ended' || !call.monitor?.controlUrl) return;
      await fetch(call.monitor.controlUrl, {
        method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ type: 'end-call' }),
        signal: AbortSignal.timeout(this.timeoutMs), redirect: 'error',
      });
    } catch {
      // The call ends anyway at maxDurationSeconds; the reconciler records it.
    }
  }

  /**
   * An operator's controls go to the call's control URL (monitor.controlUrl, given because every
   * call we create asks for monitorPlan.controlEnabled), with Vapi's live-call messages: end-call,
   * transfer to a number, and add-message (a system message, triggerResponseEnabled false so the
   * assistant does not speak it at once).
   */
  readonly controls: CallControls = {
    end: (id) => this.control(id, { type: 'end-call' }),
    transfer: (id, number) => this.control(id, { type: 'transfer', destination: { type: 'number', number } }),
    whisper: (id, content) => this.control(id, { type: 'add-message', message: { role: 'system', content }, triggerResponseEnabled: false }),
  };

  /**
   * The call's listen socket (monitor.listenUrl, given because every call asks for
   * monitorPlan.listenEnabled): Vapi's Call Listen sends raw PCM s16le at 16 kHz, the customer and
   * the assistant as two interleaved channels.
   */
  async liveAudio(providerCallId: string): Promise<LiveAudioSocket> {
    const call = await this.liveCall(providerCallId);
    const url = call.monitor?.listenUrl;
    if (!url) throw new VoiceProviderError('rejected', 'Vapi gave this call no listen URL (it was created without monitorPlan.listenEnabled)', false);
    if (!/^wss?:\/\//.test(url)) throw new VoiceProviderError('rejected', 'Vapi gave this call a listen URL that is not a WebSocket URL', false);
    return { url, rate: 16_000, channels: 2 };
  }

  /** Vapi's record of a call that is still live, else CallNotLiveError. */
  private async liveCall(providerCallId: string): Promise<Vapi.Call> {
    const res = await this.request('GET', `/call/${encodeURIComponent(providerCallId)}`);
    if (res.status === 404) throw new CallNotLiveError('Vapi has no record of this call');
    if (!res.ok) throw refusal(res, (await res.json().catch(() => ({}))) as VapiErrorBody);
    const call = (await res.json()) as Vapi.Call;
    if (call.status === 'ended') throw new CallNotLiveError(`Vapi says the call has ended (${call.endedReason ?? 'no reason given'})`);
    return call;
  }

  private async control(providerCallId: string, message: Vapi.ClientInboundMessageMessage): Promise<void> {
    const call = await this.liveCall(providerCallId);
    if (!call.monitor?.controlUrl) throw new VoiceProviderError('rejected', 'Vapi gave this call no control URL (it was created without monitorPlan.controlEnabled)', false);
    let sent: Response;
    try {
      sent = await fetch(call.monitor.controlUrl, {
        method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(message),
        signal: AbortSignal.timeout(this.timeoutMs), redirect: 'error',
      });
    } catch (error) {
      throw new VoiceProviderError('unavailable', `Vapi's control URL did not answer: ${(error as Error).message}`, true);
    }
    if (!sent.ok) throw refusal(sent, (await sent.json().catch(() => ({}))) as VapiErrorBody);
  }

  /**
   * A trunk's caller ID as Vapi needs it (issue 29): a byo-sip-trunk credential (POST /credential)
   * and the BYO number bound to it (POST /phone-number); calls then name the number's id. Made once
   * per trunk and number by the dialer (modules/sip-trunks/vendor-numbers.ts).
   */
  readonly sipNumbers: SipNumbers = {
    provision: async (route, from, previous) => {
      const credential = await this.send<Vapi.ByoSipTrunkCredential>('POST', '/credential', buildSipCredential(route));
      // A changed trunk: the number Vapi already has moves to the new credential.
      const number = previous
        ? await this.send<Vapi.ByoPhoneNumber>('PATCH', `/phone-number/${encodeURIComponent(previous.numberId)}`, { credentialId: credential.id })
        : await this.send<Vapi.ByoPhoneNumber>('POST', '/phone-number', buildByoNumber(from, credential.id));
      return { credentialId: credential.id, numberId: number.id };
    },
  };

  private async send<T extends { id: string }>(method: 'POST' | 'PATCH', path: string, body: unknown): Promise<T> {
    const res = await this.request(method, path, body);
    const answer = (await res.json().catch(() => ({}))) as Partial<T> & VapiErrorBody;
    if (!res.ok) {
      // The trunk's settings were refused, not the contact's number: the call is refused as such.
      const error = refusal(res, answer);
      throw error instanceof VoiceProviderError && error.code === 'invalid_number' ? new VoiceProviderError('rejected', `${error.message} (${method} ${path})`, false) : error;
    }
    if (!answer.id) throw new Error(`Vapi ${method} ${path} answered ${res.status} without an id`);
    return answer as T;
  }

  verifyWebhook(input: WebhookInput): boolean {
    return verifyVapiRequest({ secret: this.credentials.webhookSecret, headers: input.headers, rawBody: input.rawBody, now: this.clock.now() });
  }

  parseWebhook(input: WebhookInput): CallEvent[] {
    return parseVapiMessage(input.rawBody, this.clock.now());
  }

  parseInbound(input: WebhookInput): InboundCallRequest | null {
    return parseAssistantRequest(input.rawBody);
  }

  /** Vapi expects 200 either way; `{ error }` makes it end the call (assistant-request-returned-error). */
  answerInbound(_request: InboundCallRequest, call: StartCallRequest | null): VendorAnswer {
    if (!call) return { statusCode: 200, body: { error: 'This number is not taking calls right now.' } };
    const answer: Vapi.ServerMessageResponseAssistantRequest = buildCallAssistant(call, this.credentials);
    return { statusCode: 200, body: answer };
  }

  private async request(method: string, path: string, body?: unknown, signal?: AbortSignal): Promise<Response> {
    const timeout = AbortSignal.timeout(this.timeoutMs);
    return fetch(`${this.credentials.baseUrl.replace(/\/+$/, '')}${path}`, {
      method,
      headers: { authorization: `Bearer ${this.credentials.apiKey}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      redirect: 'error',
    });
  }
}

function retryAfterMs(res: Response): number | undefined {
  const value = res.headers.get('retry-after');
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const at = Date.parse(value);
  return Number.isFinite(at) ? Math.max(0, at - Date.now()) : undefined;
}

/** Vapi's NestJS error bodies: `{ message: string | string[], error, statusCode }`. */
function refusal(res: Response, body: VapiErrorBody): Error {
  const text = (Array.isArray(body.message) ? body.message.join('; ') : body.message ?? body.error ?? '').slice(0, 300);
  const say = `Vapi ${res.status}: ${text || res.statusText}`;
  if (res.status >= 500) return new Error(`${say} (outcome unknown)`);
  if (res.status === 429 || /concurrenc/i.test(text)) return new VoiceProviderError('rate_limited', say, true, retryAfterMs(res));
  if (res.status === 401 || res.status === 403) return new VoiceProviderError('unauthorized', say, false);
  if (res.status === 402 || /credit|wallet|insufficient|billing|payment/i.test(text)) return new VoiceProviderError('insufficient_funds', say, false);
  if (res.status === 400 && /customer|number|e\.?164/i.test(text) && !/phoneNumberId/.test(text)) return new VoiceProviderError('invalid_number', say, false);
  return new VoiceProviderError('rejected', say, false);
}
