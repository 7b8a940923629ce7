import { randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ChatCompletion, ChatCompletionChunk, ChatCompletionCreateParams } from 'openai/resources/chat/completions';

/**
 * A fake OpenAI-compatible chat-completions server on 127.0.0.1. With `stream: true` it answers
 * server-sent events in OpenAI's format: a role chunk, content tokens, tool calls streamed as
 * OpenAI does (id and name with empty arguments, then argument fragments), a finish chunk, a usage
 * chunk when stream_options.include_usage, then `data: [DONE]`. A client that goes away mid-stream
 * is counted and no longer written to.
 */
export interface FakeLlmTurn {
  tokens?: string[];
  toolCalls?: { name: string; arguments: object }[];
  /** Between two streamed chunks. */
  tokenDelayMs?: number;
  /** An HTTP error instead of an answer (with `error` as its message). */
  status?: number;
  error?: string;
}

export interface FakeStreamingLlmOptions {
  port?: number;
  /** When set, requests must carry `Authorization: Bearer <apiKey>`. */
  apiKey?: string;
  /** Before the first chunk (time to first token). */
  firstTokenDelayMs?: number;
}

export interface SeenRequest {
  path: string;
  headers: IncomingHttpHeaders;
  body: ChatCompletionCreateParams & Record<string, unknown>;
  /** The client closed the request before the stream ended. */
  aborted: boolean;
}

export interface FakeStreamingLlm {
  /** Base URL for an OpenAI client (ends in /v1). */
  url: string;
  seen: SeenRequest[];
  aborted(): number;
  close(): Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const openAiError = (message: string, type: string, code: string | null = null) => ({ error: { message, type, param: null, code } });

export async function startFakeStreamingLlm(script: (body: SeenRequest['body']) => FakeLlmTurn, options: FakeStreamingLlmOptions = {}): Promise<FakeStreamingLlm> {
  const seen: SeenRequest[] = [];
  let aborted = 0;

  function json(res: ServerResponse, status: number, body: unknown) {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  }

  async function stream(res: ServerResponse, request: SeenRequest, turn: FakeLlmTurn, base: Omit<ChatCompletionChunk, 'choices'>) {
    let gone = false;
    res.on('close', () => {
      if (res.writableEnded) return;
      gone = true;
      request.aborted = true;
      aborted++;
    });
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive' });
    const delay = turn.tokenDelayMs ?? 0;
    const send = async (chunk: ChatCompletionChunk, wait: number) => {
      if (wait) await sleep(wait);
      if (!gone) res.write(`data: ${JSON.stringify(chunk)}\n\n`);
    };
    const choice = (delta: ChatCompletionChunk.Choice.Delta, finish: ChatCompletionChunk.Choice['finish_reason'] = null): ChatCompletionChunk =>
      ({ ...base, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] });
    await send(choice({ role: 'assistant', content: '', refusal: null }), options.firstTokenDelayMs ?? 0);
    for (const token of turn.tokens ?? []) await send(choice({ content: token }), delay);
    for (const [index, call] of (turn.toolCalls ?? []).entries()) {
      await send(choice({ tool_calls: [{ index, id: `call_${randomBytes(12).toString('hex')}`, type: 'function', function: { name: call.name, arguments: '' } }] }), delay);
      const args = JSON.stringify(call.arguments);
      for (let i = 0; i < args.length; i += 8) await send(choice({ tool_calls: [{ index, function: { arguments: args.slice(i, i + 8) } }] }), delay);
    }
    await send(choice({}, turn.toolCalls?.length ? 'tool_calls' : 'stop'), delay);
    const streamOptions = request.body.stream_options as { include_usage?: boolean } | undefined;
    if (streamOptions?.include_usage) await send({ ...base, choices: [], usage: usage(turn) }, 0);
    if (gone) return;
    res.write('data: [DONE]\n\n');
    res.end();
  }

  const usage = (turn: FakeLlmTurn) => {
    const completion = (turn.tokens?.length ?? 0) + (turn.toolCalls?.length ?? 0) * 10;
    return { prompt_tokens: 50, completion_tokens: completion, total_tokens: 50 + completion };
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = new URL(req.url ?? '/', 'http://fake').pathname;
      if (req.method !== 'POST' || path !== '/v1/chat/completions') return json(res, 404, openAiError(`Invalid URL (${req.method} ${path})`, 'invalid_request_error'));
      if (options.apiKey && req.headers.authorization !== `Bearer ${options.apiKey}`) {
        return json(res, 401, openAiError('Incorrect API key provided. You can find your API key at https://platform.openai.com/account/api-keys.', 'invalid_request_error', 'invalid_api_key'));
      }
      let body: SeenRequest['body'];
      try { body = JSON.parse(Buffer.concat(chunks).toString('utf8')); } catch {
        return json(res, 400, openAiError('We could not parse the JSON body of your request.', 'invalid_request_error'));
      }
      const request: SeenRequest = { path, headers: req.headers, body, aborted: false };
      seen.push(request);
      if (!Array.isArray(body.messages) || typeof body.model !== 'string') return json(res, 400, openAiError("'messages' and 'model' are required properties", 'invalid_request_error'));
      const turn = script(body);
      if (turn.status && turn.status >= 400) {
        return json(res, turn.status, openAiError(turn.error ?? 'The server had an error while processing your request.', turn.status >= 500 ? 'server_error' : 'invalid_request_error'));
      }
      const base = { id: `chatcmpl-${randomBytes(12).toString('hex')}`, created: Math.floor(Date.now() / 1000), model: body.model };
      if (body.stream) return void stream(res, request, turn, { ...base, object: 'chat.completion.chunk' });
      const toolCalls = (turn.toolCalls ?? []).map((c) => ({ id: `call_${randomBytes(12).toString('hex')}`, type: 'function' as const, function: { name: c.name, arguments: JSON.stringify(c.arguments) } }));
      const completion: ChatCompletion = {
        ...base, object: 'chat.completion', usage: usage(turn),
        choices: [{
          index: 0, logprobs: null, finish_reason: toolCalls.length ? 'tool_calls' : 'stop',
          message: { role: 'assistant', content: turn.tokens?.join('') ?? null, refusal: null, ...(toolCalls.length ? { tool_calls: toolCalls } : {}) },
        }],
      };
      setTimeout(() => json(res, 200, completion), options.firstTokenDelayMs ?? 0);
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    seen,
    aborted: () => aborted,
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}
