import type { CallRecording } from './call-recording.ts';
import type { SipCallRoute } from './sip-codes.ts';
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

/**
 * Who talks on a call: the campaign's assistant (modules/assistants), with the contact's and
 * campaign's placeholders already filled. Null fields are left to the vendor's own assistant
 * (`providerAssistantId`) or the vendor's defaults.
 */
export interface CallAssistant {
  /** Our assistant's id; null for a campaign without one (the default provider and the campaign's prompt). */
  id: number | null;
  name: string | null;
  /** The vendor's own assistant (Vapi assistantId) or agent (Retell agent_id), when the assistant names one. */
  providerAssistantId: string | null;
  firstMessage: string | null;
  systemPrompt: string | null;
  voice: string | null;
  language: string | null;
  model: string | null;
  voicemail: { action: 'hang_up' | 'leave_message'; message: string | null };
  maxDurationSec: number | null;
  transferNumber: string | null;
}

export interface StartCallRequest {
  /** Our call id: the provider's idempotency key and the metadata echoed in its events. */
  callId: number;
  from: string | null;
  /** The vendor's id of the `from` number where the vendor dials by number id (Vapi phoneNumberId); null = the adapter's default. */
  fromProviderNumberId?: string | null;
  to: string;
  campaignId: number;
  /** The campaign's approved prompt, placeholders filled (the assistant's system prompt, when it has one, is in `assistant`). */
  prompt: string | null;
  contactData: Record<string, unknown>;
  direction: 'outbound' | 'inbound';
  assistant?: CallAssistant | null;
  /**
   * The values of every placeholder the call may use, flat (`contact.name`, `contact.phone_number`,
   * `campaign.title`...): what Retell calls dynamic variables.
   */
  variables?: Record<string, string>;
  /** Where the vendor must post this call's events (PUBLIC_BASE_URL + the events route); null = the vendor's configured URL. */
  eventsUrl?: string | null;
  /** How the call is recorded (privacy/recording-consent): absent = from the start, as always. */
  recording?: CallRecording | null;
  /** The customer's SIP trunk the call goes out through (campaign_sip, issue 29); absent = the vendor's own telephony. */
  sip?: SipCallRoute | null;
}

/** A vendor asking which assistant answers a call to one of the account's numbers (Vapi assistant-request, Retell call_inbound). */
export interface InboundCallRequest {
  providerCallId: string;
  from: string;
  to: string;
  /** The vendor's id of the called number, when it sends one (Vapi phoneNumberId). */
  toProviderNumberId: string | null;
}

/** An HTTP answer an adapter formats for its vendor. */
export interface VendorAnswer {
  statusCode: number;
  body: unknown;
}

/** What a provider tells about a call; `type: 'ended'` carries the terminal status. */
export interface CallEvent {
  /** Unique per provider; a repeated id is ignored. */
  eventId: string;
  callId: number | null;
  providerCallId: string;
  /** `turn`: one transcript turn as it is spoken (`turn` holds it); it changes nothing stored, the live stream shows it. */
  type: 'ringing' | 'answered' | 'turn' | 'ended' | 'recording';
  at: Date;
  turn?: TranscriptTurn;
  /**
   * The turn's place in the call's transcript (0 = first), for a vendor that sends the whole
   * transcript so far with each update (Retell): a turn already shown is not shown again.
   */
  turnSeq?: number;
  status?: TerminalCallStatus;
  durationSec?: number;
  /** In dollars (a vendor's cents are converted by its adapter). */
  cost?: number;
  transcript?: TranscriptTurn[];
  actionStatus?: 'transferred' | 'scheduled' | 'interested' | null;
  actionStatusReason?: string | null;
  endedBy?: 'HUMAN' | 'AI' | null;
  endedReason?: string;
  recordUrl?: string;
  /**
   * The vendor's post-call analysis, as it sent it (Vapi: `{ summary, structuredData, successEvaluation }`;
   * Retell: `call_analysis`). An assistant's action-status rules read dotted paths in it.
   */
  analysis?: Record<string, unknown>;
  /** The vendor asked for consent to record (Vapi's recording-consent plan): whether it was given. */
  recordingConsent?: boolean;
  /** The vendor ended the call without placing it (its concurrency fallback): the attempt is not counted. */
  refundAttempt?: boolean;
  /** Who found that the person asked not to be called again: the assistant itself, or the LLM's reading. */
  optOutBy?: 'assistant' | 'llm';
  /** The SIP final response of a call through a customer's trunk (sip-codes.ts), kept in call_data.sip_response_code. */
  sipCode?: number;
}

export interface WebhookInput {
  rawBody: string;
  headers: Record<string, string | string[] | undefined>;
  /** The URL the vendor requested, as it wrote it (PUBLIC_BASE_URL + path and query): Twilio signs it. */
  url?: string;
}

/** What fetchCall knows: null when the provider has no record of the call. */
export type FetchedCall = { state: 'in progress' } | { state: 'ended'; event: CallEvent } | null;

export interface VoiceProvider {
  readonly name: string;
  readonly capabilities: {
    /** Real milliseconds after which a call without an end event is reconciled. */
    reconcileAfterMs: number;
  };
  /**
   * The vendor's own limits for one set of credentials, held across processes by the dialer:
   * calls in progress at once (0 = none) and calls started per second (0 = none).
   */
  readonly pacing?: { maxConcurrent: number; callsPerSecond: number };
  /**
   * The number a call goes out from when its request names none (the route's own: TWILIO_FROM_NUMBER,
   * RETELL_FROM_NUMBER or the voice connection's from_number). The dialer records it on the call row;
   * absent for a vendor that picks its number itself (Vapi's phoneNumberId).
   */
  readonly defaultFrom?: string | null;
  startCall(req: StartCallRequest, options?: { signal?: AbortSignal }): Promise<{ providerCallId: string }>;
  verifyWebhook(input: WebhookInput): boolean;
  parseWebhook(input: WebhookInput): CallEvent[];
  hangup(providerCallId: string): Promise<void>;
  fetchCall?(providerCallId: string, callId: number): Promise<FetchedCall>;
  /**
   * The vendor's id of a call already placed for our call id, or null: asked before a startCall
   * is retried (after a timeout or a crash) so a retry never places a second call.
   */
  findCall?(callId: number): Promise<string | null>;
  /**
   * Pure: the inbound request in a verified webhook body, or null when the body is events.
   * The events route then picks the campaign and assistant and answers with answerInbound.
   */
  parseInbound?(input: WebhookInput): InboundCallRequest | null;
  /** The vendor's answer to an inbound request: the assistant for the call, or a refusal when `call` is null. */
  answerInbound?(request: InboundCallRequest, call: StartCallRequest | null): VendorAnswer;
  /**
   * Fills what a vendor's end event lacks from the vendor's own record (Twilio's status callback
   * carries no price: it is read from the call resource). Errors leave the events as they are.
   */
  settleEvents?(events: CallEvent[]): Promise<CallEvent[]>;
  /**
   * True when this service runs the conversation (our agent on Twilio): the transcript, outcome
   * and answering-machine result come from agent_conversations, not from the vendor.
   */
  readonly runsConversation?: boolean;
  /**
   * What an operator can do to a call in progress through the vendor (POST /api/v1/calls/{id}/end,
   * /transfer, /whisper). Each resolves once the vendor accepted; the call's end still arrives as
   * the vendor's own event. A vendor without `transfer` or `whisper` cannot do it on a live call.
   */
  readonly controls?: CallControls;
  /**
   * Where a call in progress can be heard: the vendor's listen socket (Vapi's monitor.listenUrl),
   * relayed by the service to an operator (GET /api/v1/live/calls/{id}/audio), never shown to a
   * browser. Absent where the vendor has none; our agent on Twilio forks its media stream instead.
   */
  liveAudio?(providerCallId: string): Promise<LiveAudioSocket>;
  /**
   * Starts recording a call in progress (our agent on Twilio, under after_disclosure or once the
   * person consented); the recording's link arrives as a recording event like any other.
   */
  startRecording?(providerCallId: string, callId: number): Promise<void>;
  /**
   * A vendor that places trunk calls only from a number it knows (Vapi: a BYO number bound to a
   * byo-sip-trunk credential; Retell: an imported number with its termination URI): makes that
   * number for a trunk's caller ID. The dialer (modules/sip-trunks/vendor-numbers.ts) remembers
   * what was made and asks again only when the trunk changed; absent where the vendor dials the
   * trunk's URI per call (Twilio, the simulator).
   */
  readonly sipNumbers?: SipNumbers;
  /** Stops timers; pending events are dropped (the reconciler recovers them). */
  close?(): void;
}

export interface SipVendorNumber {
  credentialId: string | null;
  numberId: string;
}

export interface SipNumbers {
  /**
   * Creates at the vendor what calls from `from` through this route need, or, given what was made
   * for an earlier version of the trunk (`previous`), points that number at the trunk as it is now
   * (vendors keep one record per number). `numberId` is what StartCallRequest.fromProviderNumberId
   * then carries (Vapi's phone number id; Retell's number). Throws VoiceProviderError when the
   * vendor refuses the settings.
   */
  provision(route: SipCallRoute, from: string, previous: SipVendorNumber | null): Promise<SipVendorNumber>;
}

export interface CallControls {
  /** Hangs up now. */
  end(providerCallId: string): Promise<void>;
  /** Hands the call to a person at `phoneNumber` (E.164); the AI leaves the call. */
  transfer?(providerCallId: string, phoneNumber: string): Promise<void>;
  /**
   * Gives the AI a system message it follows for the rest of the call, without making it speak at
   * once. Not needed where the service runs the conversation (runsConversation): our agent reads
   * the call's whispers from the database before each of its turns.
   */
  whisper?(providerCallId: string, message: string): Promise<void>;
}

/** A vendor's listen socket: binary WebSocket frames of raw PCM, 16-bit little-endian, interleaved channels. */
export interface LiveAudioSocket {
  url: string;
  rate: number;
  channels: number;
}

/** The vendor says the call is no longer live (or not held where it was asked): nothing to control. */
export class CallNotLiveError extends Error {}

/** Hands over one signed event body, as a vendor would post it to POST /api/v1/voice/{provider}/events (`path`). */
export type EventDelivery = (req: { path: string; body: string; headers: Record<string, string> }) => Promise<void>;

/**
 * What only a provider whose calls live in this process (the simulator) can do; no vendor has
 * these, so they are not part of VoiceProvider. The composition root wires them: server.ts and
 * the worker command give the delivery (connectProviderEvents), the dialer worker resumes calls
 * at start-up, and the simulated inbound route exists only with them.
 */
export interface InProcessCalls {
  /** Calls can be simulated arriving at one of an Inbound campaign's numbers (POST /api/v1/voice/sim/inbound). */
  readonly simulatesInbound: true;
  /**
   * Takes up again a call started at `startedAt` by a process that stopped, as if it had gone on
   * meanwhile. A vendor's calls go on at the vendor and report when they end.
   */
  resumeCall(req: StartCallRequest, startedAt: Date): Promise<void>;
  /**
   * Where its signed events go. Given once, when the process is assembled (connectProviderEvents
   * in modules/dialer/call-events/provider-events.ts); a vendor posts to the events route instead.
   */
  setDelivery(deliver: EventDelivery | null): void;
}

/**
 * The process's default provider (VOICE_PROVIDER, deps.voice): a vendor's adapter, or the
 * simulator with its in-process abilities. Every other path takes the plain VoiceProvider.
 */
export type DefaultVoiceProvider = VoiceProvider & Partial<InProcessCalls>;

export const hasInProcessCalls = (provider: DefaultVoiceProvider): provider is VoiceProvider & InProcessCalls =>
  provider.simulatesInbound === true && typeof provider.resumeCall === 'function' && typeof provider.setDelivery === 'function';

/**
 * `rate_limited`: the vendor refused for its concurrency or rate limit (HTTP 429 and the like); no
 * call was placed, the contact goes back to the queue without spending an attempt and the dialer
 * backs off. `unauthorized`: the credentials were refused (a setting to fix, not a call to retry).
 */
export type VoiceErrorCode = 'rate_limited' | 'invalid_number' | 'insufficient_funds' | 'unavailable' | 'rejected' | 'unauthorized' | 'unknown';

/** A provider's refusal; `retryable` says whether the same call may be tried again later. */
export class VoiceProviderError extends Error {
  constructor(
    readonly code: VoiceErrorCode,
    message: string,
    readonly retryable: boolean,
    /** How long the vendor asked us to wait (Retry-After), when it said. */
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }
}
