import { sql } from 'kysely';
import type { Db } from '../../../db/connection.ts';
import { FORGET_REASONS } from '../../quality/scorecards/call-scores.repository.ts';

/**
 * What retention empties once a row's time has come, and what it keeps. Kept: what analytics,
 * the dialer and the audit trail read (status, times, duration, cost, outcome, numbers, the
 * provider and the reason a call ended); emptied: what a person said or is (the transcript, the
 * summary and analysis, the extracted payload, the contact's data as the call saw it, the
 * recording link, whispers, a message's text, a webhook's body and the receiver's answer).
 * The contacts themselves stay (they are the customer's list; erasure removes a person).
 */

/** The keys of call_data a purged call keeps: none of them holds what the person said or is. */
// recording: the rule that applied and the person's consent (the law asks for the proof, not the words).
export const CALL_DATA_KEPT = ['provider', 'assistant_id', 'caller_id', 'ended_reason', 'provider_call_id', 'ref', 'recording'] as const;

/** A call's call_data after the purge: the kept keys, the opt-out's and operator's acts without their words or numbers. */
const PURGED_CALL_DATA = sql`
  jsonb_strip_nulls(jsonb_build_object(${sql.join(CALL_DATA_KEPT.map((k) => sql`${k}::text, k.call_data -> ${k}::text`))},
    'opt_out', CASE WHEN jsonb_typeof(k.call_data -> 'opt_out') = 'object' THEN jsonb_strip_nulls(jsonb_build_object('detected_by', k.call_data #> '{opt_out,detected_by}', 'language', k.call_data #> '{opt_out,language}')) END,
    'operator', CASE WHEN jsonb_typeof(k.call_data -> 'operator') = 'object' THEN jsonb_strip_nulls(jsonb_build_object('action', k.call_data #> '{operator,action}', 'user_id', k.call_data #> '{operator,user_id}', 'sub_user_id', k.call_data #> '{operator,sub_user_id}')) END))
  || '{"transcript": []}'::jsonb`;

export interface PurgeCounts {
  calls: number;
  conversations: number;
  messages: number;
  deliveries: number;
}

export const NO_PURGE: PurgeCounts = { calls: 0, conversations: 0, messages: 0, deliveries: 0 };

/** A campaign whose personal data is kept `days`: its account's rule or its own, the shorter. */
export interface RetentionRule {
  campaignId: number;
  ownerId: number;
  days: number;
}

export async function retentionRules(db: Db): Promise<RetentionRule[]> {
  const { rows } = await sql<{ campaign_id: number; owner_id: number; days: number }>`
    SELECT c.id AS campaign_id, c.owner_id, least(a.retention_days, p.retention_days) AS days
    FROM campaigns c
    LEFT JOIN privacy_settings a ON a.owner_id = c.owner_id
    LEFT JOIN campaign_privacy p ON p.campaign_id = c.id
    WHERE a.retention_days IS NOT NULL OR p.retention_days IS NOT NULL
    ORDER BY c.id`.execute(db);
  return rows.map((r) => ({ campaignId: Number(r.campaign_id), ownerId: Number(r.owner_id), days: r.days }));
}

/** The accounts' own rules, for what belongs to no campaign (a test delivery, a campaign event). */
export async function accountRules(db: Db): Promise<{ ownerId: number; days: number }[]> {
  const rows = await db.selectFrom('privacy_settings').select(['owner_id', 'retention_days']).where('retention_days', 'is not', null).execute();
  return rows.map((r) => ({ ownerId: Number(r.owner_id), days: r.retention_days! }));
}

const cutoffOf = (now: Date, days: number) => new Date(now.getTime() - days * 86_400_000);

/**
 * One batch of a campaign's calls past their time, emptied with their agent conversations and
 * webhook deliveries, in one statement (so a crash leaves each call whole or purged). Calls in
 * progress are never touched; SKIP LOCKED leaves a call another transaction holds for later.
 */
export async function purgeCalls(db: Db, rule: RetentionRule, now: Date, batch: number): Promise<PurgeCounts> {
  const { rows } = await sql<{ calls: number; conversations: number; deliveries: number }>`
    WITH due AS (
      SELECT id FROM calls
      WHERE campaign_id = ${rule.campaignId} AND personal_data_purged_at IS NULL AND status <> 'in progress'
        AND coalesce(end_time, created_at) < ${cutoffOf(now, rule.days)}
      ORDER BY campaign_id, coalesce(end_time, created_at) LIMIT ${batch} FOR UPDATE SKIP LOCKED),
    purged AS (
      UPDATE calls k SET call_data = ${PURGED_CALL_DATA}, contact_data = '{}'::jsonb, record_url = NULL, personal_data_purged_at = ${now}
      FROM due WHERE k.id = due.id RETURNING k.id),
    conversations AS (
      UPDATE agent_conversations SET transcript = '[]'::jsonb, transfer_to = NULL WHERE call_id IN (SELECT id FROM purged) RETURNING 1),
    deliveries AS (
      UPDATE webhook_deliveries SET payload = '{}'::jsonb, response_body = NULL, personal_data_purged_at = ${now}
      WHERE call_id IN (SELECT id FROM purged) AND personal_data_purged_at IS NULL RETURNING 1),
    scores AS (
      UPDATE call_scores SET answers = ${FORGET_REASONS} WHERE call_id IN (SELECT id FROM purged) AND answers IS NOT NULL RETURNING 1)
    SELECT (SELECT count(*) FROM purged)::int AS calls, (SELECT count(*) FROM conversations)::int AS conversations, (SELECT count(*) FROM deliveries)::int AS deliveries`.execute(db);
  return { ...NO_PURGE, ...rows[0]! };
}

/** One batch of a campaign's texts past their time, with the deliveries that told of them. */
export async function purgeMessages(db: Db, rule: RetentionRule, now: Date, batch: number): Promise<PurgeCounts> {
  const { rows } = await sql<{ messages: number; deliveries: number }>`
    WITH due AS (
      SELECT id FROM messages
      WHERE campaign_id = ${rule.campaignId} AND personal_data_purged_at IS NULL AND created_at < ${cutoffOf(now, rule.days)}
        AND status <> 'sending'
      ORDER BY campaign_id, created_at LIMIT ${batch} FOR UPDATE SKIP LOCKED),
    purged AS (
      UPDATE messages m SET body = '', personal_data_purged_at = ${now} FROM due WHERE m.id = due.id RETURNING m.id),
    deliveries AS (
      UPDATE webhook_deliveries SET payload = '{}'::jsonb, response_body = NULL, personal_data_purged_at = ${now}
      WHERE message_id IN (SELECT id FROM purged) AND personal_data_purged_at IS NULL RETURNING 1)
    SELECT (SELECT count(*) FROM purged)::int AS messages, (SELECT count(*) FROM deliveries)::int AS deliveries`.execute(db);
  return { ...NO_PURGE, ...rows[0]! };
}

/** One batch of an account's deliveries past the account's time, whatever they tell of (not those still to be sent). */
export async function purgeDeliveries(db: Db, rule: { ownerId: number; days: number }, now: Date, batch: number): Promise<PurgeCounts> {
  const { rows } = await sql<{ deliveries: number }>`
    WITH due AS (
      SELECT id FROM webhook_deliveries
      WHERE owner_id = ${rule.ownerId} AND personal_data_purged_at IS NULL AND created_at < ${cutoffOf(now, rule.days)} AND status <> 'pending'
      ORDER BY owner_id, created_at LIMIT ${batch} FOR UPDATE SKIP LOCKED),
    purged AS (
      UPDATE webhook_deliveries d SET payload = '{}'::jsonb, response_body = NULL, personal_data_purged_at = ${now} FROM due WHERE d.id = due.id RETURNING 1)
    SELECT count(*)::int AS deliveries FROM purged`.execute(db);
  return { ...NO_PURGE, ...rows[0]! };
}

export const addCounts = (a: PurgeCounts, b: PurgeCounts): PurgeCounts => ({
  calls: a.calls + b.calls, conversations: a.conversations + b.conversations, messages: a.messages + b.messages, deliveries: a.deliveries + b.deliveries,
});
