import type { CallStatus } from 'twilio/lib/rest/api/v2010/account/call.js';
import type { Clock } from '../../../shared/clock.ts';
import type { CallControls, CallEvent, FetchedCall, InboundCallRequest, StartCallRequest, VendorAnswer, VoiceProvider, WebhookInput } from '../../provider.ts';
import { CallNotLiveError, VoiceProviderError } from '../../provider.ts';
import type { Route } from '../../registry.ts';
import type { VendorCredentials } from '../../vendor-credentials.ts';
import { callIdFromUrl, isMachine, parseTwilioCallback, TWILIO_OUTCOMES } from './twilio-events.ts';
import { buildCreateCall, TWILIO_DEFAULT_MAX_DURATION_SEC } from './twilio-requests.ts';
import { verifyTwilioSignature } from './twilio-signature.ts';
import { dialTwiml, rejectTwiml, relayTwiml } from './twilio-twiml.ts';
import { twilioCallUrls } from './twilio-urls.ts';
import type { TwilioErrorBody } from '../../../shared/twilio-error-body.ts';

/** The call resource as Twilio's JSON has it (the SDK's CallResource is not exported). */
export interface TwilioCallJson {
  sid: string;
  status: CallStatus;
  duration: string | null;
  price: string | null;
  price_unit: string | null;
  answered_by: string | null;
}

const DEFAULT_TIMEOUT_MS = 10_000;

/**
 * Calls through Twilio with this service's own agent: Twilio dials, fetches the call's TwiML here
 * (a ConversationRelay connect), turns speech into text on our socket and our text into speech.
 * Plain fetch with Basic auth: Calls.json takes a form. No retries here: the dialer decides (a
 * 429 gives the attempt back). docs/voice-providers.md has the protocol and the outcome table.
 */
export class TwilioProvider implements VoiceProvider {
  readonly name = 'twilio';
  readonly runsConversation = true;
  readonly capabilities = { reconcileAfterMs: (TWILIO_DEFAULT_MAX_DURATION_SEC + 120) * 1000 };
  readonly pacing;
  readonly defaultFrom: string | null;
  readonly credentials: VendorCredentials;
  readonly route: Route;
  private readonly clock: Clock;
  private readonly publicBaseUrl: string | null;

  constructor(options: { credentials: VendorCredentials; clock: Clock; publicBaseUrl: string | null }) {
    this.credentials = options.credentials;
    this.clock = options.clock;
    this.publicBaseUrl = options.publicBaseUrl;
    this.route = { provider: 'twilio', connectionId: options.credentials.connectionId };
    this.pacing = { maxConcurrent: options.credentials.maxConcurrent, callsPerSecond: options.credentials.callsPerSecond };
    this.defaultFrom = options.credentials.fromNumber;
  }

  /** The URLs of one call (or of an inbound call not yet recorded, `null`). */
  urls(callId: number | null) {
    if (!this.publicBaseUrl) throw new VoiceProviderError('rejected', 'Twilio needs PUBLIC_BASE_URL: Twilio fetches the call\'s TwiML and opens its conversation socket there', false);
    return twilioCallUrls(this.publicBaseUrl, this.route, callId);
  }

  async startCall(req: StartCallRequest, options: { signal?: AbortSignal } = {}): Promise<{ providerCallId: string }> {
    const from = req.from ?? this.credentials.fromNumber;
    if (!from) throw new VoiceProviderError('rejected', 'Twilio needs a number to call from: give the campaign a phone number, or set TWILIO_FROM_NUMBER (or the connection\'s from_number)', false);
    const res = await this.request('POST', '/Calls.json', buildCreateCall(req, from, this.urls(req.callId)), options.signal);
    const body = (await res.json().catch(() => ({}))) as Partial<TwilioCallJson> & TwilioErrorBody;
    if (res.ok && body.sid) return { providerCallId: body.sid };
    throw refusal(res, body);
  }

  verifyWebhook(input: WebhookInput): boolean {
    if (!input.url) return false;
    return verifyTwilioSignature(this.credentials.apiKey, input.headers['x-twilio-signature'], input.url, formOf(input));
  }

  /** The relay socket's handshake: Twilio signs its URL alone (ws:// or wss://, as the TwiML gave it). */
  verifyHandshake(url: string, signature: string | string[] | undefined): boolean {
    return verifyTwilioSignature(this.credentials.apiKey, signature, url);
  }

  parseWebhook(input: WebhookInput): CallEvent[] {
    return parseTwilioCallback(formOf(input), callIdFromUrl(input.url), this.clock.now());
  }

  /** A TwiML request for a call we did not place: a call to one of the account's numbers. */
  parseInbound(input: WebhookInput): InboundCallRequest | null {
    if (!input.url || callIdFromUrl(input.url) !== null || !new URL(input.url).pathname.endsWith('/twiml')) return null;
    const form = formOf(input);
    const sid = form.get('CallSid');
    const from = form.get('From');
    const to = form.get('To');
    if (!sid || !from || !to) throw new TypeError('a Twilio voice request without CallSid, From or To');
    return { providerCallId: sid, from, to, toProviderNumberId: null };
  }

  answerInbound(_request: InboundCallRequest, call: StartCallRequest | null): VendorAnswer {
    return { statusCode: 200, body: call ? relayTwiml(this.urls(call.callId), call.assistant) : rejectTwiml() };
  }

  async hangup(providerCallId: string): Promise<void> {
    await this.updateCall(providerCallId, new URLSearchParams({ Status: 'completed' }));
  }

  /**
   * An operator's controls are updates of the live call: `Status=completed` hangs up; new TwiML
   * (a <Dial>) ends the relay session and connects the caller to the number. A whisper needs no
   * request: our agent reads it before its next turn.
   */
  readonly controls: CallControls = {
    end: (sid) => this.liveUpdate(sid, new URLSearchParams({ Status: 'completed' })),
    transfer: (sid, phoneNumber) => this.liveUpdate(sid, new URLSearchParams({ Twiml: dialTwiml(phoneNumber) })),
  };

  private async liveUpdate(sid: string, form: URLSearchParams): Promise<void> {
    try {
      await this.updateCall(sid, form);
    } catch (error) {
      // 21220: "Call is not in-progress. Cannot redirect."; 20404: no such call.
      if (error instanceof VoiceProviderError && /\((21220|20404)\)/.test(error.message)) throw new CallNotLiveError(error.message);
      throw error;
    }
  }

  /** Replaces what a live call does (a voicemail message after the beep, then hang up). */
  async updateCall(providerCallId: string, form: URLSearchParams): Promise<void> {
    const res = await this.request('POST', `/Calls/${encodeURIComponent(providerCallId)}.json`, form);
    if (!res.ok) throw refusal(res, (await res.json().catch(() => ({}))) as TwilioErrorBody);
  }

  /**
   * Forks the call's audio, both tracks, to a WebSocket of ours (a Media Stream: what
   * `<Start><Stream>` starts, asked for through the API while the call runs). Named, so it is
   * stopped by its name.
   */
  async startStream(providerCallId: string, url: string, name: string): Promise<void> {
    const form = new URLSearchParams({ Url: url, Track: 'both_tracks', Name: name });
    const res = await this.request('POST', `/Calls/${encodeURIComponent(providerCallId)}/Streams.json`, form);
    if (!res.ok) throw refusal(res, (await res.json().catch(() => ({}))) as TwilioErrorBody);
  }

  /** Twilio's call Recordings API: the recording of a call in progress, its callback to our events route. */
  async startRecording(providerCallId: string, callId: number): Promise<void> {
    const form = new URLSearchParams({ RecordingStatusCallback: this.urls(callId).events, RecordingStatusCallbackMethod: 'POST', RecordingStatusCallbackEvent: 'completed' });
    const res = await this.request('POST', `/Calls/${encodeURIComponent(providerCallId)}/Recordings.json`, form);
    if (!res.ok) throw refusal(res, (await res.json().catch(() => ({}))) as TwilioErrorBody);
  }

  async stopStream(providerCallId: string, name: string): Promise<void> {
    const res = await this.request('POST', `/Calls/${encodeURIComponent(providerCallId)}/Streams/${encodeURIComponent(name)}.json`, new URLSearchParams({ Status: 'stopped' }));
    if (!res.ok && res.status !== 404) throw refusal(res, (await res.json().catch(() => ({}))) as TwilioErrorBody);
  }

  async getCall(providerCallId: string): Promise<TwilioCallJson | null> {
    const res = await this.request('GET', `/Calls/${encodeURIComponent(providerCallId)}.json`);
    if (res.status === 404) return null;
    if (!res.ok) throw refusal(res, (await res.json().catch(() => ({}))) as TwilioErrorBody);
    return (await res.json()) as TwilioCallJson;
  }

  async fetchCall(providerCallId: string, callId: number): Promise<FetchedCall> {
    const call = await this.getCall(providerCallId);
    if (!call) return null;
    if (!(call.status in TWILIO_OUTCOMES)) return { state: 'in progress' };
    const form = new URLSearchParams({ CallSid: call.sid, CallStatus: call.status, CallDuration: call.duration ?? '0' });
    if (call.answered_by) form.set('AnsweredBy', call.answered_by);
    const [event] = parseTwilioCallback(form, callId, this.clock.now());
    return event ? { state: 'ended', event: { ...event, eventId: `twilio-reconcile-${call.sid}`, ...priceOf(call) } } : { state: 'in progress' };
  }

  /** A status callback carries no price: the call resource has it once the call is over. */
  async settleEvents(events: CallEvent[]): Promise<CallEvent[]> {
    return Promise.all(events.map(async (event) => {
      if (event.type !== 'ended' || event.cost !== undefined) return event;
      const call = await this.getCall(event.providerCallId).catch(() => null);
      if (!call) return event;
      return { ...event, ...priceOf(call), ...(isMachine(call.answered_by) && event.status === 'finished' ? { status: 'voicemail' as const } : {}) };
    }));
  }

  private async request(method: 'GET' | 'POST', path: string, form?: URLSearchParams, signal?: AbortSignal): Promise<Response> {
    const { accountSid, apiKey, baseUrl } = this.credentials;
    const timeout = AbortSignal.timeout(DEFAULT_TIMEOUT_MS);
    try {
      return await fetch(`${baseUrl.replace(/\/+$/, '')}/2010-04-01/Accounts/${accountSid}${path}`, {
        method,
        headers: {
          authorization: `Basic ${Buffer.from(`${accountSid}:${apiKey}`).toString('base64')}`,
          accept: 'application/json',
          ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
        },
        body: form?.toString(),
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      });
    } catch (error) {
      throw new VoiceProviderError('unavailable', `Twilio unreachable: ${(error as Error).message}`, true);
    }
  }
}

export function formOf(input: WebhookInput): URLSearchParams {
  return new URLSearchParams(input.rawBody);
}

/** Twilio's price is negative (money spent) in price_unit; ours is the positive amount. */
function priceOf(call: TwilioCallJson): { cost?: number } {
  const price = call.price === null ? NaN : Math.abs(Number(call.price));
  return Number.isFinite(price) ? { cost: price } : {};
}

/** Twilio's error codes (https://www.twilio.com/docs/api/errors) as the dialer's refusal kinds. */
function refusal(res: Response, body: TwilioErrorBody): VoiceProviderError {
  const what = `Twilio ${res.status}${body.code ? ` (${body.code})` : ''}: ${body.message ?? res.statusText}`;
  const retryAfter = Number(res.headers.get('retry-after'));
  if (res.status === 429 || body.code === 20429) return new VoiceProviderError('rate_limited', what, true, Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : 1000);
  if (res.status === 401 || body.code === 20003) return new VoiceProviderError('unauthorized', what, false);
  if (body.code === 21211 || body.code === 21214 || body.code === 21217 || body.code === 13224) return new VoiceProviderError('invalid_number', what, false);
  if (body.code === 21215 || body.code === 21216 || body.code === 21610) return new VoiceProviderError('rejected', what, false);
  if (body.code === 20005 || body.code === 10001) return new VoiceProviderError('insufficient_funds', what, false);
  if (res.status >= 500) return new VoiceProviderError('unavailable', what, true);
  return new VoiceProviderError('rejected', what, false);
}
