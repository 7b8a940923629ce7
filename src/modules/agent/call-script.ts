import { sql } from 'kysely';
import type { Deps } from '../../deps.ts';
import { templateContext } from '../../voice/call-template.ts';
import type { CallAssistant } from '../../voice/provider.ts';
import type { Route } from '../../voice/registry.ts';
import { promptsOfCalls } from '../campaigns/campaign-prompts.ts';
import { spokenContent } from '../../voice/call-content.ts';
import { assistantsByIds } from '../assistants/assistants.repository.ts';
import type { CallRecording } from '../../voice/call-recording.ts';
import { recordingOf } from '../privacy/recording-consent/call-recordings.ts';

/**
 * What our agent needs to hold one call's conversation, read from the database (Twilio may fetch
 * the TwiML and open the socket at any process): the assistant and the prompt the call recorded
 * (its prompt version, and under an experiment its variant's assistant) with this call's placeholders filled, and the call's route (whose auth token signs its requests).
 */
export interface CallScript {
  callId: number;
  status: string;
  route: Route;
  assistant: CallAssistant | null;
  prompt: string | null;
  /** How the call is recorded, as the dialer decided (call_data.recording); null: from the start. */
  recording: CallRecording | null;
}

export async function loadCallScript(deps: Deps, callId: number): Promise<CallScript | null> {
  const { rows } = await sql<{
    id: number; status: string; provider: string | null; voice_connection_id: number | null; recording: unknown;
    contact_id: number; phone_number: string; contact_status: string | null; contact_data: unknown;
    campaign_id: number; title: string; description: string | null; campaign_type: string; campaign_phone: string | null; campaign_data: unknown; assistant_id: number | null; prompt_history_id: number | null;
  }>`
    SELECT c.id, c.status, c.provider, c.voice_connection_id, c.call_data->'recording' AS recording, c.prompt_history_id,
           ct.id AS contact_id, ct.phone_number, ct.status AS contact_status, ct.contact_data,
           cp.id AS campaign_id, cp.title, cp.description, cp.campaign_type, cp.campaign_phone, cp.campaign_data,
           -- An assistant variant's assistant (the account's: the variant was checked at creation).
           coalesce(v.assistant_id, cp.assistant_id) AS assistant_id
    FROM calls c JOIN contacts ct ON ct.id = c.contact_id JOIN campaigns cp ON cp.id = ct.campaign_id
    LEFT JOIN experiment_variants v ON v.id = c.experiment_variant_id AND v.kind = 'assistant'
    WHERE c.id = ${callId}`.execute(deps.db);
  const row = rows[0];
  if (!row) return null;
  const route: Route = { provider: row.provider ?? deps.config.VOICE_PROVIDER, connectionId: row.voice_connection_id };
  const [prompts, assistants] = await Promise.all([
    promptsOfCalls(deps.db, [{ id: row.id, campaignId: row.campaign_id, promptHistoryId: row.prompt_history_id === null ? null : Number(row.prompt_history_id) }]),
    assistantsByIds(deps.db, row.assistant_id === null ? [] : [row.assistant_id]),
  ]);
  const context = templateContext({ id: row.contact_id, phone_number: row.phone_number, status: row.contact_status, contact_data: row.contact_data }, {
    id: row.campaign_id, title: row.title, description: row.description, campaign_type: row.campaign_type, campaign_phone: row.campaign_phone, campaign_data: row.campaign_data,
  });
  const assistant = row.assistant_id === null ? null : assistants.get(row.assistant_id) ?? null;
  const spoken = spokenContent(deps.config.PUBLIC_BASE_URL, { context, prompt: prompts.get(row.id) ?? null, assistant, route });
  return {
    callId: row.id, status: row.status, route, assistant: spoken.assistant, prompt: spoken.prompt,
    recording: recordingOf({ recording: row.recording }),
  };
}

/**
 * What Twilio says when the call is answered (ConversationRelay's welcome greeting): the
 * assistant's first message, after the disclosure under after_disclosure; under after_consent
 * only the question (the first message follows the answer, relay-session.ts).
 */
export function openingWords(script: Pick<CallScript, 'assistant' | 'recording'>): string | undefined {
  const first = script.assistant?.firstMessage ?? undefined;
  const r = script.recording;
  if (r?.rule === 'after_consent' && r.consent_prompt) return r.consent_prompt;
  if (r?.rule === 'after_disclosure' && r.disclosure) return [r.disclosure, first].filter(Boolean).join(' ');
  return first;
}
