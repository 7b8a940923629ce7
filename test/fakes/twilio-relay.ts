import { WebSocket } from 'ws';
import { sleep } from './twilio-http.ts';
import type { TwimlNode } from './twilio-twiml.ts';
import type { CalleeStep, FakeRelaySession, FakeTwilioCall } from './twilio-types.ts';
import { newSid, twilioSign } from './twilio-types.ts';

type Msg = Record<string, unknown>;
const isStr = (v: unknown) => typeof v === 'string';
const optBool = (v: unknown) => v === undefined || typeof v === 'boolean';

/** What ConversationRelay rejects with an `error` message (null: a valid message). */
function problemWith(m: unknown): string | null {
  if (!m || typeof m !== 'object' || Array.isArray(m)) return 'Invalid message received: expected a JSON object';
  const msg = m as Msg;
  switch (msg.type) {
    case 'text':
      if (!isStr(msg.token)) return "Invalid message received: 'token' must be a string for type 'text'";
      return optBool(msg.last) && optBool(msg.interruptible) && optBool(msg.preemptible) ? null : "Invalid message received: 'last', 'interruptible' and 'preemptible' must be booleans";
    case 'play': return isStr(msg.source) ? null : "Invalid message received: 'source' is required for type 'play'";
    case 'sendDigits': return isStr(msg.digits) && /^[0-9*#wW]+$/.test(msg.digits as string) ? null : "Invalid message received: 'digits' must be DTMF digits for type 'sendDigits'";
    case 'language': return isStr(msg.ttsLanguage) || isStr(msg.transcriptionLanguage) ? null : "Invalid message received: 'ttsLanguage' or 'transcriptionLanguage' is required for type 'language'";
    case 'end': return msg.handoffData === undefined || isStr(msg.handoffData) ? null : "Invalid message received: 'handoffData' must be a string";
    default: return `Invalid message received: unknown type '${String(msg.type)}'`;
  }
}

/**
 * One <ConversationRelay> session: the fake is Twilio's side of the socket (speech already turned
 * into text), playing the callee's steps against the app's answers. Ends when the app sends `end`
 * or closes, the callee hangs up or runs out of steps, `hold` runs out (a machine), or `signal`
 * aborts (the call was hung up or given new TwiML through the API).
 */
export async function runRelay(input: {
  call: FakeTwilioCall;
  node: TwimlNode;
  accountSid: string;
  authToken: string;
  steps: CalleeStep[];
  hold?: number;
  replyTimeoutMs: number;
  scale: (ms: number) => number;
  signal: AbortSignal;
}): Promise<FakeRelaySession> {
  const { call, node, signal } = input;
  const url = node.attrs.url ?? '';
  const customParameters = Object.fromEntries(node.children.filter((c) => c.name === 'Parameter').map((c) => [c.attrs.name ?? '', c.attrs.value ?? '']));
  const session: FakeRelaySession = {
    url, sessionId: newSid('VX'), attributes: node.attrs, customParameters, setup: null,
    sent: [], received: [], heard: [], prompts: [], interrupts: [], errors: [],
  };
  call.relay = session;
  let lang = node.attrs.transcriptionLanguage ?? node.attrs.language ?? 'en-US';
  // <ConversationRelay interruptible="none|false"> (or a text message's interruptible: false) lets no speech cut the assistant off.
  const interruptibleByDefault = !['none', 'false', 'dtmf'].includes(node.attrs.interruptible ?? 'any');
  let turn = { text: '', tokens: 0, startedAt: 0, open: false, interruptible: interruptibleByDefault };
  const greeting = node.attrs.welcomeGreeting;
  // The app owes an answer after a prompt, and owes the opening line when there is no greeting.
  let owed = !greeting;
  let closed = false;
  const listeners = new Set<() => void>();
  const notify = () => { for (const l of [...listeners]) l(); };
  const waitFor = (ready: () => boolean, ms: number) => new Promise<boolean>((resolve) => {
    const check = () => {
      if (!ready() && !closed && !signal.aborted) return;
      clearTimeout(timer); listeners.delete(check); signal.removeEventListener('abort', check); resolve(ready());
    };
    const timer = setTimeout(() => { listeners.delete(check); signal.removeEventListener('abort', check); resolve(ready()); }, ms);
    listeners.add(check);
    signal.addEventListener('abort', check, { once: true });
    check();
  });
  const quiet = () => !owed && !turn.open;

  let ws: WebSocket;
  try {
    ws = new WebSocket(url, { headers: { 'X-Twilio-Signature': twilioSign(input.authToken, url, {}) } });
  } catch {
    session.endedBy = 'connect-failed';
    return session;
  }
  const send = (m: Msg) => { if (ws.readyState === WebSocket.OPEN) { session.sent.push(m); ws.send(JSON.stringify(m)); } };
  const closedP = new Promise<void>((resolve) => ws.on('close', () => { closed = true; session.endedBy ??= 'app-closed'; notify(); resolve(); }));
  ws.on('error', () => { session.endedBy ??= ws.readyState === WebSocket.CONNECTING || !session.setup ? 'connect-failed' : 'app-closed'; });
  ws.on('message', (data) => {
    let msg: unknown;
    try { msg = JSON.parse(data.toString()); } catch { session.received.push({ raw: data.toString() }); }
    if (msg === undefined) return sendError('Invalid message received: not JSON');
    session.received.push(msg);
    const problem = problemWith(msg);
    if (problem) return sendError(problem);
    const m = msg as Msg;
    if (m.type === 'text') {
      if (!turn.open) turn = { text: '', tokens: 0, startedAt: Date.now(), open: true, interruptible: interruptibleByDefault };
      if (typeof m.interruptible === 'boolean') turn.interruptible = m.interruptible;
      turn.text += m.token as string;
      turn.tokens++;
      if (m.last) {
        if (turn.text) session.heard.push(turn.text);
        turn = { text: '', tokens: 0, startedAt: 0, open: false, interruptible: interruptibleByDefault };
        owed = false;
      }
    } else if (m.type === 'language' && isStr(m.transcriptionLanguage)) {
      lang = m.transcriptionLanguage as string;
    } else if (m.type === 'end') {
      session.endHandoff = (m.handoffData as string | undefined) ?? '';
      session.endedBy ??= 'app';
      ws.close(1000);
    }
    notify();
  });
  function sendError(description: string) {
    session.errors.push(description);
    send({ type: 'error', description });
  }

  const opened = await new Promise<boolean>((resolve) => {
    ws.once('open', () => resolve(true));
    ws.once('close', () => resolve(false));
  });
  if (!opened) { session.endedBy = 'connect-failed'; return session; }
  session.setup = {
    type: 'setup', sessionId: session.sessionId, accountSid: input.accountSid, parentCallSid: '', callSid: call.sid,
    from: call.resource.from, to: call.resource.to, forwardedFrom: '', callType: 'PSTN', callerName: '',
    direction: call.direction, callStatus: call.direction === 'inbound' ? 'RINGING' : 'IN-PROGRESS', customParameters,
  };
  send(session.setup);
  if (greeting) session.heard.push(greeting);

  const replyWait = (first: boolean) => (first && !greeting ? Math.min(input.replyTimeoutMs, 1500) : input.replyTimeoutMs);
  let first = true;
  for (const step of input.steps) {
    if (closed || signal.aborted) break;
    if ('silenceMs' in step) { await sleep(input.scale(step.silenceMs), signal); continue; }
    if ('interruptAfterTokens' in step) {
      await waitFor(() => turn.tokens >= step.interruptAfterTokens || quiet(), replyWait(first));
      // Speech over an answer that cannot be interrupted waits for its end, as the caller's words would.
      if (turn.open && !turn.interruptible) await waitFor(quiet, input.replyTimeoutMs);
      if (turn.open && turn.tokens >= step.interruptAfterTokens) {
        const cut = { utteranceUntilInterrupt: turn.text, durationUntilInterruptMs: Date.now() - turn.startedAt };
        send({ type: 'interrupt', ...cut });
        session.interrupts.push(cut);
        session.heard.push(turn.text);
        turn = { text: '', tokens: 0, startedAt: 0, open: false, interruptible: interruptibleByDefault };
      }
    } else {
      await waitFor(quiet, replyWait(first));
    }
    first = false;
    if (closed || signal.aborted) break;
    if ('hangup' in step) { session.endedBy ??= 'callee'; break; }
    if ('dtmf' in step) { for (const digit of step.dtmf) send({ type: 'dtmf', digit }); owed = true; continue; }
    send({ type: 'prompt', voicePrompt: step.say, lang, last: true });
    session.prompts.push(step.say);
    owed = true;
  }
  if (!closed && !signal.aborted && session.endedBy === undefined) {
    // Out of steps: the callee hears the last answer out (a machine waits for someone to act) and the call ends.
    await (input.hold !== undefined ? waitFor(() => false, input.hold) : waitFor(quiet, replyWait(first)));
  }
  if (signal.aborted) session.endedBy ??= 'twilio';
  session.endedBy ??= 'callee';
  if (turn.open && turn.text) session.heard.push(turn.text);
  if (!closed) ws.close(1000);
  await Promise.race([closedP, sleep(1000)]);
  if (!closed) ws.terminate();
  return session;
}
