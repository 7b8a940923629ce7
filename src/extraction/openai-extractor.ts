import { ExtractionError, baseType, repairToSchema, type ExtractionInput, type Extractor, type PayloadSchema } from './extractor.ts';

export interface OpenAiOptions {
  baseUrl: string;
  apiKey?: string | undefined;
  model: string;
  timeoutMs?: number;
}

/**
 * OpenAI's strict structured output needs every property required and
 * additionalProperties false; a field the model cannot fill is expressed as null,
 * so every type becomes nullable. Only type, description and enum are carried over.
 */
export function strictSchemaOf(schema: PayloadSchema) {
  const properties: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(schema.properties)) {
    const prop: Record<string, unknown> = { type: [baseType(field), 'null'] };
    if (field.description) prop.description = field.description;
    if (field.enum) prop.enum = [...field.enum.filter((e) => e !== null), null];
    properties[name] = prop;
  }
  return { type: 'object', properties, required: Object.keys(properties), additionalProperties: false };
}

const SYSTEM_PROMPT = [
  'You extract structured data from the transcript of a phone call made by an AI assistant.',
  'Answer with one JSON object matching the given schema. Use only facts from the transcript, the contact data and the call data.',
  'When a field cannot be determined, set it to null. Never invent values.',
].join(' ');

/** The messages sent to the model: the API's context, nothing more. */
export function buildMessages(input: ExtractionInput) {
  const rules = Object.entries(input.instructions).filter(([, text]) => text.trim() !== '');
  const context = {
    transcript: input.transcript.map((t) => ({ role: t.role, text: t.text })),
    contact_data: input.contact,
    call: input.call,
  };
  const user = [
    rules.length > 0 ? `Rules per field:\n${rules.map(([field, text]) => `- ${field}: ${text}`).join('\n')}` : '',
    `Context:\n${JSON.stringify(context)}`,
  ].filter(Boolean).join('\n\n');
  return [
    { role: 'system', content: SYSTEM_PROMPT },
    { role: 'user', content: user },
  ];
}

/** Any server speaking OpenAI's chat-completions protocol (OpenAI, Ollama, vLLM, llama.cpp, LM Studio). */
export function createOpenAiExtractor(options: OpenAiOptions): Extractor {
  const endpoint = `${options.baseUrl.replace(/\/+$/, '')}/chat/completions`;
  return {
    name: 'llm',
    async extract(input) {
      const body = {
        model: options.model,
        messages: buildMessages(input),
        temperature: 0,
        response_format: { type: 'json_schema', json_schema: { name: 'webhook_payload', strict: true, schema: strictSchemaOf(input.schema) } },
      };
      const signals = [AbortSignal.timeout(options.timeoutMs ?? 60_000), ...(input.signal ? [input.signal] : [])];
      let response: Response;
      try {
        response = await fetch(endpoint, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}) },
          body: JSON.stringify(body),
          signal: AbortSignal.any(signals),
        });
      } catch (error) {
        throw new ExtractionError(`LLM request failed: ${(error as Error).message}`);
      }
      const text = await response.text().catch(() => '');
      if (!response.ok) throw new ExtractionError(`LLM answered HTTP ${response.status}: ${text.slice(0, 300)}`);
      let content: unknown;
      try {
        const answer = JSON.parse(text);
        if (answer?.usage) input.onUsage?.(answer.usage);
        const message = answer.choices?.[0]?.message;
        if (message?.refusal) throw new ExtractionError(`LLM refused: ${String(message.refusal).slice(0, 300)}`);
        content = typeof message?.content === 'string' ? JSON.parse(message.content) : undefined;
      } catch (error) {
        if (error instanceof ExtractionError) throw error;
        throw new ExtractionError(`LLM answer is not a JSON object: ${text.slice(0, 300)}`);
      }
      if (!content || typeof content !== 'object' || Array.isArray(content)) throw new ExtractionError(`LLM answer has no JSON object content: ${text.slice(0, 300)}`);
      return repairToSchema(input.schema, content, `llm:${options.model}`);
    },
  };
}
