import type { Vapi } from '@vapi-ai/server-sdk';

/**
 * What happens on a fake Vapi call, by scripted outcome: the ended reason, whether it is answered,
 * the conversation and Vapi's post-call analysis. Pure; test/fakes/vapi.ts plays it in real time.
 */
export const FAKE_VAPI_OUTCOMES = [
  'interested', 'not_interested', 'voicemail', 'busy', 'no_answer', 'refuse', 'lose_end', 'duplicate', 'out_of_order', 'private',
] as const;

/** What the person says on a `private` call: values redaction must never let through. */
export const PRIVATE_VALUES = { card: '4111 1111 1111 1111', iban: 'DE89 3704 0044 0532 0130 00', email: 'jo.private@example.org' } as const;
export type FakeVapiOutcome = (typeof FAKE_VAPI_OUTCOMES)[number];

export interface CallScript {
  answered: boolean;
  endedReason: string;
  /** Turns after the assistant's first message. */
  turns: { role: 'bot' | 'user'; message: string }[];
  analysis: Vapi.Analysis;
}

/** Dollars per minute the fake bills, split like Vapi's costBreakdown. */
const RATES = { transport: 0.01, stt: 0.01, llm: 0.02, tts: 0.02, vapi: 0.05 };
export const FAKE_VAPI_COST_PER_MINUTE = Object.values(RATES).reduce((a, b) => a + b, 0);

export function scriptFor(outcome: FakeVapiOutcome, assistant: { firstMessage: string; voicemailMessage: string | null }): CallScript {
  switch (outcome) {
    case 'busy':
      return { answered: false, endedReason: 'customer-busy', turns: [], analysis: {} };
    case 'no_answer':
      return { answered: false, endedReason: 'customer-did-not-answer', turns: [], analysis: {} };
    case 'voicemail':
      return {
        answered: true, endedReason: 'voicemail',
        turns: assistant.voicemailMessage ? [{ role: 'bot', message: assistant.voicemailMessage }] : [],
        analysis: { summary: 'The call reached voicemail.', successEvaluation: 'false' },
      };
    case 'not_interested':
      return {
        answered: true, endedReason: 'assistant-ended-call',
        turns: [{ role: 'user', message: 'No thanks, I am not interested.' }, { role: 'bot', message: 'Understood, sorry to bother you. Goodbye!' }],
        analysis: { summary: 'The contact was not interested.', structuredData: { interested: false }, successEvaluation: 'false' },
      };
    case 'private':
      return {
        answered: true, endedReason: 'customer-ended-call',
        turns: [
          { role: 'user', message: `Yes. My card is ${PRIVATE_VALUES.card}, my IBAN is ${PRIVATE_VALUES.iban} and my mail is ${PRIVATE_VALUES.email}.` },
          { role: 'bot', message: 'Thank you, someone will call you back tomorrow.' },
        ],
        // Vapi's own summary repeats what was said, as an LLM summary does.
        analysis: { summary: `The contact paid with card ${PRIVATE_VALUES.card} and gave ${PRIVATE_VALUES.email}.`, structuredData: { interested: true, email: PRIVATE_VALUES.email }, successEvaluation: 'true' },
      };
    default:
      // interested, and the delivery faults (lose_end, duplicate, out_of_order) on the same conversation.
      return {
        answered: true, endedReason: 'customer-ended-call',
        turns: [
          { role: 'user', message: 'Yes, that sounds interesting.' },
          { role: 'bot', message: 'Great! Shall someone call you back tomorrow?' },
          { role: 'user', message: 'Yes please. Bye!' },
        ],
        analysis: { summary: 'The contact is interested and wants a call back.', structuredData: { interested: true }, successEvaluation: 'true' },
      };
  }
}

/** Vapi's artifact: the message log (system prompt first), a plain transcript and the recording. */
export function artifactFor(input: { callId: string; baseUrl: string; systemPrompt: string | null; firstMessage: string; script: CallScript; startMs: number; talkSec: number }): Vapi.Artifact {
  const { script } = input;
  if (!script.answered) return { messages: [] };
  const lines = script.endedReason === 'voicemail' ? script.turns : [{ role: 'bot' as const, message: input.firstMessage }, ...script.turns];
  const step = lines.length ? input.talkSec / lines.length : 0;
  const messages = [
    ...(input.systemPrompt ? [{ role: 'system', message: input.systemPrompt, time: input.startMs, secondsFromStart: 0 }] : []),
    ...lines.map((l, i) => ({
      role: l.role, message: l.message, time: input.startMs + i * step * 1000, endTime: input.startMs + (i + 0.9) * step * 1000,
      secondsFromStart: i * step, duration: 0.9 * step * 1000,
    })),
  ] as Vapi.ArtifactMessagesItem[];
  const recordingUrl = `${input.baseUrl}/recordings/${input.callId}.wav`;
  return {
    messages,
    transcript: lines.map((l) => `${l.role === 'bot' ? 'AI' : 'User'}: ${l.message}`).join('\n'),
    recordingUrl,
    recording: { mono: { combinedUrl: recordingUrl } },
  };
}

export function costFor(talkSec: number): { cost: number; costBreakdown: Vapi.CostBreakdown } {
  const minutes = talkSec / 60;
  const part = (rate: number) => Math.round(rate * minutes * 10_000) / 10_000;
  const breakdown = { transport: part(RATES.transport), stt: part(RATES.stt), llm: part(RATES.llm), tts: part(RATES.tts), vapi: part(RATES.vapi) };
  const total = Math.round(Object.values(breakdown).reduce((a, b) => a + b, 0) * 10_000) / 10_000;
  return { cost: total, costBreakdown: { ...breakdown, total } };
}
