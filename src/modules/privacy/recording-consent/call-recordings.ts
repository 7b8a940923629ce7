import { sql } from 'kysely';
import type { Db } from '../../../db/connection.ts';
import { recordingFor, type CallRecording, type RecordingSetting } from './recording-rule.ts';

/**
 * Decides, at dial time, how each call is recorded, and keeps it on the call
 * (call_data.recording) before the vendor is asked to dial: the TwiML and the agent read it from
 * there, at whichever process Twilio reaches. One read and one write for a whole round.
 */
export async function decideRecordings(db: Db, calls: readonly { id: number; campaignId: number; phone: string }[]): Promise<Map<number, CallRecording>> {
  const out = new Map<number, CallRecording>();
  if (calls.length === 0) return out;
  const settings = await db.selectFrom('campaign_privacy').select(['campaign_id', 'recording_rule', 'recording_disclosure', 'recording_consent_prompt'])
    .where('campaign_id', 'in', [...new Set(calls.map((c) => c.campaignId))]).execute();
  const byCampaign = new Map(settings.map((s) => [Number(s.campaign_id), s]));
  for (const call of calls) {
    const s = byCampaign.get(call.campaignId);
    out.set(call.id, recordingFor({ rule: (s?.recording_rule ?? 'auto') as RecordingSetting, disclosure: s?.recording_disclosure ?? null, consentPrompt: s?.recording_consent_prompt ?? null }, call.phone));
  }
  const ids = [...out.keys()];
  await sql`
    UPDATE calls k SET call_data = coalesce(k.call_data, '{}'::jsonb) || jsonb_build_object('recording', u.recording::jsonb)
    FROM unnest(${ids}::bigint[], ${ids.map((id) => JSON.stringify(out.get(id)))}::text[]) AS u(id, recording)
    WHERE k.id = u.id`.execute(db);
  return out;
}

/** The person's answer to the consent question, kept on the call (call_data.recording.consent). */
export async function markConsent(db: Db, callId: number, consent: boolean): Promise<void> {
  await sql`
    UPDATE calls SET call_data = jsonb_set(call_data, '{recording,consent}', to_jsonb(${consent}::boolean)), updated_at = now()
    WHERE id = ${callId} AND call_data ? 'recording'`.execute(db);
}

/** A call's recording rule as stored; null for a call dialled before the rule was kept, or not by the dialer. */
export function recordingOf(callData: unknown): CallRecording | null {
  const r = (callData as { recording?: CallRecording } | null)?.recording;
  return r && typeof r === 'object' && typeof r.rule === 'string' ? r : null;
}
