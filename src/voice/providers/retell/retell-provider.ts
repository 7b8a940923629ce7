import Retell, { APIError, NotFoundError } from 'retell-sdk';
import type { Clock } from '../../../shared/clock.ts';
import type { CallControls, CallEvent, FetchedCall, InboundCallRequest, StartCallRequest, VendorAnswer, VoiceProvider, WebhookInput } from '../../provider.ts';
import { CallNotLiveError, VoiceProviderError } from '../../provider.ts';
import type { VendorCredentials } from '../../vendor-credentials.ts';
import { callIdOf, endedEvent, parseRetellEvents, parseRetellInbound } from './retell-events.ts';
import { createPhoneCallBody, inboundAnswer } from './retell-requests.ts';
import { RETELL_SIGNATURE_HEADER, verifyRetell } from './retell-signature.ts';
import type { CallListParams, PhoneCallResponse } from './retell-types.ts';
import { buildImportNumber, buildUpdateNumber } from './retell-sip.ts';
import type { SipNumbers } from '../../provider.ts';

export const RETELL_DEFAULT_BASE_URL = 'https://api.retellai.com';
const REQUEST_TIMEOUT_MS = 10_000;
// Retell's default max_call_duration_ms (1 hour) plus a margin for the end event's delivery.
const DEFAULT_RECONCILE_AFTER_MS = 60 * 60_000 + 5 * 60_000;

export interface RetellProviderOptions {
  credentials: VendorCredentials;
  clock: Clock;
  reconcileAfterMs?: number;
}

/**
 * Retell voice provider, over retell-sdk's client (it runs on Node 20 and takes a base URL).
 * `maxRetries: 0`: the SDK would otherwise retry a create-phone-call that timed out and
 * might place a second call; the dialer retries instead, after findCall found nothing.
 */
export class RetellProvider implements VoiceProvider {
  readonly name = 'retell';
  readonly capabilities;
  readonly pacing;
  readonly defaultFrom: string | null;
  private readonly client: Retell;
  readonly controls: CallControls;

  constructor(private readonly options: RetellProviderOptions) {
    const { credentials } = options;
    this.capabilities = { reconcileAfterMs: options.reconcileAfterMs ?? DEFAULT_RECONCILE_AFTER_MS };
    this.pacing = { maxConcurrent: credentials.maxConcurrent, callsPerSecond: credentials.callsPerSecond };
    this.defaultFrom = credentials.fromNumber;
    // baseURL is always given: the SDK would read RETELL_BASE_URL from process.env otherwise.
    this.client = new Retell({ apiKey: credentials.apiKey, baseURL: credentials.baseUrl || RETELL_DEFAULT_BASE_URL, maxRetries: 0, timeout: REQUEST_TIMEOUT_MS });
    this.controls = retellControls(this.client);
  }

  async startCall(req: StartCallRequest, options: { signal?: AbortSignal } = {}): Promise<{ providerCallId: string }> {
    const body = createPhoneCallBody(req, this.options.credentials);
    try {
      const call = await this.client.call.createPhoneCall(body, { signal: options.signal ?? null });
      return { providerCallId: call.call_id };
    } catch (error) {
      throw mapError(error);
    }
  }

  /**
   * A trunk's caller ID imported into Retell with the trunk's termination URI and credentials
   * (issue 29); calls then go out from it (from_number). Made once per trunk and number by the
   * dialer (modules/sip-trunks/vendor-numbers.ts); a changed trunk, or a number Retell already
   * has, is updated in place (Retell keeps one record per number).
   */
  readonly sipNumbers: SipNumbers = {
    provision: async (route, from, previous) => {
      try {
        if (!previous) {
          try {
            await this.client.phoneNumber.import(buildImportNumber(route, from));
            return { credentialId: null, numberId: from };
          } catch (error) {
            if (!(error instanceof APIError && (error.status === 409 || (error.status === 400 && /already/i.test(retellMessage(error)))))) throw error;
          }
        }
        await this.client.phoneNumber.update(from, buildUpdateNumber(route));
        return { credentialId: null, numberId: from };
      } catch (error) {
        const mapped = mapError(error);
        // The trunk's settings were refused, not the contact's number.
        throw mapped instanceof VoiceProviderError && mapped.code === 'invalid_number' ? new VoiceProviderError('rejected', mapped.message, false) : mapped;
      }
    },
  };

  /** Lists Retell's calls whose metadata.call_id is ours (newest first) and checks each, in case a filter is ignored. */
  async findCall(callId: number): Promise<string | null> {
    const params: CallListParams = {
      filter_criteria: { metadata: [{ key: 'call_id', type: 'number', op: 'eq', value: callId }] },
      sort_order: 'descending',
      limit: 50,
    };
    try {
      const page = await this.client.call.list(params, { timeout: REQUEST_TIMEOUT_MS });
      const hit = page.items.find((c) => callIdOf(c) === callId);
      return hit ? hit.call_id : null;
    } catch (error) {
      throw mapError(error);
    }
  }

  verifyWebhook(input: WebhookInput): boolean {
    const header = input.headers[RETELL_SIGNATURE_HEADER];
    return verifyRetell(this.options.credentials.apiKey, input.rawBody, Array.isArray(header) ? header[0] : header, this.options.clock.now());
  }

  parseWebhook(input: WebhookInput): CallEvent[] {
    return parseRetellEvents(input.rawBody);
  }

  parseInbound(input: WebhookInput): InboundCallRequest | null {
    return parseRetellInbound(input.rawBody);
  }

  answerInbound(request: InboundCallRequest, call: StartCallRequest | null): VendorAnswer {
    return inboundAnswer(request, call, this.options.credentials);
  }

  async fetchCall(providerCallId: string, _callId?: number): Promise<FetchedCall> {
    let call: PhoneCallResponse;
    try {
      call = (await this.client.call.retrieve(providerCallId)) as PhoneCallResponse;
    } catch (error) {
      if (error instanceof NotFoundError) return null;
      throw mapError(error);
    }
    if (call.call_status === 'registered' || call.call_status === 'ongoing') return { state: 'in progress' };
    // ended, not_connected, error: the same event call_ended would have brought (same id, so a late delivery is a duplicate).
    return { state: 'ended', event: endedEvent(call, 'call_ended') };
  }

  /** POST /v2/stop-call/{id}; best effort: a call that already ended answers an error we ignore. */
  async hangup(providerCallId: string): Promise<void> {
    try {
      await this.client.call.stop(providerCallId);
    } catch {
      // The end (or its absence) is learnt from the events or the reconciler.
    }
  }
}

/**
 * An operator's controls, as far as Retell's API goes (retell-sdk 5.x): stop-call ends a call,
 * update-live-call's `call_control.additional_context` gives the agent context for its next
 * answers (Retell records it in the transcript with role "injected"). Retell has no API that
 * transfers a live call to a number (its agents transfer with their own transfer_call tool;
 * take-over-live only hands the call to a live-listen participant), so there is no `transfer`.
 */
function retellControls(client: Retell): CallControls {
  const refused = (error: unknown) => {
    // Retell answers 400 "Call is not ongoing." and 404 for a call that is over or unknown.
    if (error instanceof APIError && (error.status === 404 || (error.status === 400 && /ongoing/i.test(retellMessage(error))))) return new CallNotLiveError(`Retell: ${retellMessage(error)}`);
    return mapError(error);
  };
  return {
    end: async (id) => {
      await client.call.stop(id).catch((error: unknown) => { throw refused(error); });
    },
    whisper: async (id, message) => {
      await client.call.updateLive(id, { call_control: { additional_context: message } }).catch((error: unknown) => { throw refused(error); });
    },
  };
}

/** Retell's refusals as our codes; 5xx and network failures stay plain errors (the dialer's retry after findCall). */
export function mapError(error: unknown): Error {
  if (!(error instanceof APIError) || error.status === undefined) return error instanceof Error ? error : new Error(String(error));
  const status = error.status;
  const message = retellMessage(error);
  if (status === 429 || (status < 500 && /concurrency/i.test(message))) {
    const after = Number(error.headers?.get('retry-after'));
    return new VoiceProviderError('rate_limited', `Retell refused the call (${status}): ${message}`, true, Number.isFinite(after) && after > 0 ? after * 1000 : undefined);
  }
  if (status === 401 || status === 403) return new VoiceProviderError('unauthorized', `Retell refused the API key (${status}): ${message}`, false);
  if (status === 402) return new VoiceProviderError('insufficient_funds', `Retell: ${message}`, false);
  if (status === 400 && /to_number/i.test(message)) return new VoiceProviderError('invalid_number', `Retell: ${message}`, false);
  if (status >= 500) return new Error(`Retell answered ${status}: ${message}`);
  return new VoiceProviderError('rejected', `Retell refused the call (${status}): ${message}`, false);
}

/** Retell's error bodies are `{ status: 'error', message }`. */
function retellMessage(error: APIError): string {
  const body = error.error as { message?: unknown } | undefined;
  return typeof body?.message === 'string' ? body.message : error.message;
}
