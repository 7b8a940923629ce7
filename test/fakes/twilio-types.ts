import { randomBytes } from 'node:crypto';
import twilio from 'twilio';
import type { CallPage } from 'twilio/lib/rest/api/v2010/account/call.js';

/** The SDK's CallResource (not exported by name) as it is on the wire: dates as RFC 2822 strings, unset fields null. */
type SdkCallResource = Parameters<CallPage['getInstance']>[0];
type Dates = 'date_created' | 'date_updated' | 'start_time' | 'end_time';
export type CallResource = { [K in Exclude<keyof SdkCallResource, Dates>]: SdkCallResource[K] | null } & { [K in Dates]: string | null };
export type CallStatus = SdkCallResource['status'];

/** What the person (or machine) at the other end does. */
export type CalleeStep =
  | { say: string }
  /** Talks over the assistant once its current answer has streamed this many `text` messages. */
  | { say: string; interruptAfterTokens: number }
  | { dtmf: string }
  | { silenceMs: number }
  | { hangup: true };

export interface FakeCallee {
  answer: 'human' | 'machine' | 'busy' | 'no-answer' | 'failed';
  steps?: CalleeStep[];
  /** Twilio's completed status callback is lost (GET Calls/{sid}.json still says completed). */
  dropCompleted?: boolean;
  /** Default: true (a recording is made when the call was created with Record=true and answered). */
  recording?: boolean;
  /** A call to a SIP URI: the far end's final answer to Twilio's INVITE (e.g. 486); a 3xx-6xx fails the call with it. */
  sipCode?: number;
}

export const DEFAULT_CALLEE: FakeCallee = { answer: 'human', steps: [{ say: 'Yes, I am interested.' }, { hangup: true }] };

export interface FakeTwilioOptions {
  accountSid: string;
  authToken: string;
  /**
   * SIP endpoints that challenge Twilio's INVITE (digest auth), by host: a call to a SIP URI on
   * such a host without these SipAuthUsername/SipAuthPassword is refused by the far end (403).
   */
  sipAuth?: Record<string, { username: string; password: string }>;
  /**
   * Trunk hosts whose calls the fake really dials: a SIP INVITE over UDP to this address (sipp as
   * the far end, test/fakes/sip-uac.ts), whose challenge gets the call's SipAuth credentials and
   * whose final answer is the call's SipResponseCode. The name stays the campaign's public host;
   * only the fake resolves it here (campaign_sip refuses loopback hosts).
   */
  sipTargets?: Record<string, { host: string; port: number }>;
  port?: number;
  /** The callee of an outbound call to `to` (default DEFAULT_CALLEE). */
  callees?: (to: string) => FakeCallee;
  /** Calls queued, ringing or in progress before POST Calls.json answers 429 (default 100). */
  maxConcurrent?: number;
  /** Calls created per second before 429; 0 = unlimited (default). */
  callsPerSecond?: number;
  /** Price of a completed call (default '-0.0140'). */
  price?: string;
  /** Ring, talk and detection delays (not the app's reply timeout) run this many times faster (default 1). */
  timeScale?: number;
  ringMs?: number;
  /** How long the fake waits for the app's answer to a prompt before the callee goes on (default 5000, not scaled). */
  replyTimeoutMs?: number;
  /** How long a machine-answered call stays open for the app to leave a message or hang up (default 30000, scaled). */
  machineHoldMs?: number;
}

export interface FakeRelaySession {
  url: string;
  sessionId: string;
  /** The <ConversationRelay> attributes and <Parameter>s. */
  attributes: Record<string, string>;
  customParameters: Record<string, string>;
  /** The setup message sent (null when the socket never opened). */
  setup: Record<string, unknown> | null;
  /** Every message the fake sent, setup included, in order. */
  sent: Record<string, unknown>[];
  /** Every message the app sent, parsed (or { raw } when not JSON), in order. */
  received: unknown[];
  /** The assistant's turns as the callee heard them: the welcome greeting, then tokens joined per turn (cut where interrupted). */
  heard: string[];
  /** The callee's utterances sent as `prompt`. */
  prompts: string[];
  interrupts: { utteranceUntilInterrupt: string; durationUntilInterruptMs: number }[];
  /** `error` descriptions the fake sent for malformed messages. */
  errors: string[];
  /** Set when the app sent `end` (its handoffData, '' when none). */
  endHandoff?: string;
  /** Who ended the session. */
  endedBy?: 'app' | 'callee' | 'twilio' | 'app-closed' | 'connect-failed';
}

export interface FakeCallback {
  kind: 'status' | 'voice-url' | 'action' | 'amd' | 'recording';
  url: string;
  method: string;
  params: Record<string, string>;
  /** The app's HTTP status; null when it could not be reached. */
  status: number | null;
  attempt: number;
}

export interface FakeTwilioCall {
  sid: string;
  direction: 'outbound-api' | 'inbound';
  /** The create form as received (repeated keys joined by a space, as Twilio reads StatusCallbackEvent). */
  params: Record<string, string>;
  callee: FakeCallee;
  resource: CallResource;
  readonly status: CallStatus;
  answeredBy?: string;
  /** Every TwiML document the call ran, in order (create Twiml, Url answers, action answers, updates). */
  twiml: string[];
  relay?: FakeRelaySession;
  /** <Say> texts spoken on the call (e.g. a voicemail message from an update). */
  said: string[];
  transferTo?: string;
  updates: Record<string, string>[];
  callbacks: FakeCallback[];
  recordingUrl?: string;
  /** A recording started through POST /Calls/{sid}/Recordings.json while the call ran (its form, and when, real ms). */
  apiRecording?: { sid: string; params: Record<string, string>; startedAt: number };
  /** Resolves when the call ended and every callback of it was sent. */
  done: Promise<void>;
}

export interface FakeTwilio {
  url: string;
  port: number;
  accountSid: string;
  authToken: string;
  calls: FakeTwilioCall[];
  refusals: number;
  /** The far ends' final answers of the calls dialled for real (sipTargets), in order. */
  sipAnswers: { to: string; code: number }[];
  /** `statusCallback`: the number's Status Callback URL (POST; Twilio sends it the completed event). */
  placeInboundCall(input: { from: string; to: string; voiceUrl: string; method?: string; callee?: FakeCallee; statusCallback?: string }): Promise<FakeTwilioCall>;
  waitForCall(match: string | ((call: FakeTwilioCall) => boolean), timeoutMs?: number): Promise<FakeTwilioCall>;
  /** Resolves when every call so far is done. */
  idle(): Promise<void>;
  /** The Media Streams started on a call (twilio-media.ts). */
  streamsOf(callSid: string): import('./twilio-media.ts').FakeMediaStream[];
  close(): Promise<void>;
}

export const E164 = /^\+[1-9]\d{6,14}$/;
/** A SIP address Twilio dials (To): sip:[user@]host[:port][;params], under 255 characters (Twilio takes no sips: scheme; TLS is ;transport=tls). */
export const SIP_TO = /^sip:(?:[^@\s:;]+@)?[a-z0-9.-]+(?::\d{1,5})?(?:;[a-z0-9_.-]+(?:=[a-z0-9_.-]+)?)*$/i;
export const API_VERSION = '2010-04-01';

/** Twilio's request signature (its own function), for the fake's requests and for forgery tests. */
export function twilioSign(authToken: string, url: string, params: Record<string, string>): string {
  return twilio.getExpectedTwilioSignature(authToken, url, params);
}

export const newSid = (prefix: string) => prefix + randomBytes(16).toString('hex');

/** Twilio's dates: RFC 2822 in UTC. */
export const rfc2822 = (ms: number) => new Date(ms).toUTCString().replace('GMT', '+0000');

export interface TwilioError { code: number; message: string; more_info: string; status: number }
export const twilioError = (status: number, code: number, message: string): TwilioError =>
  ({ code, message, more_info: `https://www.twilio.com/docs/errors/${code}`, status });
