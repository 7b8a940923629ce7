import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Vapi } from '@vapi-ai/server-sdk';
import { signVapiBody, VAPI_SECRET_HEADER } from '../../src/voice/providers/vapi/vapi-signature.ts';
import { artifactFor, costFor, scriptFor, type FakeVapiOutcome } from './vapi-script.ts';
import { attachVapiListen, type ListenSockets } from './vapi-listen.ts';
import { createVapiSip, vapiSipEndedReason, type FakeVapiSip, type FakeVapiSipOptions } from './vapi-sip.ts';

export { FAKE_VAPI_OUTCOMES, type FakeVapiOutcome } from './vapi-script.ts';

/**
 * A fake Vapi on 127.0.0.1: POST/GET/DELETE /call with Vapi's auth, validation, error bodies and
 * concurrency cap, and calls that run in real time and post Vapi's server messages (status-update,
 * end-of-call-report, assistant-request for `ring`) to the call's server URL, authenticated as
 * Vapi does: a per-call `server.url` gets only the call's own `server.headers`; the org's server
 * URL gets the org secret (`x-vapi-secret`) or, with `signing: 'hmac'`, x-signature/x-timestamp.
 */
export interface FakeVapiOptions {
  port?: number;
  apiKey?: string;
  webhookSecret?: string | null;
  signing?: 'secret' | 'hmac';
  /** The org's server URL: events of calls without a per-call server URL, and assistant-request. */
  serverUrl?: string | null;
  /** Vapi phone number id -> E.164 number. */
  phoneNumbers?: Record<string, string>;
  /** Vapi's concurrency limit (its default: 10); 0 = none. */
  maxConcurrent?: number;
  ringMs?: number;
  talkMs?: number;
  /** Reported times (startedAt, endedAt, timestamps) run this many times faster than real time. */
  timeScale?: number;
  /** The outcome of a call to a number not scripted. */
  choose?: (customerNumber: string) => FakeVapiOutcome;
  /** More private keys of the org (an account's own key beside the service's), accepted like apiKey. */
  otherApiKeys?: string[];
  /** How long the answer to a POST /call that placed a call is held (a slow vendor): the call runs meanwhile. */
  answerDelayMs?: number;
  /** The SIP trunks behind BYO numbers (vapi-sip.ts): the credentials they expect, their answers. */
  sip?: FakeVapiSipOptions;
}

export interface FakeVapiCall {
  id: string;
  /** The POST /call body as received (for inbound calls: the assistant-request answer). */
  request: Record<string, unknown>;
  call: Vapi.Call;
  outcome: FakeVapiOutcome;
  /** A call from a BYO number the trunk refused: Vapi's endedReason for it (vapi-sip.ts). */
  sipFailure?: string | null;
}

export interface FakeVapiDelivery {
  callId: string;
  type: string;
  url: string | null;
  /** The service's HTTP status; null when it could not be reached. */
  status: number | null;
  body: string;
}

export interface FakeVapi {
  url: string;
  port: number;
  apiKey: string;
  webhookSecret: string | null;
  calls: FakeVapiCall[];
  deliveries: FakeVapiDelivery[];
  /** Every message posted to a call's control URL, as received. */
  controls: { callId: string; message: Vapi.ClientInboundMessageMessage }[];
  /** The calls' listen sockets (monitor.listenUrl): how many were opened, and are open, per call. */
  listens: Pick<ListenSockets, 'opened' | 'open'>;
  /** BYO credentials and numbers, and the trunk leg of each call from one. */
  sip: FakeVapiSip;
  readonly active: number;
  peakConcurrency: number;
  refusals: number;
  script(customerNumber: string, outcome: FakeVapiOutcome): void;
  /** The person at this number declines a recording-consent plan's question (default: they agree). */
  declineRecording(customerNumber: string): void;
  ring(input: { from: string; toPhoneNumberId: string }): Promise<{ call: Vapi.Call; answer: unknown }>;
  /** Resolves when no call is running and every message went out. */
  idle(): Promise<void>;
  close(): Promise<void>;
}

const E164 = /^\+[1-9]\d{6,14}$/;
const ORG_ID = 'fake-org';
const nest = (statusCode: number, error: string, message: string | string[]) => ({ message, error, statusCode });
const UNAUTHORIZED = nest(401, 'Unauthorized', 'Invalid Key. Hot tip, you may be using the private key instead of the public key, or vice versa.');

export async function startFakeVapi(options: FakeVapiOptions = {}): Promise<FakeVapi> {
  const apiKey = options.apiKey ?? 'fake-vapi-key';
  const secret = options.webhookSecret === undefined ? 'fake-vapi-secret' : options.webhookSecret;
  const phoneNumbers = options.phoneNumbers ?? { 'fake-number-1': '+15550000001' };
  const maxConcurrent = options.maxConcurrent ?? 10;
  const ringMs = options.ringMs ?? 30;
  const talkMs = options.talkMs ?? 60;
  const timeScale = options.timeScale ?? 1;
  const scripted = new Map<string, FakeVapiOutcome>();
  const declining = new Set<string>();
  const byId = new Map<string, FakeVapiCall>();
  const running = new Set<Promise<void>>();
  let active = 0;
  const sip = createVapiSip(options.sip ?? {}, () => new Date().toISOString());

  const fake: FakeVapi = {
    url: '', port: 0, apiKey, webhookSecret: secret, calls: [], deliveries: [], controls: [], listens: { opened: new Map(), open: new Map() }, sip, peakConcurrency: 0, refusals: 0,
    get active() { return active; },
    script: (number, outcome) => void scripted.set(number, outcome),
    declineRecording: (number) => void declining.add(number),
    ring: (input) => ring(input),
    idle: async () => { while (running.size) await Promise.all([...running]); },
    close: () => new Promise<void>((resolve) => { listen.close(); server.closeAllConnections(); server.close(() => resolve()); }),
  };
  const outcomeOf = (number: string) => scripted.get(number) ?? options.choose?.(number) ?? 'interested';
  const t0 = Date.now();
  const reported = (ms = Date.now()) => t0 + (ms - t0) * timeScale;
  const iso = (ms?: number) => new Date(reported(ms)).toISOString();
  // A call's wait, cut short when it is hung up through its control URL.
  const wakers = new Map<string, () => void>();
  const sleep = (rec: FakeVapiCall, ms: number) => new Promise<void>((resolve) => {
    const timer = setTimeout(done, ms);
    function done() { clearTimeout(timer); wakers.delete(rec.id); resolve(); }
    wakers.set(rec.id, done);
  });

  /** Where and how a call's messages go (see the header comment). */
  function target(call: Vapi.Call): { url: string | null; headers: (body: string) => Record<string, string> } {
    const own = call.assistantOverrides?.server ?? call.assistant?.server;
    if (own?.url) {
      const extra = Object.fromEntries(Object.entries(own.headers ?? {}).map(([k, v]) => [k.toLowerCase(), String(v)]));
      return { url: own.url, headers: () => extra };
    }
    return { url: options.serverUrl ?? null, headers: (body) => orgAuth(body) };
  }
  function orgAuth(body: string): Record<string, string> {
    if (!secret) return {};
    return options.signing === 'hmac' ? signVapiBody(secret, body, new Date()) : { [VAPI_SECRET_HEADER]: secret };
  }

  async function post(url: string, headers: Record<string, string>, body: string): Promise<{ status: number | null; text: string }> {
    try {
      const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body, signal: AbortSignal.timeout(10_000) });
      return { status: res.status, text: await res.text() };
    } catch {
      return { status: null, text: '' };
    }
  }

  async function deliver(rec: FakeVapiCall, message: Record<string, unknown>, times = 1) {
    const call = structuredClone(rec.call);
    const body = JSON.stringify({ message: { timestamp: reported(), ...message, call, customer: call.customer, phoneNumber: { id: call.phoneNumberId, number: phoneNumbers[call.phoneNumberId ?? ''] ?? sip.numberOf(call.phoneNumberId ?? ''), provider: 'vapi' } } });
    const { url, headers } = target(rec.call);
    for (let i = 0; i < times; i++) {
      const res = url ? await post(url, headers(body), body) : { status: null, text: '' };
      fake.deliveries.push({ callId: rec.id, type: String(message.type), url, status: res.status, body });
    }
  }

  function assistantText(call: Vapi.Call) {
    const inline = call.assistant as (Vapi.CreateAssistantDto & { model?: { messages?: { content?: string }[] } }) | undefined;
    return {
      firstMessage: call.assistantOverrides?.firstMessage ?? inline?.firstMessage ?? 'Hello! This is your assistant.',
      voicemailMessage: call.assistantOverrides?.voicemailMessage ?? inline?.voicemailMessage ?? null,
      systemPrompt: inline?.model?.messages?.[0]?.content ?? null,
    };
  }

  /** The lines a call speaks, when its serverMessages ask for final transcripts (else none are sent). */
  function transcriptLines(call: Vapi.Call, script: ReturnType<typeof scriptFor>) {
    const inline = call.assistant as { serverMessages?: string[] } | undefined;
    const asked = [...(call.assistantOverrides?.serverMessages ?? []), ...(inline?.serverMessages ?? [])] as string[];
    if (!asked.includes('transcript[transcriptType="final"]') && !asked.includes('transcript')) return [];
    return script.endedReason === 'voicemail' ? script.turns : [{ role: 'bot' as const, message: assistantText(call).firstMessage }, ...script.turns];
  }

  function end(rec: FakeVapiCall, endedReason: string, answeredAt: number | null, script: ReturnType<typeof scriptFor> | null) {
    if (rec.call.status === 'ended') return false;
    const now = Date.now();
    const talkSec = answeredAt === null ? 0 : ((now - answeredAt) * timeScale) / 1000;
    const text = assistantText(rec.call);
    wakers.get(rec.id)?.();
    // A recording-consent plan: Vapi asks before the assistant joins, records only once it is granted, and says so on the call.
    const plan = rec.call.assistantOverrides?.compliancePlan?.recordingConsentPlan ?? rec.call.assistant?.compliancePlan?.recordingConsentPlan;
    const granted = plan && answeredAt !== null ? !declining.has(rec.call.customer?.number ?? '') : null;
    const artifact = script ? artifactFor({ callId: rec.id, baseUrl: fake.url, systemPrompt: text.systemPrompt, firstMessage: text.firstMessage, script, startMs: reported(answeredAt ?? now), talkSec }) : { messages: [] };
    if (granted === false) {
      delete artifact.recordingUrl;
      delete artifact.recording;
    }
    Object.assign(rec.call, {
      status: 'ended', endedReason, endedAt: iso(now), updatedAt: iso(now), ...costFor(talkSec),
      artifact, analysis: script ? script.analysis : {},
      ...(plan && granted !== null ? { compliance: { recordingConsent: { type: plan.type, ...(granted ? { grantedAt: iso(answeredAt!) } : {}) } } } : {}),
    });
    active--;
    return true;
  }

  async function report(rec: FakeVapiCall, times: number) {
    const c = rec.call;
    await deliver(rec, {
      type: 'end-of-call-report', endedReason: c.endedReason, cost: c.cost, costBreakdown: c.costBreakdown, costs: [],
      artifact: c.artifact, analysis: c.analysis, startedAt: c.startedAt, endedAt: c.endedAt,
      durationSeconds: c.startedAt && c.endedAt ? (Date.parse(c.endedAt) - Date.parse(c.startedAt)) / 1000 : 0,
    }, times);
  }

  /** The call in real time: ringing, maybe answered, the end; its messages one after another, in order (unless scripted not to be). */
  async function run(rec: FakeVapiCall, ringFirst: boolean) {
    const times = rec.outcome === 'duplicate' ? 2 : 1;
    const script = rec.sipFailure ? { answered: false, endedReason: rec.sipFailure, turns: [], analysis: {} } : scriptFor(rec.outcome, assistantText(rec.call));
    if (ringFirst) {
      rec.call.status = 'ringing';
      await deliver(rec, { type: 'status-update', status: 'ringing' }, times);
      await sleep(rec, ringMs);
    }
    if (rec.call.status === 'ended') return;
    if (!script.answered) {
      end(rec, script.endedReason, null, null);
      await deliver(rec, { type: 'status-update', status: 'ended', endedReason: script.endedReason }, times);
      return report(rec, times);
    }
    const answeredAt = Date.now();
    Object.assign(rec.call, { status: 'in-progress', startedAt: iso(answeredAt), updatedAt: iso(answeredAt) });
    const inProgress = { type: 'status-update', status: 'in-progress' };
    const inProgressAt = reported(answeredAt);
    if (rec.outcome !== 'out_of_order') await deliver(rec, inProgress, times);
    const talk = rec.outcome === 'voicemail' ? talkMs / 2 : talkMs;
    // Live transcript, as Vapi sends it when the assistant's serverMessages ask for final transcripts.
    const lines = transcriptLines(rec.call, script);
    for (const line of lines) {
      await sleep(rec, talk / (lines.length + 1));
      if ((rec.call.status as string) === 'ended') return;
      await deliver(rec, { type: 'transcript', role: line.role === 'bot' ? 'assistant' : 'user', transcriptType: 'final', transcript: line.message });
    }
    await sleep(rec, lines.length ? talk / (lines.length + 1) : talk);
    // Hung up meanwhile through the control URL: that path sent the end.
    if (!end(rec, script.endedReason, answeredAt, script)) return;
    await deliver(rec, { type: 'status-update', status: 'ended', endedReason: rec.call.endedReason }, times);
    if (rec.outcome !== 'lose_end') await report(rec, times);
    if (rec.outcome === 'out_of_order') await deliver(rec, { ...inProgress, timestamp: inProgressAt }, times);
  }

  function start(rec: FakeVapiCall, ringFirst: boolean) {
    fake.calls.push(rec);
    byId.set(rec.id, rec);
    active++;
    fake.peakConcurrency = Math.max(fake.peakConcurrency, active);
    const p: Promise<void> = run(rec, ringFirst).finally(() => running.delete(p));
    running.add(p);
  }

  function newCall(fields: Partial<Vapi.Call>): Vapi.Call {
    const id = randomUUID();
    return { id, orgId: ORG_ID, createdAt: iso(), updatedAt: iso(), status: 'queued', monitor: { listenUrl: `${fake.url.replace(/^http/, 'ws')}/${id}/listen`, controlUrl: `${fake.url}/control/${id}` }, ...fields };
  }

  function createCall(body: Record<string, unknown>): { status: number; body: unknown; headers?: Record<string, string> } {
    const customer = body.customer as Vapi.CreateCustomerDto | undefined;
    const phoneNumberId = body.phoneNumberId;
    const problems: string[] = [];
    if (typeof phoneNumberId !== 'string') problems.push('Couldn\'t Get Phone Number. Need Either `phoneNumberId` Or `phoneNumber`.');
    else if (!phoneNumbers[phoneNumberId] && !sip.numberOf(phoneNumberId)) problems.push(`Couldn't Get Phone Number. Phone number ${phoneNumberId} not found.`);
    if (!customer || typeof customer.number !== 'string') problems.push('customer.number must be a string');
    else if (!E164.test(customer.number)) problems.push('customer.number must be a valid phone number in the E.164 format. Hot tip, you may be missing the country code (Eg. US: +1).');
    if (!body.assistantId && !body.assistant && !body.squadId && !body.squad) problems.push('Couldn\'t Get Assistant. Need Either `assistant` Or `assistantId`.');
    if (problems.length) return { status: 400, body: nest(400, 'Bad Request', problems) };
    const number = customer!.number!;
    if (scripted.get(number) === 'refuse' || options.choose?.(number) === 'refuse' || (maxConcurrent > 0 && active >= maxConcurrent)) {
      fake.refusals++;
      return { status: 429, body: nest(429, 'Too Many Requests', `Over Concurrency Limit. Your org is limited to ${maxConcurrent} concurrent calls.`), headers: { 'retry-after': '1' } };
    }
    const call = newCall({
      type: 'outboundPhoneCall', phoneNumberId: phoneNumberId as string, customer: customer!,
      ...(body.assistantId ? { assistantId: String(body.assistantId) } : {}),
      ...(body.assistant ? { assistant: body.assistant as Vapi.CreateAssistantDto } : {}),
      ...(body.assistantOverrides ? { assistantOverrides: body.assistantOverrides as Vapi.AssistantOverrides } : {}),
      ...(typeof body.name === 'string' ? { name: body.name } : {}),
    });
    const leg = sip.dial(call.id, phoneNumberId as string, number);
    start({ id: call.id, request: body, call, outcome: outcomeOf(number), sipFailure: leg && vapiSipEndedReason(leg.code) }, true);
    return { status: 201, body: call };
  }

  async function ring(input: { from: string; toPhoneNumberId: string }): Promise<{ call: Vapi.Call; answer: unknown }> {
    // A Vapi SIP number (its value a sip: URI) is reached by SIP INVITE: the phone number has a sipUri, a SIP caller a customer sipUri.
    const dialled = phoneNumbers[input.toPhoneNumberId] ?? '';
    const customer = input.from.startsWith('sip:') ? { sipUri: input.from } : { number: input.from };
    const phoneNumber = dialled.startsWith('sip:') ? { id: input.toPhoneNumberId, sipUri: dialled, provider: 'vapi' } : { id: input.toPhoneNumberId, number: dialled, provider: 'vapi' };
    const call = newCall({ type: 'inboundPhoneCall', status: 'ringing', phoneNumberId: input.toPhoneNumberId, customer });
    const body = JSON.stringify({ message: { type: 'assistant-request', timestamp: reported(), call, customer: call.customer, phoneNumber } });
    const url = options.serverUrl ?? null;
    const res = url ? await post(url, orgAuth(body), body) : { status: null, text: '' };
    fake.deliveries.push({ callId: call.id, type: 'assistant-request', url, status: res.status, body });
    let answer: Vapi.ServerMessageResponseAssistantRequest | null = null;
    try { answer = JSON.parse(res.text) as Vapi.ServerMessageResponseAssistantRequest; } catch { /* not JSON: a failed request */ }
    if (res.status !== 200 || !answer || answer.error || (!answer.assistant && !answer.assistantId)) {
      const endedReason = res.status !== 200 || !answer ? 'assistant-request-failed' : answer.error ? 'assistant-request-returned-error' : 'assistant-request-returned-no-assistant';
      Object.assign(call, { status: 'ended', endedReason, endedAt: iso(), updatedAt: iso() });
      fake.calls.push({ id: call.id, request: (answer ?? {}) as Record<string, unknown>, call, outcome: 'interested' });
      byId.set(call.id, fake.calls.at(-1)!);
      return { call, answer };
    }
    Object.assign(call, {
      ...(answer.assistantId ? { assistantId: answer.assistantId } : {}),
      ...(answer.assistant ? { assistant: answer.assistant } : {}),
      ...(answer.assistantOverrides ? { assistantOverrides: answer.assistantOverrides } : {}),
    });
    start({ id: call.id, request: answer as Record<string, unknown>, call, outcome: outcomeOf(input.from) }, false);
    return { call, answer };
  }

  function listCalls(query: URLSearchParams): Vapi.Call[] {
    const gt = query.get('createdAtGt');
    const limit = Number(query.get('limit') ?? 100);
    return fake.calls.map((c) => c.call).filter((c) => !gt || c.createdAt > gt).reverse().slice(0, limit);
  }

  function route(req: IncomingMessage, raw: string): { status: number; body: unknown; headers?: Record<string, string> } {
    const url = new URL(req.url ?? '/', 'http://fake');
    const control = /^\/control\/([^/]+)$/.exec(url.pathname);
    if (control && req.method === 'POST') {
      // Control URLs are capabilities: no API key, as with Vapi.
      const rec = byId.get(control[1]!);
      if (!rec) return { status: 404, body: nest(404, 'Not Found', 'Call not found') };
      let message: Vapi.ClientInboundMessageMessage;
      try { message = JSON.parse(raw || '{}') as Vapi.ClientInboundMessageMessage; } catch { return { status: 400, body: nest(400, 'Bad Request', 'Unexpected token in JSON') }; }
      fake.controls.push({ callId: rec.id, message });
      if (rec.call.status === 'ended') return { status: 400, body: nest(400, 'Bad Request', 'Call has ended') };
      // end-call hangs up (Vapi: manually-canceled); a transfer to a number forwards the call and the
      // assistant leaves it (assistant-forwarded-call); add-message only joins the conversation.
      const endedReason = message.type === 'end-call' ? 'manually-canceled'
        : message.type === 'transfer' && message.destination?.type === 'number' && E164.test(message.destination.number) ? 'assistant-forwarded-call' : null;
      if (message.type === 'transfer' && !endedReason) return { status: 400, body: nest(400, 'Bad Request', ['destination.number must be a valid phone number in the E.164 format']) };
      if (message.type === 'add-message' && (message.message?.role !== 'system' || typeof message.message.content !== 'string')) return { status: 400, body: nest(400, 'Bad Request', ['message must be a system message with content']) };
      if (endedReason && end(rec, endedReason, rec.call.startedAt ? Date.now() : null, null)) {
        if (endedReason === 'assistant-forwarded-call') Object.assign(rec.call, { destination: (message as { destination: unknown }).destination });
        const p: Promise<void> = deliver(rec, { type: 'status-update', status: 'ended', endedReason }).then(() => report(rec, 1)).finally(() => running.delete(p));
        running.add(p);
      }
      return { status: 200, body: { ok: true } };
    }
    const keys = [apiKey, ...(options.otherApiKeys ?? [])];
    if (!keys.some((key) => req.headers.authorization === `Bearer ${key}`)) return { status: 401, body: UNAUTHORIZED };
    const byo = sip.handle(req.method ?? 'GET', url.pathname, raw);
    if (byo) return byo;
    const one = /^\/call\/([^/]+)$/.exec(url.pathname);
    if (url.pathname === '/call' && req.method === 'POST') {
      let body: unknown;
      try { body = JSON.parse(raw); } catch { return { status: 400, body: nest(400, 'Bad Request', 'Unexpected token in JSON') }; }
      return createCall((body ?? {}) as Record<string, unknown>);
    }
    if (url.pathname === '/call' && req.method === 'GET') return { status: 200, body: listCalls(url.searchParams) };
    if (one && (req.method === 'GET' || req.method === 'DELETE')) {
      const rec = byId.get(one[1]!);
      if (!rec) return { status: 404, body: nest(404, 'Not Found', 'Call not found') };
      if (req.method === 'DELETE') {
        byId.delete(rec.id);
        fake.calls.splice(fake.calls.indexOf(rec), 1);
      }
      return { status: 200, body: rec.call };
    }
    return { status: 404, body: nest(404, 'Not Found', `Cannot ${req.method} ${url.pathname}`) };
  }

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const answer = route(req, Buffer.concat(chunks).toString('utf8'));
      const send = () => {
        res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
        res.end(JSON.stringify(answer.body));
      };
      if (answer.status === 201 && options.answerDelayMs) setTimeout(send, options.answerDelayMs);
      else send();
    });
  });
  const listen = attachVapiListen(server, (id) => byId.get(id)?.call);
  fake.listens = listen;
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  fake.port = (server.address() as AddressInfo).port;
  fake.url = `http://127.0.0.1:${fake.port}`;
  return fake;
}
