import { createServer, type IncomingMessage } from 'node:http';
import { sipInvite } from './sip-uac.ts';
import type { AddressInfo } from 'node:net';
import { type CallEnv, type LiveCall, interrupt, isFinal, runInbound, runOutbound } from './twilio-call.ts';
import { sleep } from './twilio-http.ts';
import type { CallResource, FakeCallee, FakeTwilio, FakeTwilioCall, FakeTwilioOptions } from './twilio-types.ts';
import { API_VERSION, DEFAULT_CALLEE, E164, SIP_TO, newSid, rfc2822, twilioError } from './twilio-types.ts';
import { createMediaStreams } from './twilio-media.ts';

export * from './twilio-types.ts';

/**
 * A fake Twilio on 127.0.0.1: the 2010-04-01 Calls API (Basic auth, form parameters, Twilio's JSON
 * errors, a concurrency and a calls-per-second limit answered with 20429) and calls that run in
 * (scaled) real time: signed status, voice URL, <Connect action>, async AMD and recording requests
 * to the app, and a ConversationRelay WebSocket to the app driven by a scripted callee.
 */
type Answer = { status: number; body: unknown; type?: string };

const AUDIO = {
  wav: Buffer.concat([Buffer.from('RIFF$\0\0\0WAVEfmt \x10\0\0\0\x01\0\x01\0\x40\x1f\0\0\x80\x3e\0\0\x02\0\x10\0data\0\0\0\0', 'latin1')]),
  mp3: Buffer.concat([Buffer.from([0xff, 0xfb, 0x90, 0x64]), Buffer.alloc(413)]),
};

export async function startFakeTwilio(options: FakeTwilioOptions): Promise<FakeTwilio> {
  const { accountSid, authToken } = options;
  const maxConcurrent = options.maxConcurrent ?? 100;
  const callsPerSecond = options.callsPerSecond ?? 0;
  const timeScale = options.timeScale ?? 1;
  const t0 = Date.now();
  const byId = new Map<string, LiveCall>();
  const created: number[] = [];
  let active = 0;
  const env: CallEnv = {
    accountSid, authToken, timeScale,
    baseUrl: () => fake.url,
    price: options.price ?? '-0.0140',
    ringMs: options.ringMs ?? 300,
    replyTimeoutMs: options.replyTimeoutMs ?? 5000,
    machineHoldMs: options.machineHoldMs ?? 30_000,
    scale: (ms) => ms / timeScale,
    reported: (ms = Date.now()) => t0 + (ms - t0) * timeScale,
    recordings: new Set(),
    onFinal: () => { active--; },
  };
  const base = `/${API_VERSION}/Accounts/${accountSid}`;
  const media = createMediaStreams({ accountSid, authToken });

  const fake: FakeTwilio = {
    url: '', port: 0, accountSid, authToken, calls: [], refusals: 0, sipAnswers: [],
    placeInboundCall: (input) => placeInbound(input),
    waitForCall: async (match, timeoutMs = 5000) => {
      const test = typeof match === 'string' ? (c: FakeTwilioCall) => c.sid === match : match;
      for (const until = Date.now() + timeoutMs; Date.now() < until; await sleep(10)) {
        const found = fake.calls.find(test);
        if (found) return found;
      }
      throw new Error(`fake Twilio: no such call within ${timeoutMs} ms`);
    },
    idle: async () => { await Promise.all(fake.calls.map((c) => c.done)); },
    streamsOf: (callSid) => media.streamsOf(callSid),
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };

  function newCall(input: { to: string; from: string; direction: FakeTwilioCall['direction']; params: Record<string, string>; callee: FakeCallee }): LiveCall {
    const sid = newSid('CA');
    const now = rfc2822(env.reported());
    const uri = `${base}/Calls/${sid}`;
    const sub = ['events', 'feedback', 'feedback_summaries', 'notifications', 'payments', 'recordings', 'siprec', 'streams', 'transcriptions', 'user_defined_message_subscriptions', 'user_defined_messages'];
    const resource: CallResource = {
      sid, date_created: now, date_updated: now, parent_call_sid: null, account_sid: accountSid,
      to: input.to, to_formatted: input.to, from: input.from, from_formatted: input.from, phone_number_sid: null,
      status: input.direction === 'inbound' ? 'ringing' : 'queued', start_time: null, end_time: null, duration: null,
      price: null, price_unit: 'USD', direction: input.direction, answered_by: null, api_version: API_VERSION,
      forwarded_from: null, group_sid: null, caller_name: null, queue_time: '0', trunk_sid: null, uri: `${uri}.json`,
      subresource_uris: Object.fromEntries(sub.map((s) => [s, `${uri}/${s.replace(/_(\w)/g, (_, c: string) => c.toUpperCase()).replace(/^\w/, (c) => c.toUpperCase())}.json`])),
    };
    const call: FakeTwilioCall = {
      sid, direction: input.direction, params: input.params, callee: input.callee, resource,
      get status() { return resource.status ?? 'queued'; },
      twiml: [], said: [], updates: [], callbacks: [], done: Promise.resolve(),
    };
    const live: LiveCall = { call, ctl: new AbortController(), answeredAt: null, seq: 0, final: false, pending: new Set(), next: null };
    fake.calls.push(call);
    byId.set(sid, live);
    active++;
    return live;
  }

  function track(live: LiveCall, run: Promise<void>) {
    live.call.done = run.then(async () => { await Promise.all(live.pending); });
  }

  async function placeInbound(input: { from: string; to: string; voiceUrl: string; method?: string; callee?: FakeCallee; statusCallback?: string }) {
    const callee = input.callee ?? options.callees?.(input.from) ?? DEFAULT_CALLEE;
    const live = newCall({ to: input.to, from: input.from, direction: 'inbound', params: { From: input.from, To: input.to, Url: input.voiceUrl, ...(input.statusCallback ? { StatusCallback: input.statusCallback, StatusCallbackMethod: 'POST' } : {}) }, callee });
    await new Promise<void>((fetched) => track(live, runInbound(env, live, input.voiceUrl, input.method, fetched)));
    return live.call;
  }

  function createCall(params: Record<string, string>): Answer {
    const bad = (code: number, message: string) => ({ status: 400, body: twilioError(400, code, message) });
    if (!params.To) return bad(21201, "No 'To' number is specified");
    if (!params.From) return bad(21213, "No 'From' number is specified");
    if (!params.Url && !params.Twiml) return bad(21205, 'Url parameter is required. Please specify either a Url, Twiml or an ApplicationSid.');
    if (params.Url && !/^https?:\/\/[^\s]+$/.test(params.Url)) return bad(21205, `Url is not a valid URL: ${params.Url}`);
    const sip = params.To.startsWith('sip');
    if (sip ? params.To.length >= 255 || !SIP_TO.test(params.To) : !E164.test(params.To)) return bad(21211, `Invalid 'To' Phone Number: ${params.To}`);
    if (!sip && (params.SipAuthUsername || params.SipAuthPassword)) return bad(21211, 'SipAuthUsername and SipAuthPassword are only for a SIP To');
    if (!E164.test(params.From)) return bad(21212, `Invalid 'From' Phone Number: ${params.From}`);
    const events = (params.StatusCallbackEvent ?? '').split(' ').filter(Boolean);
    if (events.some((e) => !['initiated', 'ringing', 'answered', 'completed'].includes(e))) return bad(21626, "Invalid 'StatusCallbackEvent'");
    while (created.length && created[0]! < Date.now() - 1000) created.shift();
    if (active >= maxConcurrent || (callsPerSecond > 0 && created.length >= callsPerSecond)) {
      fake.refusals++;
      return { status: 429, body: twilioError(429, 20429, 'Too Many Requests') };
    }
    created.push(Date.now());
    let callee = options.callees?.(params.To) ?? DEFAULT_CALLEE;
    // The far end of a SIP call challenges the INVITE: without its credentials it answers 403.
    const host = sip ? /@([^:;]+)/.exec(params.To)?.[1] ?? /^sip:([^:;]+)/.exec(params.To)![1]! : '';
    const target = sip ? options.sipTargets?.[host] : undefined;
    const challenge = sip && !target ? options.sipAuth?.[host] : undefined;
    if (challenge && (params.SipAuthUsername !== challenge.username || params.SipAuthPassword !== challenge.password)) callee = { ...callee, sipCode: 403 };
    const live = newCall({ to: params.To, from: params.From, direction: 'outbound-api', params, callee });
    if (!target) track(live, runOutbound(env, live));
    else {
      // The real far end answers the INVITE; its final code decides the call as a scripted one would.
      const auth = params.SipAuthUsername ? { username: params.SipAuthUsername, password: params.SipAuthPassword ?? '' } : null;
      track(live, sipInvite({ target, uri: params.To.replace(/;.*$/, ''), from: params.From, auth }).then((code) => {
        live.call.callee = { ...live.call.callee, sipCode: code };
        fake.sipAnswers.push({ to: params.To!, code });
        return runOutbound(env, live);
      }));
    }
    return { status: 201, body: live.call.resource };
  }

  /** Twilio's call Recordings API: one recording of a call in progress (a call recorded from its start, or already, is refused). */
  function startRecording(live: LiveCall, params: Record<string, string>): Answer {
    const call = live.call;
    if (call.status !== 'in-progress') return { status: 400, body: twilioError(400, 21220, 'Call is not in-progress. Cannot create a recording.') };
    if (call.params.Record === 'true' || call.apiRecording) return { status: 400, body: twilioError(400, 21220, 'Call is already being recorded.') };
    if (params.RecordingStatusCallback && !/^https?:\/\//.test(params.RecordingStatusCallback)) return { status: 400, body: twilioError(400, 21609, 'RecordingStatusCallback is not a valid URL') };
    call.apiRecording = { sid: newSid('RE'), params, startedAt: Date.now() };
    return {
      status: 201,
      body: {
        sid: call.apiRecording.sid, account_sid: accountSid, call_sid: call.sid, status: 'in-progress', source: 'StartCallRecordingAPI', channels: 1, track: 'both',
        start_time: rfc2822(Date.now()), uri: `${base}/Calls/${call.sid}/Recordings/${call.apiRecording.sid}.json`,
      },
    };
  }

  async function updateCall(live: LiveCall, params: Record<string, string>): Promise<Answer> {
    const { call } = live;
    call.updates.push(params);
    if (params.Status !== undefined) {
      if (params.Status !== 'completed' && params.Status !== 'canceled') return { status: 400, body: twilioError(400, 20001, `Invalid Status: ${params.Status}. Must be one of canceled, completed`) };
      // Canceling an answered call has no effect; completing a call not yet answered cancels it.
      if (!isFinal(call.status) && !(params.Status === 'canceled' && call.status === 'in-progress')) {
        interrupt(live, call.status === 'in-progress' ? { kind: 'hangup' } : { kind: 'cancel' });
        for (const until = Date.now() + 2000; !live.final && Date.now() < until;) await sleep(10);
      }
      return { status: 200, body: call.resource };
    }
    if (params.Twiml !== undefined || params.Url !== undefined) {
      if (call.status !== 'in-progress') return { status: 400, body: twilioError(400, 21220, 'Call is not in-progress. Cannot redirect.') };
      interrupt(live, params.Twiml !== undefined ? { kind: 'twiml', twiml: params.Twiml } : { kind: 'url', url: params.Url!, ...(params.Method ? { method: params.Method } : {}) });
    }
    return { status: 200, body: call.resource };
  }

  function listCalls(query: URLSearchParams): Answer {
    const pageSize = Math.min(Number(query.get('PageSize') ?? 50) || 50, 1000);
    const calls = fake.calls.map((c) => c.resource).filter((r) =>
      (!query.get('To') || r.to === query.get('To')) && (!query.get('From') || r.from === query.get('From')) && (!query.get('Status') || r.status === query.get('Status')),
    ).reverse().slice(0, pageSize);
    const uri = `${base}/Calls.json?PageSize=${pageSize}&Page=0`;
    return { status: 200, body: { calls, start: 0, end: Math.max(calls.length - 1, 0), page: 0, page_size: pageSize, uri, first_page_uri: uri, next_page_uri: null, previous_page_uri: null } };
  }

  async function route(req: IncomingMessage, raw: string): Promise<Answer> {
    const url = new URL(req.url ?? '/', 'http://fake');
    const notFound = { status: 404, body: twilioError(404, 20404, `The requested resource ${url.pathname} was not found`) };
    const [user, pass] = Buffer.from((req.headers.authorization ?? '').replace(/^Basic /, ''), 'base64').toString().split(':');
    if (user !== accountSid || pass !== authToken || !url.pathname.startsWith(`${base}/`)) {
      return url.pathname.startsWith(`/${API_VERSION}/`) ? { status: 401, body: twilioError(401, 20003, 'Authenticate') } : notFound;
    }
    const form = new URLSearchParams(String(req.headers['content-type']).includes('x-www-form-urlencoded') ? raw : '');
    const params: Record<string, string> = {};
    // Repeated keys (StatusCallbackEvent=initiated&StatusCallbackEvent=ringing) read as Twilio's space-separated list.
    for (const [k, v] of form) params[k] = params[k] === undefined ? v : `${params[k]} ${v}`;
    const rest = url.pathname.slice(base.length);
    if (rest === '/Calls.json') {
      if (req.method === 'POST') return createCall(params);
      if (req.method === 'GET') return listCalls(url.searchParams);
    }
    const streamCall = /^\/Calls\/(CA[0-9a-f]{32})\/Streams/.exec(rest);
    if (streamCall) {
      const live = byId.get(streamCall[1]!);
      const answer = live && req.method === 'POST' ? media.route(live, rest, params) : null;
      return answer ?? notFound;
    }
    const recordingOf = /^\/Calls\/(CA[0-9a-f]{32})\/Recordings\.json$/.exec(rest);
    if (recordingOf) {
      const live = byId.get(recordingOf[1]!);
      return live && req.method === 'POST' ? startRecording(live, params) : notFound;
    }
    const one = /^\/Calls\/(CA[0-9a-f]{32})\.json$/.exec(rest);
    const live = one ? byId.get(one[1]!) : undefined;
    if (one && !live) return notFound;
    if (live && req.method === 'GET') return { status: 200, body: live.call.resource };
    if (live && req.method === 'POST') return updateCall(live, params);
    const recording = /^\/Recordings\/(RE[0-9a-f]{32})(\.mp3|\.wav)?$/.exec(rest);
    if (recording && req.method === 'GET' && env.recordings.has(recording[1]!)) {
      // Twilio serves WAV at the bare RecordingUrl and MP3 with .mp3 appended.
      const mp3 = recording[2] === '.mp3';
      return { status: 200, body: mp3 ? AUDIO.mp3 : AUDIO.wav, type: mp3 ? 'audio/mpeg' : 'audio/x-wav' };
    }
    return notFound;
  }

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void route(req, Buffer.concat(chunks).toString('utf8')).then((answer) => {
        const binary = Buffer.isBuffer(answer.body);
        res.writeHead(answer.status, { 'content-type': answer.type ?? 'application/json; charset=utf-8', 'twilio-request-id': newSid('RQ') });
        res.end(binary ? answer.body as Buffer : JSON.stringify(answer.body));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  fake.port = (server.address() as AddressInfo).port;
  fake.url = `http://127.0.0.1:${fake.port}`;
  return fake;
}
