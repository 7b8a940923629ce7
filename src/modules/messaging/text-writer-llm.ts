import { countSegments } from '../../messaging/segments.ts';

/**
 * The text written by an OpenAI-compatible model (LLM_BASE_URL): from the campaign's message
 * prompt, the call's outcome and transcript, the contact's data and the conversation so far,
 * in the conversation's language, in at most two SMS segments.
 *
 * The model is not trusted with facts: every link and every price in its answer must appear
 * in what it was given (the prompt, the data, the transcript); otherwise the answer is refused
 * and the caller falls back to the template. A text longer than two segments is refused too.
 */
export interface LlmTextInput {
  baseUrl: string;
  apiKey?: string | undefined;
  model?: string | undefined;
  /** The campaign's message prompt (what to say, links and prices it may use). */
  prompt: string | null;
  purpose: string;
  /** Everything else the model may read (contact data, call outcome and transcript, thread). */
  context: Record<string, unknown>;
  timeoutMs?: number;
}

export type LlmTextResult = { ok: true; body: string } | { ok: false; why: string };

const MAX_SEGMENTS = 2;

const SYSTEM = [
  'You write one SMS from a business to a person, after or during a phone campaign.',
  'Write in the language of the conversation (the transcript and the person\'s messages); if there is none, in the language of the instructions.',
  `Keep it under ${MAX_SEGMENTS * 150} characters, plain text, no emoji.`,
  'Never include a link, a price, a phone number or a promise that is not written in the instructions or the data you are given.',
  'Do not mention that you are an AI unless asked. End follow-ups with "Reply STOP to opt out."',
  'Answer as JSON: {"message": "..."}',
].join('\n');

export async function writeTextWithLlm(input: LlmTextInput): Promise<LlmTextResult> {
  const endpoint = `${input.baseUrl.replace(/\/+$/, '')}/chat/completions`;
  const user = [
    `Purpose: ${input.purpose}`,
    input.prompt ? `Instructions:\n${input.prompt}` : 'Instructions: none beyond the rules.',
    `Data:\n${JSON.stringify(input.context)}`,
  ].join('\n\n');
  let response: Response;
  try {
    response = await fetch(endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(input.apiKey ? { authorization: `Bearer ${input.apiKey}` } : {}) },
      body: JSON.stringify({
        model: input.model,
        temperature: 0.3,
        messages: [{ role: 'system', content: SYSTEM }, { role: 'user', content: user }],
        response_format: {
          type: 'json_schema',
          json_schema: { name: 'text_message', strict: true, schema: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'], additionalProperties: false } },
        },
      }),
      signal: AbortSignal.timeout(input.timeoutMs ?? 30_000),
    });
  } catch (error) {
    return { ok: false, why: `LLM request failed: ${(error as Error).message}` };
  }
  const raw = await response.text().catch(() => '');
  if (!response.ok) return { ok: false, why: `LLM answered HTTP ${response.status}` };
  let body: unknown;
  try {
    const content = JSON.parse(raw).choices?.[0]?.message?.content;
    body = typeof content === 'string' ? JSON.parse(content).message : undefined;
  } catch {
    return { ok: false, why: 'LLM answer was not the JSON asked for' };
  }
  if (typeof body !== 'string' || !body.trim()) return { ok: false, why: 'LLM wrote no message' };
  const text = body.trim().replace(/\s+/g, ' ');
  const invented = inventedFacts(text, [input.prompt ?? '', JSON.stringify(input.context)].join('\n'));
  if (invented.length > 0) return { ok: false, why: `LLM wrote what it was not given: ${invented.join(', ')}` };
  const { segments } = countSegments(text);
  if (segments > MAX_SEGMENTS) return { ok: false, why: `LLM wrote ${segments} segments (at most ${MAX_SEGMENTS})` };
  return { ok: true, body: text };
}

const LINK = /\b(?:https?:\/\/|www\.)[^\s<>"')]+|\b[a-z0-9-]+(?:\.[a-z0-9-]+)*\.(?:com|net|org|io|co|us|uk|de|fr|es|it|info|biz|app|ly|me)(?:\/[^\s<>"')]*)?/gi;
const PRICE = /(?:[$€£¥]\s?\d[\d,.]*|\d[\d,.]*\s?(?:[$€£¥]|usd|eur|gbp|dollars?|euros?|pounds?)\b|\d[\d,.]*\s?%)/gi;

/** Links and prices in `text` that `source` does not contain (compared without case, spaces or trailing punctuation). */
export function inventedFacts(text: string, source: string): string[] {
  const norm = (s: string) => s.toLowerCase().replace(/\s+/g, '').replace(/^(https?:\/\/)?(www\.)?/, '').replace(/[.,;:!?/]+$/, '');
  const haystack = source.toLowerCase().replace(/\s+/g, '');
  const digits = (s: string) => s.replace(/[^\d.,]/g, '').replace(/[.,]+$/, '');
  const found: string[] = [];
  for (const m of text.matchAll(LINK)) if (!haystack.includes(norm(m[0]))) found.push(m[0]);
  for (const m of text.matchAll(PRICE)) {
    const amount = digits(m[0]);
    if (amount && !haystack.includes(amount)) found.push(m[0].trim());
  }
  return found;
}
