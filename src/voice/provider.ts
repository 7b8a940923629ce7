/**
 * The boundary between the dialer and a voice vendor. The dialer writes the call row
 * first and passes our call id as the idempotency key, so a retried startCall can
 * never place a second call. Outcomes come back as signed webhook events, which
 * every adapter turns into CallEvents with parseWebhook (pure).
 */
export const TERMINAL_CALL_STATUSES = [
  'finished', 'failed', 'busy_or_rejected', 'invalid number', 'insufficient funds',
  'rejected', 'terminated', 'unavailable', 'voicemail', 'silence',
] as const;
export type TerminalCallStatus = (typeof TERMINAL_CALL_STATUSES)[number];
export const isTerminalCallStatus = (s: string): s is TerminalCallStatus => (TERMINAL_CALL_STATUSES as readonly string[]).includes(s);

export interface TranscriptTurn {
  role: 'assistant' | 'user';
  text: string;
}

export interface StartCallRequest {
  /** Our call id: the provider's idempotency key and the metadata echoed in its events. */
  callId: number;
  from: string | null;
  to: string;
  campaignId: number;
  prompt: string | null;
  contactData: Record<string, unknown>;
  direction: 'outbound' | 'inbound';
}

/** What a provider tells about a call; `type: 'ended'` carries the terminal status. */
export interface CallEvent {
  /** Unique per provider; a repeated id is ignored. */
  eventId: string;
  callId: number | null;
  providerCallId: string;
  type: 'ringing' | 'answered' | 'ended' | 'recording';
  at: Date;
  status?: TerminalCallStatus;
  durationSec?: number;
  cost?: number;
  transcript?: TranscriptTurn[];
  actionStatus?: 'transferred' | 'scheduled' | 'interested' | null;
  actionStatusReason?: string | null;
  endedBy?: 'HUMAN' | 'AI' | null;
  endedReason?: string;
  recordUrl?: string;
}

export interface WebhookInput {
  rawBody: string;
  headers: Record<string, string | string[] | undefined>;
}

/** What fetchCall knows: null when the provider has no record of the call. */
export type FetchedCall = { state: 'in progress' } | { state: 'ended'; event: CallEvent } | null;

export interface VoiceProvider {
  readonly name: string;
  readonly capabilities: {
    inboundSimulation: boolean;
    /** Real milliseconds after which a call without an end event is reconciled. */
    reconcileAfterMs: number;
  };
  startCall(req: StartCallRequest, options?: { signal?: AbortSignal }): Promise<{ providerCallId: string }>;
  verifyWebhook(input: WebhookInput): boolean;
  parseWebhook(input: WebhookInput): CallEvent[];
  hangup(providerCallId: string): Promise<void>;
  fetchCall?(providerCallId: string, callId: number): Promise<FetchedCall>;
  /**
   * Only for a provider whose calls live in this process (the simulator): takes up again a call
   * started at `startedAt` by a process that stopped, as if it had gone on meanwhile. A vendor's
   * calls go on at the vendor and report when they end, so vendors leave this out.
   */
  resumeCall?(req: StartCallRequest, startedAt: Date): Promise<void>;
  /**
   * Only for a provider whose calls live in this process (the simulator): where its signed
   * events go. Given once, when the process is assembled (connectProviderEvents in
   * modules/dialer/call-events/provider-events.ts); a vendor posts to the events route instead.
   */
  setDelivery?(deliver: EventDelivery | null): void;
  /** Stops timers; pending events are dropped (the reconciler recovers them). */
  close?(): void;
}

/** Hands over one signed event body, as a vendor would post it to POST /api/v1/voice/{provider}/events (`path`). */
export type EventDelivery = (req: { path: string; body: string; headers: Record<string, string> }) => Promise<void>;

export type VoiceErrorCode = 'rate_limited' | 'invalid_number' | 'insufficient_funds' | 'unavailable' | 'rejected' | 'unknown';

/** A provider's refusal; `retryable` says whether the same call may be tried again later. */
export class VoiceProviderError extends Error {
  constructor(readonly code: VoiceErrorCode, message: string, readonly retryable: boolean) {
    super(message);
  }
}
