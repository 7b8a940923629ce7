import { sql, type Transaction } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import type { Db } from '../../../db/connection.ts';

type Trx = Transaction<Database>;

export const DUE_STATUSES = ['added_to_queue', 'call_scheduled'] as const;
// Advisory lock namespace of the dialer: (LOCK_CLASS, campaign id) serialises the
// concurrency count of one campaign; (LOCK_CLASS, 0) the service-wide cap.
const LOCK_CLASS = 7301;

export interface ClaimedContact {
  id: number;
  campaign_id: number;
  owner_id: number;
  phone_number: string;
  timezone: string | null;
  contact_data: Record<string, unknown> | null;
  calls_attempts: number;
  status: string;
}

/**
 * The claim: due contacts of dialable campaigns, at most each campaign's free slots
 * (counted without a lock here, recounted under the campaign lock before dialling), in
 * one statement with FOR UPDATE SKIP LOCKED so concurrent workers never claim the same
 * contact. Campaigns are visited in random order so no campaign starves another.
 */
export async function claimDueContacts(trx: Trx, input: { now: Date; limit: number }): Promise<ClaimedContact[]> {
  const { rows } = await sql<ClaimedContact>`
    WITH live AS MATERIALIZED (
      -- Counted once (MATERIALIZED): inlined, a stale row estimate can make the planner
      -- recount the live calls for every campaign.
      SELECT campaign_id, count(*)::int AS n FROM calls WHERE status = 'in progress' GROUP BY campaign_id
    ), room AS MATERIALIZED (
      SELECT cp.id,
             CASE WHEN coalesce(cp.concurrent_call_limit, 0) > 0 THEN cp.concurrent_call_limit - coalesce(l.n, 0) ELSE ${input.limit} END AS free
      FROM campaigns cp LEFT JOIN live l ON l.campaign_id = cp.id
      WHERE NOT cp.is_paused AND NOT cp.is_archive AND NOT cp.limit_reached AND cp.campaign_type = 'Outbound'
        AND EXISTS (SELECT 1 FROM contacts d WHERE d.campaign_id = cp.id AND d.status IN ('added_to_queue', 'call_scheduled') AND d.next_action_time <= ${input.now})
      ORDER BY random()
    )
    SELECT c.* FROM room r CROSS JOIN LATERAL (
      SELECT id, campaign_id, owner_id, phone_number, timezone, contact_data, calls_attempts, status
      FROM contacts c
      WHERE c.campaign_id = r.id AND c.status IN ('added_to_queue', 'call_scheduled') AND c.next_action_time <= ${input.now}
      ORDER BY c.next_action_time, c.id
      LIMIT greatest(r.free, 0)
      FOR UPDATE SKIP LOCKED
    ) c
    WHERE r.free > 0
    LIMIT ${input.limit}`.execute(trx);
  return rows;
}

export interface DialCampaign {
  id: number;
  owner_id: number;
  title: string;
  campaign_type: string;
  campaign_phone: string | null;
  phones: string[] | null;
  concurrent_call_limit: number | null;
  call_allowed_from_time: string | null;
  call_allowed_to_time: string | null;
  work_schedule: unknown;
  is_paused: boolean;
  is_archive: boolean;
  limit_reached: boolean;
  limit_start: Date | null;
  limit_end: Date | null;
  limit_value: number | null;
  limit_unit: string | null;
  max_call_attempts: number | null;
  call_interval: number[] | null;
  live: number;
}

/**
 * Takes the dialer locks of those campaigns no other worker holds (try-lock: a worker
 * that finds a campaign busy leaves its contacts for the next round instead of waiting
 * idle) and reads them. Campaigns missing from the answer were not locked.
 */
export async function lockCampaigns(trx: Trx, ids: number[]): Promise<Map<number, DialCampaign>> {
  const sorted = [...new Set(ids)].sort((a, b) => a - b);
  if (sorted.length === 0) return new Map();
  const { rows: locked } = await sql<{ id: number }>`
    SELECT id FROM unnest(${sorted}::bigint[]) AS id WHERE pg_try_advisory_xact_lock(${LOCK_CLASS}, id::int)`.execute(trx);
  if (locked.length === 0) return new Map();
  const { rows } = await sql<DialCampaign>`
    SELECT cp.id, cp.owner_id, cp.title, cp.campaign_type, cp.campaign_phone, cp.concurrent_call_limit,
           cp.call_allowed_from_time::text AS call_allowed_from_time, cp.call_allowed_to_time::text AS call_allowed_to_time,
           cp.work_schedule, cp.is_paused, cp.is_archive, cp.limit_reached, cp.limit_start, cp.limit_end, cp.limit_value,
           cp.limit_unit, cp.max_call_attempts, cp.call_interval,
           (SELECT array_agg(p.phone_number ORDER BY p.id) FROM phone_numbers p WHERE p.campaign_id = cp.id) AS phones,
           (SELECT count(*)::int FROM calls k WHERE k.campaign_id = cp.id AND k.status = 'in progress') AS live
    FROM campaigns cp WHERE cp.id = ANY(${locked.map((r) => r.id)}::bigint[])`.execute(trx);
  return new Map(rows.map((r) => [r.id, r]));
}

/** Service-wide cap: the number of calls that may still start, under its own lock. */
export async function lockGlobalRoom(trx: Trx, max: number): Promise<number> {
  await sql`SELECT pg_advisory_xact_lock(${LOCK_CLASS}, 0)`.execute(trx);
  const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM calls WHERE status = 'in progress'`.execute(trx);
  return max - (rows[0]?.n ?? 0);
}

/** Contacts among `ids` that already had an outbound call in the campaign's limit period. */
export async function contactsCalledInPeriod(trx: Trx, campaign: DialCampaign, ids: number[]): Promise<Set<number>> {
  const { rows } = await sql<{ contact_id: number }>`
    SELECT DISTINCT contact_id FROM calls
    WHERE campaign_id = ${campaign.id} AND contact_id = ANY(${ids}::bigint[]) AND call_type = 'outbound'
      AND start_time >= coalesce(${campaign.limit_start}::timestamptz, '-infinity'::timestamptz)
      AND start_time <= coalesce(${campaign.limit_end}::timestamptz, 'infinity'::timestamptz)`.execute(trx);
  return new Set(rows.map((r) => r.contact_id));
}

export interface NewOutboundCall {
  contactId: number;
  ownerId: number;
  campaignId: number;
  from: string | null;
  to: string;
  title: string;
  contactData: string;
  callData: string;
}

/**
 * Writes the call rows. ON CONFLICT DO NOTHING lets the unique live-call indexes turn
 * a second call to a number (or contact) into "not inserted" instead of an error.
 */
export async function insertCalls(trx: Trx, calls: NewOutboundCall[], now: Date): Promise<{ id: number; contact_id: number }[]> {
  if (calls.length === 0) return [];
  // In (owner, number) order, the order of the unique index on live numbers: two workers
  // inserting calls to shared numbers in opposite orders waited on each other (a deadlock).
  calls = [...calls].sort((a, b) => a.ownerId - b.ownerId || (a.to < b.to ? -1 : a.to > b.to ? 1 : a.contactId - b.contactId));
  const { rows } = await sql<{ id: number; contact_id: number }>`
    INSERT INTO calls (owner_id, campaign_id, contact_id, status, from_number, to_number, start_time, call_type, campaign_title, contact_data, call_data)
    SELECT o, cp, ct, 'in progress', f, t, ${now}::timestamptz, 'outbound', ti, cd::jsonb, kd::jsonb
    FROM unnest(${calls.map((c) => c.ownerId)}::bigint[], ${calls.map((c) => c.campaignId)}::bigint[], ${calls.map((c) => c.contactId)}::bigint[],
                ${calls.map((c) => c.from)}::text[], ${calls.map((c) => c.to)}::text[], ${calls.map((c) => c.title)}::text[],
                ${calls.map((c) => c.contactData)}::text[], ${calls.map((c) => c.callData)}::text[]) AS u(o, cp, ct, f, t, ti, cd, kd)
    ON CONFLICT DO NOTHING
    RETURNING id, contact_id`.execute(trx);
  return rows;
}

export async function markContactsCalling(trx: Trx, contactIds: number[]): Promise<void> {
  if (contactIds.length === 0) return;
  await sql`
    UPDATE contacts SET status = 'in progress', calls_attempts = calls_attempts + 1, next_action_time = NULL,
      next_action_reason = 'call ' || (calls_attempts + 1) || ' in progress', updated_at = now()
    WHERE id = ANY(${contactIds}::bigint[])`.execute(trx);
}

/** Moves contacts to a later time (outside their window, or their number is busy in another call). */
export async function rescheduleContacts(trx: Trx, rows: { id: number; at: Date | null; reason: string; status: string }[]): Promise<void> {
  if (rows.length === 0) return;
  await sql`
    UPDATE contacts c SET status = u.s, next_action_time = u.t, next_action_reason = u.r, updated_at = now()
    FROM unnest(${rows.map((r) => r.id)}::bigint[], ${rows.map((r) => r.at)}::timestamptz[], ${rows.map((r) => r.reason)}::text[], ${rows.map((r) => r.status)}::text[]) AS u(id, t, r, s)
    WHERE c.id = u.id`.execute(trx);
}

/**
 * Remembers the provider's id of each started call (see migration 0007 for why it is
 * not written onto the call row). The calls are share-locked in id order first (event
 * batches lock calls in id order too, so the two never deadlock), and a call deleted
 * meanwhile (its campaign or contact was deleted) is skipped rather than failing the rest.
 */
export async function saveProviderIds(db: Trx | Db, rows: { callId: number; providerCallId: string }[]): Promise<void> {
  if (rows.length === 0) return;
  await sql`
    INSERT INTO call_provider_refs (call_id, provider_call_id)
    SELECT k.id, u.p FROM unnest(${rows.map((r) => r.callId)}::bigint[], ${rows.map((r) => r.providerCallId)}::text[]) AS u(id, p)
    JOIN calls k ON k.id = u.id
    ORDER BY k.id
    FOR KEY SHARE OF k
    ON CONFLICT (call_id) DO NOTHING`.execute(db);
}

/**
 * The prompt each campaign's assistant uses: the newest approved (or auto-approved)
 * prompt_history entry. campaign_data.prompt is only a fallback for campaigns with no
 * history at all (rows written before prompt history existed): once a campaign has
 * history, a sub-user's pending proposal must never reach a call. A null prompt is no prompt.
 */
export async function promptsFor(trx: Trx | Db, campaignIds: number[]): Promise<Map<number, string | null>> {
  if (campaignIds.length === 0) return new Map();
  const { rows } = await sql<{ id: number; prompt: string | null }>`
    SELECT cp.id,
      CASE WHEN EXISTS (SELECT 1 FROM prompt_history h WHERE h.campaign_id = cp.id)
        THEN (SELECT CASE jsonb_typeof(ph.prompt_data->'prompt')
                       WHEN 'string' THEN ph.prompt_data->>'prompt'
                       WHEN 'object' THEN (ph.prompt_data->'prompt')::text END
              FROM prompt_history ph
              WHERE ph.campaign_id = cp.id AND ph.status IN ('approved', 'auto_approved')
              ORDER BY ph.id DESC LIMIT 1)
        ELSE cp.campaign_data->>'prompt'
      END AS prompt
    FROM campaigns cp WHERE cp.id = ANY(${campaignIds}::bigint[])`.execute(trx);
  return new Map(rows.map((r) => [r.id, r.prompt]));
}
