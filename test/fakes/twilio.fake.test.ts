import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import OpenAI from 'openai';
import twilio from 'twilio';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocketServer, type WebSocket } from 'ws';
import { startFakeStreamingLlm } from './llm-stream.ts';
import { startFakeTwilio, type FakeCallee, type FakeTwilio } from './twilio.ts';

const ACCOUNT = `AC${'0'.repeat(32)}`;
const TOKEN = 'test-token';
const auth = `Basic ${Buffer.from(`${ACCOUNT}:${TOKEN}`).toString('base64')}`;

/** A tiny app in the service's place: TwiML with ConversationRelay, an answer per prompt, signature checks. */
async function startApp(fake: () => FakeTwilio) {
  const requests: { path: string; params: Record<string, string>; valid: boolean }[] = [];
  const relayMessages: Record<string, unknown>[] = [];
  let relayValid: boolean | null = null;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const params = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString()));
      const url = `${base}${req.url}`;
      const path = new URL(url).pathname;
      requests.push({ path, params, valid: twilio.validateRequest(TOKEN, String(req.headers['x-twilio-signature']), url, params) });
      let body = '';
      if (path === '/twiml') {
        body = `<?xml version="1.0" encoding="UTF-8"?><Response><Connect action="${base}/action"><ConversationRelay url="${base.replace('http', 'ws')}/relay?campaign=c1&amp;x=2" welcomeGreeting="Hello from the app"><Parameter name="contactId" value="k1"/></ConversationRelay></Connect></Response>`;
      } else if (path === '/action') {
        body = params.HandoffData?.includes('transfer') ? '<Response><Dial>+15550001111</Dial></Response>' : '<Response><Hangup/></Response>';
      } else if (path === '/amd' && params.AnsweredBy?.startsWith('machine')) {
        void fetch(`${fake().url}/2010-04-01/Accounts/${ACCOUNT}/Calls/${params.CallSid}.json`, {
          method: 'POST', headers: { authorization: auth, 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ Twiml: '<Response><Say>Sorry we missed you.</Say></Response>' }),
        }).catch(() => undefined);
      }
      res.writeHead(200, { 'content-type': 'text/xml' });
      res.end(body);
    });
  });
  const wss = new WebSocketServer({ server, path: '/relay' });
  wss.on('connection', (ws: WebSocket, req) => {
    relayValid = twilio.validateRequest(TOKEN, String(req.headers['x-twilio-signature']), `${base.replace('http', 'ws')}${req.url}`, {});
    // The answer being streamed; an interrupt stops it, as a ConversationRelay app must.
    let answer = { interrupted: false };
    ws.on('message', async (data) => {
      const m = JSON.parse(data.toString()) as Record<string, unknown>;
      relayMessages.push(m);
      if (m.type === 'interrupt') answer.interrupted = true;
      if (m.type !== 'prompt') return;
      const said = String(m.voicePrompt);
      if (said.includes('transfer')) return ws.send(JSON.stringify({ type: 'end', handoffData: JSON.stringify({ reason: 'transfer' }) }));
      const mine = (answer = { interrupted: false });
      const tokens = said.includes('story') ? Array.from({ length: 10 }, (_, i) => `word${i} `) : ['You ', 'said: ', said];
      for (const [i, token] of tokens.entries()) {
        await new Promise((r) => setTimeout(r, said.includes('story') ? 20 : 1));
        if (mine.interrupted) return;
        if (ws.readyState === ws.OPEN) ws.send(JSON.stringify({ type: 'text', token, last: i === tokens.length - 1 }));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { base, requests, relayMessages, relayValid: () => relayValid, close: () => new Promise<void>((r) => { wss.close(); server.closeAllConnections(); server.close(() => r()); }) };
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => { while (cleanups.length) await cleanups.pop()!(); });

async function setup(callee: FakeCallee | undefined, extra: { maxConcurrent?: number } = {}) {
  let fake: FakeTwilio | undefined;
  const app = await startApp(() => fake!);
  fake = await startFakeTwilio({ accountSid: ACCOUNT, authToken: TOKEN, timeScale: 20, replyTimeoutMs: 1000, machineHoldMs: 20_000, ...(callee ? { callees: () => callee } : {}), ...extra });
  cleanups.push(app.close, fake.close);
  const create = (params: Record<string, string | string[]>, authorization = auth) => {
    const form = new URLSearchParams();
    for (const [k, v] of Object.entries(params)) for (const one of [v].flat()) form.append(k, one);
    return fetch(`${fake!.url}/2010-04-01/Accounts/${ACCOUNT}/Calls.json`, { method: 'POST', headers: { authorization, 'content-type': 'application/x-www-form-urlencoded' }, body: form });
  };
  const callParams = {
    To: '+15551230001', From: '+15550009999', Url: `${app.base}/twiml`, StatusCallback: `${app.base}/status`,
    StatusCallbackEvent: ['initiated', 'ringing', 'answered', 'completed'], Record: 'true', RecordingStatusCallback: `${app.base}/recording`,
  };
  return { fake, app, create, callParams };
}

describe('fake Twilio', () => {
  it('places a call that runs a ConversationRelay session with signed callbacks in order and a recording', async () => {
    const { fake, app, create, callParams } = await setup(undefined);
    const res = await create(callParams);
    expect(res.status).toBe(201);
    const created = await res.json() as { sid: string; status: string; direction: string; price: null };
    expect(created).toMatchObject({ status: 'queued', direction: 'outbound-api', price: null });
    expect(created.sid).toMatch(/^CA[0-9a-f]{32}$/);
    const call = await fake.waitForCall(created.sid);
    await call.done;
    expect(app.requests.every((r) => r.valid)).toBe(true);
    expect(app.relayValid()).toBe(true);
    const statuses = app.requests.filter((r) => r.path === '/status');
    expect(statuses.map((r) => r.params.CallStatus)).toEqual(['initiated', 'ringing', 'in-progress', 'completed']);
    expect(statuses.map((r) => r.params.SequenceNumber)).toEqual(['0', '1', '2', '3']);
    expect(statuses[3]!.params).toMatchObject({ CallbackSource: 'call-progress-events', ApiVersion: '2010-04-01', Direction: 'outbound-api' });
    expect(call.relay!.setup).toMatchObject({ type: 'setup', callSid: call.sid, accountSid: ACCOUNT, customParameters: { contactId: 'k1' } });
    expect(call.relay!.heard).toEqual(['Hello from the app', 'You said: Yes, I am interested.']);
    expect(call.relay!.endedBy).toBe('callee');
    expect(app.relayMessages.find((m) => m.type === 'prompt')).toMatchObject({ voicePrompt: 'Yes, I am interested.', lang: 'en-US', last: true });
    const recording = app.requests.find((r) => r.path === '/recording')!;
    expect(recording.params).toMatchObject({ CallSid: call.sid, RecordingStatus: 'completed', RecordingSource: 'OutboundAPI' });
    const audio = await fetch(`${recording.params.RecordingUrl}.mp3`, { headers: { authorization: auth } });
    expect(audio.headers.get('content-type')).toBe('audio/mpeg');
    const now = await (await fetch(`${fake.url}/2010-04-01/Accounts/${ACCOUNT}/Calls/${call.sid}.json`, { headers: { authorization: auth } })).json();
    expect(now).toMatchObject({ status: 'completed', price: '-0.0140', price_unit: 'USD' });
  });

  it('refuses bad credentials, a bad number and calls over the concurrency limit as Twilio does', async () => {
    const { create, callParams } = await setup(undefined, { maxConcurrent: 1 });
    const unauthorized = await create(callParams, `Basic ${Buffer.from(`${ACCOUNT}:wrong`).toString('base64')}`);
    expect(unauthorized.status).toBe(401);
    expect(await unauthorized.json()).toMatchObject({ code: 20003, message: 'Authenticate', status: 401 });
    const badTo = await create({ ...callParams, To: '555-1234' });
    expect(await badTo.json()).toMatchObject({ code: 21211, status: 400 });
    expect((await create(callParams)).status).toBe(201);
    const over = await create(callParams);
    expect(over.status).toBe(429);
    expect(await over.json()).toMatchObject({ code: 20429, message: 'Too Many Requests', status: 429 });
  });

  it('interrupts a long answer and sends the callee words after it', async () => {
    const { fake, app, create, callParams } = await setup({ answer: 'human', steps: [{ say: 'Tell me a story' }, { say: 'Stop there', interruptAfterTokens: 3 }, { hangup: true }] });
    const { sid } = await (await create(callParams)).json() as { sid: string };
    const call = await fake.waitForCall(sid);
    await call.done;
    expect(call.relay!.interrupts[0]!.utteranceUntilInterrupt).toBe('word0 word1 word2 ');
    expect(app.relayMessages.map((m) => m.type)).toEqual(['setup', 'prompt', 'interrupt', 'prompt']);
    // The answer to the words after the interrupt is heard whole. A story word the app sent before
    // the interrupt reached it (a loaded machine delays timers) may still be spoken just before it.
    expect(call.relay!.heard.filter((h) => h.includes('You said'))).toHaveLength(1);
    expect(call.relay!.heard.find((h) => h.includes('You said'))).toMatch(/(^|word\d )You said: Stop there$/);
  });

  it('posts the Connect action with the handoff data after `end` and dials the number it answers', async () => {
    const { fake, app, create, callParams } = await setup({ answer: 'human', steps: [{ say: 'Please transfer me' }, { hangup: true }], dropCompleted: true });
    const { sid } = await (await create(callParams)).json() as { sid: string };
    const call = await fake.waitForCall(sid);
    await call.done;
    expect(app.requests.find((r) => r.path === '/action')!.params).toMatchObject({ SessionStatus: 'ended', HandoffData: '{"reason":"transfer"}', CallSid: sid });
    expect(call.transferTo).toBe('+15550001111');
    expect(call.status).toBe('completed');
    // dropCompleted: the completed callback is lost.
    expect(app.requests.filter((r) => r.path === '/status').map((r) => r.params.CallStatus)).toEqual(['initiated', 'ringing', 'in-progress']);
  });

  it('reports a machine through async AMD and plays the TwiML the app updates the call with', async () => {
    const { fake, app, create, callParams } = await setup({ answer: 'machine' });
    const res = await create({ ...callParams, MachineDetection: 'DetectMessageEnd', AsyncAmd: 'true', AsyncAmdStatusCallback: `${app.base}/amd` });
    const call = await fake.waitForCall(((await res.json()) as { sid: string }).sid);
    await call.done;
    expect(app.requests.find((r) => r.path === '/amd')!.params.AnsweredBy).toBe('machine_end_beep');
    expect(call.said).toEqual(['Sorry we missed you.']);
    expect(call.relay!.endedBy).toBe('twilio');
    expect(call.resource.answered_by).toBe('machine_end_beep');
  });
});

describe('fake streaming LLM', () => {
  it('streams chunks that the OpenAI client reads back into content and a tool call', async () => {
    const llm = await startFakeStreamingLlm(() => ({ tokens: ['Hel', 'lo'], toolCalls: [{ name: 'end_call', arguments: { reason: 'done', score: 3 } }] }), { apiKey: 'k' });
    cleanups.push(llm.close);
    const client = new OpenAI({ baseURL: llm.url, apiKey: 'k', maxRetries: 0 });
    const stream = await client.chat.completions.create({ model: 'm', stream: true, messages: [{ role: 'user', content: 'hi' }] });
    let content = '';
    const args: string[] = [];
    let name = '';
    for await (const chunk of stream) {
      content += chunk.choices[0]?.delta.content ?? '';
      for (const t of chunk.choices[0]?.delta.tool_calls ?? []) { name ||= t.function?.name ?? ''; args[t.index] = (args[t.index] ?? '') + (t.function?.arguments ?? ''); }
    }
    expect(content).toBe('Hello');
    expect(name).toBe('end_call');
    expect(JSON.parse(args[0]!)).toEqual({ reason: 'done', score: 3 });
    await expect(new OpenAI({ baseURL: llm.url, apiKey: 'bad', maxRetries: 0 }).chat.completions.create({ model: 'm', messages: [] })).rejects.toMatchObject({ status: 401 });
  });

  it('counts a stream the client abandons and stops writing to it', async () => {
    const llm = await startFakeStreamingLlm(() => ({ tokens: ['a', 'b', 'c', 'd', 'e'], tokenDelayMs: 30 }));
    cleanups.push(llm.close);
    const abort = new AbortController();
    const stream = await new OpenAI({ baseURL: llm.url, apiKey: 'k', maxRetries: 0 }).chat.completions.create({ model: 'm', stream: true, messages: [] }, { signal: abort.signal });
    for await (const chunk of stream) if (chunk.choices[0]?.delta.content === 'a') abort.abort();
    await new Promise((r) => setTimeout(r, 100));
    expect(llm.aborted()).toBe(1);
    expect(llm.seen[0]!.aborted).toBe(true);
  });
});
