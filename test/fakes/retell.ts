import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { signRetell, RETELL_SIGNATURE_HEADER } from '../../src/voice/providers/retell/retell-signature.ts';
import { createRetellSip, retellSipReason, type FakeRetellSip, type FakeRetellSipOptions } from './retell-sip.ts';
import type { CallCreatePhoneCallParams, DisconnectionReason, PhoneCallResponse, RetellInboundAnswer } from '../../src/voice/providers/retell/retell-types.ts';

/**
 * A fake Retell on 127.0.0.1 speaking Retell's v2 API: Bearer auth with Retell's 401 body,
 * create-phone-call's validation, the org's concurrency cap (429), get-call, list-calls,
 * stop-call; each call runs in real time and posts call_started / call_ended / call_analyzed
 * to the agent's webhook URL, signed with the API key as Retell signs them, and, when the agent's
 * webhook_events ask for it, transcript_updated at each turn (the whole transcript so far). An
 * agent's webhook_events (Retell's default: the three call events) decide what is posted.
 */
type WebhookEvent = 'call_started' | 'call_ended' | 'call_analyzed' | 'transcript_updated';
const DEFAULT_EVENTS: readonly string[] = ['call_started', 'call_ended', 'call_analyzed'];
export type RetellScript = 'interested' | 'not_interested' | 'voicemail' | 'busy' | 'no_answer' | 'refuse' | 'lose_end' | 'duplicate' | 'out_of_order';

export interface FakeRetellOptions {
  apiKey: string;
  /** The account-level webhook URL; an agent's webhook_url (options.agents, or the call's agent_override) wins. */
  webhookUrl: string;
  /** Where call_inbound goes (the number's "Inbound Webhook URL"); default webhookUrl. */
  inboundWebhookUrl?: string;
  port?: number;
  /** The org's numbers; unset = any E.164 number is ours. */
  fromNumbers?: string[];
  /** The org's agents; unset = any agent id exists. */
  agents?: Record<string, { webhook_url?: string; webhook_events?: string[] }>;
  /** Concurrent calls before create-phone-call answers 429 (Retell's org concurrency). */
  maxConcurrent?: number;
  ringMs?: number;
  talkMs?: number;
  analyzeMs?: number;
  defaultOutcome?: RetellScript;
  costCentsPerMinute?: number;
  /** The SIP trunks behind imported numbers (retell-sip.ts). */
  sip?: FakeRetellSipOptions;
}

export interface FakeRetellDelivery { event: string; callId: string; status: number | null }

export interface FakeRetell {
  url: string;
  port: number;
  /** create-phone-call bodies, in order (refused ones included). */
  calls: CallCreatePhoneCallParams[];
  peakConcurrency: number;
  refusals: number;
  deliveries: FakeRetellDelivery[];
  /** update-live-call bodies, by call id, in order. */
  liveUpdates: { callId: string; body: Record<string, unknown> }[];
  /** Imported numbers and the trunk leg of each call from one. */
  sip: FakeRetellSip;
  script(toNumber: string, outcome: RetellScript): void;
  /** The call as get-call shows it. */
  call(id: string): PhoneCallResponse | undefined;
  ring(input: { from: string; to: string; agentId?: string }): Promise<{ status: number; answer: RetellInboundAnswer | null; callId: string | null }>;
  /** Resolves once every running call has ended and its events went out. */
  idle(): Promise<void>;
  close(): Promise<void>;
}

const E164 = /^\+[1-9]\d{6,14}$/;
const error = (message: string) => ({ status: 'error', message });

interface Running { call: PhoneCallResponse; webhookUrl: string; events: readonly string[]; timers: NodeJS.Timeout[]; done: Promise<void>; finish: () => void }

export async function startFakeRetell(options: FakeRetellOptions): Promise<FakeRetell> {
  const ringMs = options.ringMs ?? 30;
  const talkMs = options.talkMs ?? 60;
  const analyzeMs = options.analyzeMs ?? 20;
  const scripts = new Map<string, RetellScript>();
  const calls = new Map<string, Running>();
  let closed = false;
  const active = () => [...calls.values()].filter((r) => r.call.call_status === 'registered' || r.call.call_status === 'ongoing').length;

  const post = async (url: string, body: string, event: string, callId: string): Promise<Response | null> => {
    const delivery: FakeRetellDelivery = { event, callId, status: null };
    fake.deliveries.push(delivery);
    try {
      const res = await fetch(url, { method: 'POST', body, headers: { 'content-type': 'application/json', [RETELL_SIGNATURE_HEADER]: signRetell(options.apiKey, body, new Date()) }, signal: AbortSignal.timeout(10_000) });
      delivery.status = res.status;
      return res;
    } catch {
      return null;
    }
  };
  const send = async (r: Running, event: WebhookEvent) => {
    if (!r.events.includes(event)) return null;
    return post(r.webhookUrl, JSON.stringify({ event, call: r.call }), event, r.call.call_id);
  };
  /** The agent's webhook_events: the call's agent_override, else the agent's own, else Retell's default. */
  const eventsOf = (override: RetellInboundAnswer['call_inbound'] | CallCreatePhoneCallParams | undefined, agentId: string): readonly string[] =>
    override?.agent_override?.agent?.webhook_events ?? options.agents?.[agentId]?.webhook_events ?? DEFAULT_EVENTS;

  const sip = createRetellSip(options.sip ?? {});

  function startCall(input: { body: CallCreatePhoneCallParams; agentId: string; direction: 'inbound' | 'outbound'; webhookUrl: string; events: readonly string[]; script: RetellScript; failure?: DisconnectionReason | null }): PhoneCallResponse {
    const call: PhoneCallResponse = {
      call_id: `call_${randomBytes(12).toString('hex')}`, call_type: 'phone_call', agent_id: input.agentId, agent_version: 1,
      call_status: 'registered', direction: input.direction, from_number: input.body.from_number, to_number: input.body.to_number,
      metadata: input.body.metadata ?? {}, retell_llm_dynamic_variables: input.body.retell_llm_dynamic_variables ?? {},
    };
    let finish = () => {};
    const done = new Promise<void>((resolve) => (finish = resolve));
    const r: Running = { call, webhookUrl: input.webhookUrl, events: input.events, timers: [], done, finish };
    calls.set(call.call_id, r);
    fake.peakConcurrency = Math.max(fake.peakConcurrency, active());
    run(r, input.script, input.failure ?? null);
    return call;
  }

  function run(r: Running, script: RetellScript, failure: DisconnectionReason | null) {
    const { call } = r;
    const at = (ms: number, fn: () => Promise<unknown> | void) => r.timers.push(setTimeout(() => void fn(), ms));
    const connected = !failure && script !== 'busy' && script !== 'no_answer';
    const end = (reason: DisconnectionReason) => {
      const now = Date.now();
      call.call_status = connected ? 'ended' : 'not_connected';
      call.disconnection_reason = reason;
      call.end_timestamp = now;
      if (connected) {
        call.duration_ms = now - call.start_timestamp!;
        const cents = Math.round((call.duration_ms / 60_000) * (options.costCentsPerMinute ?? 7) * 100) / 100;
        call.call_cost = { combined_cost: cents, product_costs: [], total_duration_seconds: Math.round(call.duration_ms / 1000), total_duration_unit_price: 0 };
        call.transcript_object = transcriptFor(script, call.retell_llm_dynamic_variables ?? {});
        call.transcript = call.transcript_object.map((t) => `${t.role === 'agent' ? 'Agent' : 'User'}: ${t.content}`).join('\n');
        call.recording_url = `https://fake-retell.invalid/recordings/${call.call_id}.wav`;
      } else {
        call.duration_ms = 0;
      }
    };
    const analyze = () => {
      call.call_analysis = {
        call_successful: script === 'interested', in_voicemail: script === 'voicemail',
        call_summary: `Scripted '${script}' call.`, user_sentiment: script === 'interested' ? 'Positive' : 'Neutral',
        custom_analysis_data: { interested: script === 'interested' },
      };
    };
    const reason: DisconnectionReason = failure ? failure : script === 'busy' ? 'dial_busy' : script === 'no_answer' ? 'dial_no_answer' : script === 'voicemail' ? 'voicemail_reached' : script === 'not_interested' ? 'user_hangup' : 'agent_hangup';
    const times = script === 'duplicate' ? 2 : 1;
    const twice = async (event: WebhookEvent) => {
      for (let i = 0; i < times; i++) await send(r, event);
    };
    if (!connected) {
      at(ringMs, async () => {
        end(reason);
        await twice('call_ended');
        analyze();
        await twice('call_analyzed');
        r.finish();
      });
      return;
    }
    // call_ended goes out once call_started's deliveries are done (a slow delivery would
    // otherwise interleave them; out-of-order is its own script).
    let started: Promise<unknown> = Promise.resolve();
    at(ringMs, () => {
      call.call_status = 'ongoing';
      call.start_timestamp = Date.now();
      if (script !== 'out_of_order') started = twice('call_started');
    });
    // Each turn as it is taken: transcript_updated with the transcript so far.
    const lines = transcriptFor(script, call.retell_llm_dynamic_variables ?? {});
    lines.forEach((_, i) => at(ringMs + (talkMs * (i + 1)) / (lines.length + 1), async () => {
      if (call.call_status !== 'ongoing') return;
      call.transcript_object = lines.slice(0, i + 1);
      await started;
      await twice('transcript_updated');
    }));
    at(ringMs + talkMs, async () => {
      if (call.call_status !== 'ongoing') return; // stopped meanwhile
      end(reason);
      await started; // even a lost end waits for call_started's delivery, so idle() means delivered
      if (script === 'lose_end') return r.finish(); // get-call shows it ended; no event says so
      await twice('call_ended');
      if (script === 'out_of_order') await send(r, 'call_started');
      at(analyzeMs, async () => {
        analyze();
        await twice('call_analyzed');
        r.finish();
      });
    });
  }

  async function handle(req: IncomingMessage, res: ServerResponse, raw: string) {
    const reply = (status: number, body?: unknown) => {
      res.writeHead(status, body === undefined ? {} : { 'content-type': 'application/json' });
      res.end(body === undefined ? undefined : JSON.stringify(body));
    };
    if (req.headers.authorization !== `Bearer ${options.apiKey}`) return reply(401, error('API key is missing or invalid.'));
    const url = new URL(req.url ?? '/', 'http://x');
    const path = url.pathname;
    let body: Record<string, unknown> = {};
    try {
      if (raw) body = JSON.parse(raw) as Record<string, unknown>;
    } catch {
      return reply(400, error('Invalid request format, please check API reference.'));
    }
    const numberAnswer = sip.handle(req.method ?? 'GET', path, body);
    if (numberAnswer) return reply(numberAnswer.status, numberAnswer.body);
    if (req.method === 'POST' && path === '/v2/create-phone-call') return createPhoneCall(body as unknown as CallCreatePhoneCallParams, reply);
    const get = /^\/v2\/get-call\/([^/]+)$/.exec(path);
    if (req.method === 'GET' && get) {
      const r = calls.get(decodeURIComponent(get[1]!));
      return r ? reply(200, r.call) : reply(404, error('Call not found.'));
    }
    const stop = /^\/v2\/stop-call\/([^/]+)$/.exec(path);
    if (req.method === 'POST' && stop) {
      const r = calls.get(decodeURIComponent(stop[1]!));
      if (!r) return reply(404, error('Call not found.'));
      if (r.call.call_status !== 'ongoing' && r.call.call_status !== 'registered') return reply(400, error('Call is not ongoing.'));
      r.timers.forEach(clearTimeout);
      const now = Date.now();
      // A call stopped after it connected lasted until now, as Retell reports it.
      Object.assign(r.call, { call_status: 'ended', disconnection_reason: 'manual_stopped', end_timestamp: now, duration_ms: r.call.start_timestamp ? now - r.call.start_timestamp : 0 });
      void send(r, 'call_ended').then(() => r.finish());
      return reply(204);
    }
    const live = /^\/v2\/update-live-call\/([^/]+)$/.exec(path);
    if (req.method === 'PATCH' && live) {
      const r = calls.get(decodeURIComponent(live[1]!));
      if (!r) return reply(404, error('Call not found.'));
      if (r.call.call_status !== 'ongoing') return reply(400, error('Call is not ongoing.'));
      const context = (body.call_control as { additional_context?: unknown } | undefined)?.additional_context;
      if (context !== undefined && (typeof context !== 'string' || context === '')) return reply(400, error('additional_context must be a non-empty string.'));
      fake.liveUpdates.push({ callId: r.call.call_id, body });
      return reply(200, { success: true });
    }
    if (req.method === 'POST' && (path === '/v2/list-calls' || path === '/v3/list-calls')) {
      const items = listCalls(body);
      return reply(200, path === '/v2/list-calls' ? items : { items, has_more: false });
    }
    reply(404, error('Not found.'));
  }

  function createPhoneCall(body: CallCreatePhoneCallParams, reply: (status: number, body?: unknown) => void) {
    fake.calls.push(body);
    if (typeof body.to_number !== 'string' || !E164.test(body.to_number)) return reply(400, error(`Invalid to_number: ${String(body.to_number)} is not a valid E.164 number.`));
    if (typeof body.from_number !== 'string' || !E164.test(body.from_number)) return reply(400, error(`Invalid from_number: ${String(body.from_number)} is not a valid E.164 number.`));
    if (options.fromNumbers && !options.fromNumbers.includes(body.from_number) && !sip.numbers.has(body.from_number)) return reply(404, error(`Item ${body.from_number} not found from phone-number.`));
    const agentId = body.override_agent_id;
    if (!agentId) return reply(400, error('No agent bound to from_number for outbound, and no override_agent_id given.'));
    if (options.agents && !Object.hasOwn(options.agents, agentId)) return reply(422, error('Cannot find requested asset under given api key.'));
    const script = scripts.get(body.to_number) ?? options.defaultOutcome ?? 'interested';
    if (script === 'refuse' || (options.maxConcurrent !== undefined && active() >= options.maxConcurrent)) {
      fake.refusals++;
      return reply(429, error('Concurrency limit reached, please upgrade your plan or reduce concurrent calls.'));
    }
    const webhookUrl = body.agent_override?.agent?.webhook_url ?? options.agents?.[agentId]?.webhook_url ?? options.webhookUrl;
    const leg = sip.dial(body.from_number, body.to_number);
    reply(201, startCall({ body, agentId, direction: 'outbound', webhookUrl, events: eventsOf(body, agentId), script, failure: leg && retellSipReason(leg.code) }));
  }

  /** filter_criteria.metadata (v3: [{key, op: 'eq', value}]) and sort_order on start; limit. */
  function listCalls(body: Record<string, unknown>): PhoneCallResponse[] {
    const criteria = (body.filter_criteria ?? {}) as { metadata?: { key?: string; op?: string; value?: unknown }[] };
    let list = [...calls.values()].map((r) => r.call);
    for (const f of criteria.metadata ?? []) {
      if (f.op === 'eq' && f.key) list = list.filter((c) => (c.metadata as Record<string, unknown>)?.[f.key!] === f.value);
    }
    if (body.sort_order !== 'ascending') list.reverse();
    return list.slice(0, typeof body.limit === 'number' ? body.limit : 50);
  }

  const fake: FakeRetell = {
    url: '', port: 0, sip, calls: [], peakConcurrency: 0, refusals: 0, deliveries: [], liveUpdates: [],
    script: (number, outcome) => void scripts.set(number, outcome),
    call: (id) => calls.get(id)?.call,
    async ring({ from, to, agentId }) {
      const body = JSON.stringify({ event: 'call_inbound', call_inbound: { ...(agentId ? { agent_id: agentId } : {}), from_number: from, to_number: to } });
      const res = await post(options.inboundWebhookUrl ?? options.webhookUrl, body, 'call_inbound', '');
      if (!res) return { status: 0, answer: null, callId: null };
      const answer = res.ok ? ((await res.json().catch(() => null)) as RetellInboundAnswer | null) : null;
      const inbound = answer?.call_inbound;
      const agent = inbound?.override_agent_id ?? agentId;
      // No agent from the answer nor on the number: Retell hangs up, no call is created.
      if (!res.ok || !agent) return { status: res.status, answer, callId: null };
      const call = startCall({
        body: { from_number: from, to_number: to, metadata: inbound?.metadata ?? {}, retell_llm_dynamic_variables: inbound?.dynamic_variables ?? {} },
        agentId: agent, direction: 'inbound', script: scripts.get(from) ?? options.defaultOutcome ?? 'interested',
        webhookUrl: inbound?.agent_override?.agent?.webhook_url ?? options.agents?.[agent]?.webhook_url ?? options.webhookUrl,
        events: eventsOf(inbound, agent),
      });
      return { status: res.status, answer, callId: call.call_id };
    },
    idle: async () => {
      await Promise.all([...calls.values()].map((r) => r.done));
    },
    close: () => new Promise<void>((resolve) => {
      closed = true;
      for (const r of calls.values()) r.timers.forEach(clearTimeout);
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (closed) return res.destroy();
      void handle(req, res, Buffer.concat(chunks).toString('utf8')).catch(() => {
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify(error('An unexpected server error occurred.')));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  fake.port = (server.address() as AddressInfo).port;
  fake.url = `http://127.0.0.1:${fake.port}`;
  return fake;
}

/** What was said, by outcome; the agent greets with the contact_name variable, as a Retell prompt would. */
function transcriptFor(script: RetellScript, vars: Record<string, string>): NonNullable<PhoneCallResponse['transcript_object']> {
  const name = vars.contact_name ?? 'there';
  const lines: ['agent' | 'user', string][] = script === 'voicemail'
    ? [['agent', `Hi ${name}, sorry I missed you, I will call back later.`]]
    : [['agent', `Hi ${name}, do you have a minute?`], ['user', script === 'not_interested' ? 'No thanks, not interested.' : 'Yes, tell me more, I am interested.']];
  return lines.map(([role, content]) => ({ role, content, words: [] }));
}
