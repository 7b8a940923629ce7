import { runRelay } from './twilio-relay.ts';
import { sendSigned, sleep } from './twilio-http.ts';
import { parseTwiml } from './twilio-twiml.ts';
import type { CallStatus, FakeCallback, FakeTwilioCall } from './twilio-types.ts';
import { API_VERSION, DEFAULT_CALLEE, newSid, rfc2822 } from './twilio-types.ts';

/** What every call of one fake shares. */
export interface CallEnv {
  accountSid: string;
  authToken: string;
  baseUrl: () => string;
  price: string;
  ringMs: number;
  replyTimeoutMs: number;
  machineHoldMs: number;
  /** Real milliseconds for a simulated delay (divided by timeScale). */
  scale: (ms: number) => number;
  /** Reported (vendor) time for a real instant (sped up by timeScale). */
  reported: (ms?: number) => number;
  timeScale: number;
  recordings: Set<string>;
  /** The call reached a final status (it no longer counts against the concurrency limit). */
  onFinal: (call: FakeTwilioCall) => void;
}

/** How an API update or a hangup interrupts what the call is doing. */
export type Interruption = { kind: 'hangup' } | { kind: 'cancel' } | { kind: 'twiml'; twiml: string } | { kind: 'url'; url: string; method?: string };

export interface LiveCall {
  call: FakeTwilioCall;
  ctl: AbortController;
  answeredAt: number | null;
  seq: number;
  final: boolean;
  pending: Set<Promise<unknown>>;
  /** The latest API update not yet acted on. */
  next: Interruption | null;
}

type Doc = { xml: string; url?: string };
const ok = (s: number | null) => s !== null && s >= 200 && s < 300;
const FINAL: CallStatus[] = ['completed', 'busy', 'no-answer', 'failed', 'canceled'];
export const isFinal = (s: CallStatus | null) => s !== null && FINAL.includes(s);

export function callParams(env: CallEnv, live: LiveCall): Record<string, string> {
  const r = live.call.resource;
  return {
    AccountSid: env.accountSid, ApiVersion: API_VERSION, CallSid: live.call.sid, CallStatus: r.status ?? 'queued',
    Called: r.to ?? '', Caller: r.from ?? '', Direction: live.call.direction, From: r.from ?? '', To: r.to ?? '',
    ...(live.call.answeredBy && !live.call.params.AsyncAmd ? { AnsweredBy: live.call.answeredBy } : {}),
  };
}

function setStatus(env: CallEnv, live: LiveCall, status: CallStatus) {
  live.call.resource.status = status;
  live.call.resource.date_updated = rfc2822(env.reported());
}

const talkSeconds = (env: CallEnv, live: LiveCall) => (live.answeredAt === null ? 0 : Math.max(1, Math.round(((Date.now() - live.answeredAt) * env.timeScale) / 1000)));

async function statusEvent(env: CallEnv, live: LiveCall, event: 'initiated' | 'ringing' | 'answered' | 'completed', callStatus: string) {
  const p = live.call.params;
  // Twilio's default without StatusCallbackEvent: the completed event only.
  const events = (p.StatusCallbackEvent ?? 'completed').split(/[\s,]+/);
  if (!p.StatusCallback || !events.includes(event)) return;
  const seconds = Number(live.call.resource.duration ?? 0);
  await sendSigned({
    call: live.call, authToken: env.authToken, kind: 'status', url: p.StatusCallback, method: p.StatusCallbackMethod,
    params: {
      ...callParams(env, live), CallStatus: callStatus, CallbackSource: 'call-progress-events',
      Timestamp: rfc2822(env.reported()), SequenceNumber: String(live.seq++),
      ...(event === 'completed' ? { CallDuration: String(seconds), Duration: String(Math.ceil(seconds / 60)) } : {}),
      ...(event === 'completed' && isSipCall(live) ? { SipResponseCode: String(sipResponse(live, callStatus)) } : {}),
    },
  });
}

const isSipCall = (live: LiveCall) => live.call.params.To?.startsWith('sip:') === true;

/** The far end's final answer to the INVITE, as Twilio reports it for a call to a SIP URI. */
function sipResponse(live: LiveCall, callStatus: string): number {
  const scripted = live.call.callee.sipCode;
  if (scripted !== undefined && (scripted >= 300 || callStatus === 'completed')) return scripted;
  return ({ completed: 200, busy: 486, 'no-answer': 480, canceled: 487 } as Record<string, number>)[callStatus] ?? 503;
}

/** GET/POST a TwiML document from the app; null when it answered nothing usable (Twilio's application error). */
async function fetchDoc(env: CallEnv, live: LiveCall, kind: FakeCallback['kind'], url: string, method: string | undefined, extra: Record<string, string> = {}): Promise<Doc | null> {
  const res = await sendSigned({ call: live.call, authToken: env.authToken, kind, url, method, params: { ...callParams(env, live), ...extra } });
  return ok(res.status) ? { xml: res.body, url } : null;
}

function answer(env: CallEnv, live: LiveCall) {
  if (live.answeredAt !== null) return;
  live.answeredAt = Date.now();
  live.call.resource.start_time = rfc2822(env.reported());
  setStatus(env, live, 'in-progress');
}

/** Runs one TwiML document; answers the next document to run (an action's answer, a <Redirect>) or null to end the call. */
async function runDoc(env: CallEnv, live: LiveCall, doc: Doc, signal: AbortSignal): Promise<Doc | null> {
  const { call } = live;
  call.twiml.push(doc.xml);
  const response = parseTwiml(doc.xml);
  if (!response) { call.said.push('An application error has occurred. Goodbye.'); return null; }
  for (const verb of response.children) {
    if (signal.aborted) return null;
    if (verb.name === 'Reject') { if (live.answeredAt === null) setStatus(env, live, verb.attrs.reason === 'rejected' ? 'no-answer' : 'busy'); return null; }
    if (verb.name === 'Hangup') return null;
    answer(env, live);
    const text = verb.text.trim();
    switch (verb.name) {
      case 'Say': call.said.push(text); await sleep(env.scale(300 + 60 * text.length), signal); break;
      case 'Play': await sleep(env.scale(1000), signal); break;
      case 'Pause': await sleep(env.scale(Number(verb.attrs.length ?? 1) * 1000), signal); break;
      case 'Redirect': return fetchDoc(env, live, 'voice-url', new URL(text, doc.url).toString(), verb.attrs.method);
      case 'Dial':
        call.transferTo = text || verb.children[0]?.text.trim() || '';
        await sleep(env.scale(2000), signal);
        return null;
      case 'Connect': {
        const node = verb.children.find((c) => c.name === 'ConversationRelay');
        if (!node) break;
        const startedAt = Date.now();
        const machine = call.callee.answer === 'machine';
        const session = await runRelay({
          call, node, accountSid: env.accountSid, authToken: env.authToken, signal, scale: env.scale, replyTimeoutMs: env.replyTimeoutMs,
          steps: machine ? [] : call.callee.steps ?? DEFAULT_CALLEE.steps ?? [],
          ...(machine ? { hold: env.scale(env.machineHoldMs) } : {}),
        });
        if (signal.aborted || session.endedBy === 'callee') return null;
        if (!verb.attrs.action) break;
        return fetchDoc(env, live, 'action', new URL(verb.attrs.action, doc.url).toString(), verb.attrs.method, {
          SessionId: session.sessionId,
          SessionStatus: session.endedBy === 'app' ? 'ended' : 'failed',
          SessionDuration: String(Math.round(((Date.now() - startedAt) * env.timeScale) / 1000)),
          ...(session.endHandoff !== undefined ? { HandoffData: session.endHandoff } : {}),
        });
      }
      default: break;
    }
  }
  return null;
}

/**
 * Documents one after another until the call ends. An API update (live.next) replaces the running
 * document at once, the latest update winning, as Twilio redirects a live call.
 */
async function conduct(env: CallEnv, live: LiveCall, first: Doc | null) {
  let doc = first;
  while (!live.final) {
    const why = live.next;
    live.next = null;
    if (why) doc = why.kind === 'twiml' ? { xml: why.twiml } : why.kind === 'url' ? await fetchDoc(env, live, 'voice-url', why.url, why.method) : null;
    if (live.next) continue;
    if (!doc) break;
    live.ctl = new AbortController();
    doc = await runDoc(env, live, doc, live.ctl.signal);
  }
}

async function finish(env: CallEnv, live: LiveCall, status: CallStatus) {
  if (live.final) return;
  const { call } = live;
  const now = Date.now();
  const seconds = talkSeconds(env, live);
  Object.assign(call.resource, {
    duration: String(seconds), end_time: rfc2822(env.reported(now)), price_unit: 'USD',
    price: status === 'completed' && seconds > 0 ? env.price : null,
  });
  setStatus(env, live, status);
  live.final = true;
  env.onFinal(call);
  if (!call.callee.dropCompleted) await statusEvent(env, live, 'completed', status);
  // Recorded from the start (Record=true on create), or from when the Recordings API started it.
  const api = call.apiRecording;
  const p = api?.params ?? call.params;
  if ((!api && p.Record !== 'true') || live.answeredAt === null || call.callee.recording === false) return;
  const recordingSid = api?.sid ?? newSid('RE');
  env.recordings.add(recordingSid);
  call.recordingUrl = `${env.baseUrl()}/${API_VERSION}/Accounts/${env.accountSid}/Recordings/${recordingSid}`;
  const events = (p.RecordingStatusCallbackEvent ?? 'completed').split(/[\s,]+/);
  if (!p.RecordingStatusCallback || !events.includes('completed')) return;
  const recorded = api ? Math.max(1, Math.round(((now - api.startedAt) * env.timeScale) / 1000)) : seconds;
  await sendSigned({
    call, authToken: env.authToken, kind: 'recording', url: p.RecordingStatusCallback, method: p.RecordingStatusCallbackMethod,
    params: {
      AccountSid: env.accountSid, CallSid: call.sid, RecordingSid: recordingSid, RecordingUrl: call.recordingUrl,
      RecordingStatus: 'completed', RecordingDuration: String(recorded), RecordingChannels: p.RecordingChannels === 'dual' ? '2' : '1',
      RecordingStartTime: api ? rfc2822(env.reported(api.startedAt)) : call.resource.start_time ?? '',
      RecordingSource: api ? 'StartCallRecordingAPI' : 'OutboundAPI', RecordingTrack: p.RecordingTrack ?? 'both',
    },
  });
}

/** Answering machine detection: what it concludes and how long it listens (reported ms). */
function detect(live: LiveCall): { answeredBy: string; ms: number } {
  if (live.call.callee.answer !== 'machine') return { answeredBy: 'human', ms: 1200 };
  return live.call.params.MachineDetection === 'DetectMessageEnd' ? { answeredBy: 'machine_end_beep', ms: 5000 } : { answeredBy: 'machine_start', ms: 2000 };
}

export async function runOutbound(env: CallEnv, live: LiveCall): Promise<void> {
  const { call } = live;
  const p = call.params;
  const signal = live.ctl.signal;
  await statusEvent(env, live, 'initiated', 'initiated');
  if (!signal.aborted) {
    setStatus(env, live, 'ringing');
    await statusEvent(env, live, 'ringing', 'ringing');
    await sleep(env.scale(env.ringMs), signal);
  }
  if (signal.aborted) return finish(env, live, 'canceled');
  const outcome = call.callee.answer;
  const sipCode = call.callee.sipCode;
  if (isSipCall(live) && sipCode !== undefined && sipCode >= 300) return finish(env, live, sipCode === 486 || sipCode === 600 ? 'busy' : sipCode === 408 || sipCode === 480 ? 'no-answer' : 'failed');
  if (outcome === 'busy' || outcome === 'no-answer' || outcome === 'failed') return finish(env, live, outcome);
  answer(env, live);
  if (p.MachineDetection) {
    const found = detect(live);
    const conclude = () => {
      call.answeredBy = found.answeredBy;
      call.resource.answered_by = found.answeredBy;
    };
    if (p.AsyncAmd !== 'true') {
      await sleep(env.scale(found.ms));
      conclude();
    } else {
      const amd = sleep(env.scale(found.ms)).then(async () => {
        conclude();
        if (!p.AsyncAmdStatusCallback) return;
        await sendSigned({
          call, authToken: env.authToken, kind: 'amd', url: p.AsyncAmdStatusCallback, method: p.AsyncAmdStatusCallbackMethod,
          params: { AccountSid: env.accountSid, CallSid: call.sid, AnsweredBy: found.answeredBy, MachineDetectionDuration: String(found.ms) },
        });
      });
      live.pending.add(amd);
    }
  }
  await statusEvent(env, live, 'answered', 'in-progress');
  let first: Doc | null = p.Twiml ? { xml: p.Twiml } : await fetchDoc(env, live, 'voice-url', p.Url!, p.Method);
  if (!first && p.FallbackUrl) first = await fetchDoc(env, live, 'voice-url', p.FallbackUrl, p.FallbackMethod);
  if (!first) call.said.push('An application error has occurred. Goodbye.');
  await conduct(env, live, first);
  await finish(env, live, 'completed');
}

export async function runInbound(env: CallEnv, live: LiveCall, voiceUrl: string, method: string | undefined, fetched: () => void): Promise<void> {
  const first = await fetchDoc(env, live, 'voice-url', voiceUrl, method);
  fetched();
  if (!first) live.call.said.push('We are sorry, an application error has occurred. Goodbye.');
  await conduct(env, live, first);
  await finish(env, live, live.answeredAt === null && isFinal(live.call.resource.status) ? live.call.resource.status! : live.answeredAt === null ? 'no-answer' : 'completed');
}

/** Hangs up or cancels through the API (the call's run then settles its end). */
export function interrupt(live: LiveCall, why: Interruption) {
  live.next = why;
  live.ctl.abort(why);
}
