import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import { agentTools, toolCallOf, type AgentBrain, type AgentOutput, type AgentTurnInput } from './agent-brain.ts';

/**
 * The agent's words from any OpenAI-compatible server (OpenAI, Ollama, vLLM, llama.cpp) as
 * streaming chat completions. Each content token is yielded the moment its chunk is read (the
 * caller forwards it to Twilio at once: the latency a caller hears); tool calls arrive in pieces
 * and are yielded whole, after the text, when the stream ends.
 */
export class LlmBrain implements AgentBrain {
  readonly kind = 'llm';
  private readonly endpoint: string;

  constructor(private readonly options: { baseUrl: string; apiKey?: string; model?: string; timeoutMs?: number }) {
    this.endpoint = `${options.baseUrl.replace(/\/+$/, '')}/chat/completions`;
  }

  async *reply(input: AgentTurnInput, signal: AbortSignal): AsyncIterable<AgentOutput> {
    const body = {
      model: input.model ?? this.options.model ?? 'default',
      stream: true,
      messages: [
        { role: 'system', content: input.system },
        ...(input.guidance ?? []).map((content) => ({ role: 'system', content: `Guidance from a supervisor (the caller does not hear it): ${content}` })),
        ...input.turns.map((t) => ({ role: t.role, content: t.text }))],
      tools: agentTools(input.canTransfer),
      ...(input.onUsage ? { stream_options: { include_usage: true } } : {}),
    };
    const response = await fetch(this.endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...(this.options.apiKey ? { authorization: `Bearer ${this.options.apiKey}` } : {}) },
      body: JSON.stringify(body),
      signal: AbortSignal.any([signal, AbortSignal.timeout(this.options.timeoutMs ?? 30_000)]),
    });
    if (!response.ok || !response.body) throw new Error(`LLM answered HTTP ${response.status}: ${(await response.text().catch(() => '')).slice(0, 300)}`);
    const tools = new Map<number, { name: string; args: string }>();
    for await (const chunk of serverSentEvents(response.body)) {
      if (chunk.usage) input.onUsage?.(chunk.usage);
      const choice = chunk.choices?.[0];
      const content = choice?.delta?.content;
      if (content) yield { type: 'text', token: content };
      for (const call of choice?.delta?.tool_calls ?? []) {
        const entry = tools.get(call.index) ?? { name: '', args: '' };
        entry.name += call.function?.name ?? '';
        entry.args += call.function?.arguments ?? '';
        tools.set(call.index, entry);
      }
    }
    for (const [, { name, args }] of [...tools].sort(([a], [b]) => a - b)) {
      let parsed: unknown = {};
      try {
        parsed = args ? JSON.parse(args) : {};
      } catch {
        continue;
      }
      const call = toolCallOf(name, parsed);
      if (call) yield { type: 'tool', call };
    }
  }
}

/** The `data:` lines of an event stream as chunks, up to `data: [DONE]`. */
async function* serverSentEvents(body: ReadableStream<Uint8Array>): AsyncIterable<ChatCompletionChunk> {
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const bytes of body) {
    buffer += decoder.decode(bytes, { stream: true });
    let end: number;
    while ((end = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, end).replace(/\r$/, '');
      buffer = buffer.slice(end + 1);
      if (!line.startsWith('data:')) continue;
      const data = line.slice(5).trim();
      if (data === '[DONE]') return;
      try {
        yield JSON.parse(data) as ChatCompletionChunk;
      } catch {
        // A line that is not JSON (a comment, a keep-alive) carries nothing to say.
      }
    }
  }
}
