import { sql, type Kysely, type RawBuilder, type Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { LiveEventType } from './live-event-types.ts';

/**
 * The live_events rows (migration 0034): written where a change commits, read by every
 * process's feed (live-feed.ts) after its watermark, replayed to a browser that resumes.
 * Every write ends with a NOTIFY, which PostgreSQL delivers at commit, never on rollback.
 */

type Executor = Kysely<Database> | Transaction<Database>;

export const LIVE_CHANNEL = 'live_events';

export interface LiveEvent {
  id: string;
  ownerId: number;
  campaignId: number | null;
  callId: number | null;
  type: LiveEventType;
  data: Record<string, unknown>;
}

interface Row {
  id: string;
  owner_id: number | string;
  campaign_id: number | string | null;
  call_id: number | string | null;
  type: string;
  data: Record<string, unknown>;
}

const toEvent = (r: Row): LiveEvent => ({
  id: String(r.id), ownerId: Number(r.owner_id), campaignId: r.campaign_id === null ? null : Number(r.campaign_id),
  callId: r.call_id === null ? null : Number(r.call_id), type: r.type as LiveEventType, data: r.data,
});

const notify = (db: Executor) => sql`SELECT pg_notify(${LIVE_CHANNEL}, '')`.execute(db);

/** What a call row says in every call event: who, which campaign, which way. */
const CALL_FIELDS = sql`'call_id', k.id, 'campaign_id', k.campaign_id, 'contact_id', k.contact_id, 'direction', coalesce(k.call_type, 'outbound'),
  'phone_number', CASE WHEN k.call_type = 'inbound' THEN k.from_number ELSE k.to_number END`;

/** `call.started` for calls just written (outbound rounds, inbound answers), in their transaction. */
export async function insertCallsStarted(trx: Executor, callIds: number[]): Promise<void> {
  if (callIds.length === 0) return;
  await sql`
    INSERT INTO live_events (owner_id, campaign_id, call_id, type, data)
    SELECT k.owner_id, k.campaign_id, k.id, 'call.started', jsonb_build_object(${CALL_FIELDS},
      'campaign_title', k.campaign_title, 'contact_name', k.contact_data->>'name', 'status', k.status, 'start_time', k.start_time)
    FROM calls k WHERE k.id = ANY(${callIds}::bigint[]) ORDER BY k.id`.execute(trx);
  await notify(trx);
}

/**
 * `call.ended` for calls whose end was just written (call-finish.ts), in its transaction, with
 * the contact's status after the call: that is how a contact's status change reaches the board.
 */
export async function insertCallsEnded(trx: Executor, callIds: number[]): Promise<void> {
  if (callIds.length === 0) return;
  await sql`
    INSERT INTO live_events (owner_id, campaign_id, call_id, type, data)
    SELECT k.owner_id, k.campaign_id, k.id, 'call.ended', jsonb_build_object(${CALL_FIELDS},
      'status', k.status, 'action_status', k.action_status, 'call_duration', k.call_duration, 'cost', k.cost,
      'call_ended_by', k.call_ended_by, 'end_time', k.end_time,
      'contact_status', c.status, 'next_action_code', c.next_action_code, 'next_action_time', c.next_action_time)
    FROM calls k LEFT JOIN contacts c ON c.id = k.contact_id
    WHERE k.id = ANY(${callIds}::bigint[]) ORDER BY k.id`.execute(trx);
  await notify(trx);
}

/**
 * A call's progress (ringing, answered, a transcript turn): nothing else is stored for them,
 * so they are written on their own, only for calls still in progress that `onCall` admits
 * (a condition on the call row `k`: a vendor's events reach only its route's calls, route-scope.ts).
 * A turn numbered in its call's transcript (`seq`) is written once: a vendor that resends the
 * whole transcript adds only its new turns.
 */
export async function insertCallProgress(
  db: Executor,
  items: { callId: number; type: LiveEventType; data: Record<string, unknown> }[],
  onCall: RawBuilder<unknown> = sql`TRUE`,
): Promise<number> {
  if (items.length === 0) return 0;
  const { rows } = await sql<{ n: number }>`
    WITH ins AS (
      INSERT INTO live_events (owner_id, campaign_id, call_id, type, data)
      SELECT k.owner_id, k.campaign_id, k.id, u.type, jsonb_build_object('call_id', k.id, 'campaign_id', k.campaign_id) || u.data::jsonb
      FROM unnest(${items.map((i) => i.callId)}::bigint[], ${items.map((i) => i.type)}::text[], ${items.map((i) => JSON.stringify(i.data))}::text[])
        WITH ORDINALITY AS u(call_id, type, data, n)
      JOIN calls k ON k.id = u.call_id AND k.status = 'in progress' AND ${onCall}
      WHERE NOT (u.data::jsonb ? 'seq' AND EXISTS (
        SELECT 1 FROM live_events e WHERE e.call_id = k.id AND e.type = 'call.turn' AND e.data -> 'seq' = u.data::jsonb -> 'seq'))
      ORDER BY u.n
      RETURNING 1)
    SELECT count(*)::int AS n FROM ins`.execute(db);
  const n = Number(rows[0]?.n ?? 0);
  if (n > 0) await notify(db);
  return n;
}

/** A campaign's own events (paused, resumed, limit reached), in the transaction that changed it. */
export async function insertCampaignEvents(trx: Executor, items: { campaignId: number; type: LiveEventType; data: Record<string, unknown> }[]): Promise<void> {
  if (items.length === 0) return;
  await sql`
    INSERT INTO live_events (owner_id, campaign_id, type, data)
    SELECT c.owner_id, c.id, u.type, jsonb_build_object('campaign_id', c.id, 'title', c.title) || u.data::jsonb
    FROM unnest(${items.map((i) => i.campaignId)}::bigint[], ${items.map((i) => i.type)}::text[], ${items.map((i) => JSON.stringify(i.data))}::text[])
      WITH ORDINALITY AS u(campaign_id, type, data, n)
    JOIN campaigns c ON c.id = u.campaign_id ORDER BY u.n`.execute(trx);
  await notify(trx);
}

/** Every account's events after `afterId`, oldest first: one process's feed reading what committed. */
export async function readEventsAfter(db: Executor, afterId: string, limit: number): Promise<LiveEvent[]> {
  const { rows } = await sql<Row>`
    SELECT id::text, owner_id, campaign_id, call_id, type, data FROM live_events
    WHERE id > ${afterId}::bigint ORDER BY id LIMIT ${limit}`.execute(db);
  return rows.map(toEvent);
}

/** One account's events after a browser's last id (its replay), oldest first. */
export async function readOwnerEventsAfter(db: Executor, ownerId: number, afterId: string, limit: number): Promise<LiveEvent[]> {
  const { rows } = await sql<Row>`
    SELECT id::text, owner_id, campaign_id, call_id, type, data FROM live_events
    WHERE owner_id = ${ownerId} AND id > ${afterId}::bigint ORDER BY id LIMIT ${limit}`.execute(db);
  return rows.map(toEvent);
}

/** The newest id, or '0': where a feed starting now begins. */
export async function latestEventId(db: Executor): Promise<string> {
  const { rows } = await sql<{ id: string | null }>`SELECT max(id)::text AS id FROM live_events`.execute(db);
  return rows[0]?.id ?? '0';
}

/** The oldest id still kept, or null: a browser whose last id is older has missed events. */
export async function oldestEventId(db: Executor): Promise<string | null> {
  const { rows } = await sql<{ id: string | null }>`SELECT min(id)::text AS id FROM live_events`.execute(db);
  return rows[0]?.id ?? null;
}

/** The transcript turns of calls up to event `upTo` (a board opened during the calls), oldest first. */
export async function readTurns(db: Executor, callIds: number[], upTo: string): Promise<LiveEvent[]> {
  if (callIds.length === 0) return [];
  const { rows } = await sql<Row>`
    SELECT id::text, owner_id, campaign_id, call_id, type, data FROM live_events
    WHERE call_id = ANY(${callIds}::bigint[]) AND type IN ('call.turn', 'call.answered') AND id <= ${upTo}::bigint ORDER BY call_id, id`.execute(db);
  return rows.map(toEvent);
}

/** Deletes events older than `keepMs`, a bounded batch at a time; returns how many. */
export async function pruneEvents(db: Executor, keepMs: number, batch = 5000): Promise<number> {
  const { rows } = await sql<{ n: number }>`
    WITH gone AS (
      DELETE FROM live_events WHERE id IN (
        SELECT id FROM live_events WHERE created_at < now() - make_interval(secs => ${keepMs / 1000}) ORDER BY id LIMIT ${batch})
      RETURNING 1)
    SELECT count(*)::int AS n FROM gone`.execute(db);
  return Number(rows[0]?.n ?? 0);
}
