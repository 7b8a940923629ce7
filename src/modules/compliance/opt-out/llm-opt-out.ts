import type { Deps } from '../../../deps.ts';
import type { PayloadSchema } from '../../../extraction/extractor.ts';
import type { CallEvent } from '../../../voice/provider.ts';
import { detectOptOut } from './opt-out-detector.ts';

/**
 * The LLM's reading of the conversation, when one is configured (LLM_BASE_URL): a caller's
 * request not to be called again that the phrase list misses ("delete this number", "this line
 * should not be called") is found here, before the end event is applied. The answer rides on the
 * event as `optOutBy: 'llm'`; the call-ending
 * transaction then suppresses the number. Skipped when the offline detector already found one or
 * the caller said nothing; a failed or slow model changes nothing (the offline result stands).
 */
const SCHEMA: PayloadSchema = {
  type: 'object',
  properties: {
    opt_out: {
      type: 'boolean',
      description: 'true only when the person called (role user) asked not to be called again or to be removed from the calling list (in any language); false otherwise, including when the assistant offered it and the person did not accept',
    },
  },
  required: ['opt_out'],
  additionalProperties: false,
};
const TIMEOUT_MS = 8_000;

export async function withLlmOptOut(deps: Pick<Deps, 'extractor'>, events: CallEvent[]): Promise<CallEvent[]> {
  if (deps.extractor.name !== 'llm') return events;
  return Promise.all(events.map(async (event) => {
    const transcript = event.transcript ?? [];
    if (event.type !== 'ended' || event.optOutBy || !transcript.some((t) => t.role === 'user')) return event;
    if (detectOptOut(transcript).optOut) return event;
    try {
      const result = await deps.extractor.extract({
        schema: SCHEMA, instructions: {}, transcript, contact: {},
        call: { from_number: null, to_number: null, call_duration: event.durationSec ?? null, start_time: null, end_time: null, call_type: null, action_status: null, status: event.status ?? 'finished' },
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
      return result.payload.opt_out === true ? { ...event, optOutBy: 'llm' as const } : event;
    } catch {
      return event;
    }
  }));
}
