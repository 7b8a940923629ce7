import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { WebhookIntegrationRow } from '../../db/tables/webhooks.ts';
import { boundedCount } from '../../db/bounded-list.ts';
import { cutToByteBudget } from '../../shared/list-budget.ts';
import { TEXT_EVENT_JSON, type TextEventSnapshot } from './text-event-snapshot.ts';

type Handle = Kysely<Database>;

/** What processing a delivery produced; written back in one statement per batch. */
export interface DeliveryOutcome {
  id: number;
  status: 'sent' | 'failed';
  reason: string | null;
  request_method: string | null;
  request_url: string | null;
  payload: Record<string, unknown> | null;
  extraction_method: string | null;
  null_fields: string[] | null;
  /** Required fields (per the stored request schema) sent as null; null when this delivery built no payload. */
  missing_required?: string[] | null;
  http_status: number | null;
  duration_ms: number | null;
  response_body: string | null;
}

export interface ClaimedDelivery {
  id: number;
  kind: 'call' | 'text' | 'campaign';
  integration: WebhookIntegrationRow | null;
  call: CallSnapshot | null;
  /** Kind text: the inbound text the event tells of (null when it was deleted since). */
  text: TextEventSnapshot | null;
  /** Kind campaign: the breaker's pause and the payload written with the row (null when the pause was deleted with its campaign). */
  campaign: { tripId: number; payload: Record<string, unknown> } | null;
}

type IntegrationJson = Omit<WebhookIntegrationRow, 'created_at' | 'updated_at'> & { created_at: string; updated_at: string };

/**
 * Claims due deliveries and loads what sending them needs, in one statement (one
 * round trip per batch). SKIP LOCKED lets any number of workers claim side by side;
 * the re-checked `claimed_by IS NULL` means a row is claimed once, ever: a claim that
 * is never completed is failed by the sweeper, never handed out again (the API
 * allows no retry, so at most one send per row).
 *
 * Cost, measured with the webhook benchmark: `id = ANY(ARRAY(...))` with no other
 * condition makes the UPDATE find its rows through the primary key. `IN (subquery)` was
 * planned as a hash join over a sequential scan of the whole table, and repeating the
 * conditions let a planner without statistics (a new table) scan all of
 * webhook_deliveries_once_idx instead. The repetition is not needed: FOR UPDATE
 * re-checks the conditions on the newest version of each row it locks, and the lock
 * is held until the UPDATE. Each integration's row travels once per batch (on its
 * first delivery), not once per delivery.
 */
export async function claimDeliveries(db: Handle, input: { workerId: string; limit: number; leaseSeconds: number }): Promise<ClaimedDelivery[]> {
  const { rows } = await sql<Omit<CallSnapshot, 'id'> & { delivery_id: number; kind: 'call' | 'text' | 'campaign'; call_id: number | null; integration_id: number; integration: IntegrationJson | null; text: TextEventSnapshot | null; breaker_trip_id: number | null; event_payload: Record<string, unknown> | null }>`
    WITH claimed AS (
      UPDATE webhook_deliveries d
      SET claimed_by = ${sql.lit(input.workerId)}, lease_until = now() + make_interval(secs => ${sql.lit(Math.trunc(input.leaseSeconds))}), started_at = now()
      WHERE d.id = ANY (ARRAY(
        SELECT id FROM webhook_deliveries
        WHERE status = 'pending' AND kind IN ('call', 'text', 'campaign') AND claimed_by IS NULL
        ORDER BY id
        LIMIT ${sql.lit(Math.trunc(input.limit))}
        FOR UPDATE SKIP LOCKED
      ))
      RETURNING d.id, d.integration_id, d.call_id, d.message_id, d.kind, d.breaker_trip_id, CASE WHEN d.kind = 'campaign' THEN d.payload END AS event_payload
    )
    SELECT claimed.id AS delivery_id, claimed.kind, claimed.integration_id, c.id AS call_id, c.status, c.action_status, c.action_status_reason,
           c.call_ended_by, c.call_ended_by_reason, c.from_number, c.to_number,
           c.call_duration, c.start_time, c.end_time, c.call_type, c.record_url, c.call_data, c.contact_id,
           ct.phone_number AS contact_phone, coalesce(ct.contact_data, c.contact_data) AS contact_data,
           CASE WHEN row_number() OVER (PARTITION BY claimed.integration_id ORDER BY claimed.id) = 1 THEN to_json(i) END AS integration,
           ${TEXT_EVENT_JSON} AS text, claimed.breaker_trip_id, claimed.event_payload
    FROM claimed
    LEFT JOIN calls c ON c.id = claimed.call_id
    LEFT JOIN contacts ct ON ct.id = c.contact_id
    LEFT JOIN messages m ON m.id = claimed.message_id
    LEFT JOIN contacts mc ON mc.id = m.contact_id
    LEFT JOIN campaigns mcp ON mcp.id = m.campaign_id
    LEFT JOIN webhook_integrations i ON i.id = claimed.integration_id
    ORDER BY claimed.id`.execute(db);
  // Rows come in id order, so an integration's first row (the one carrying it) comes first.
  const integrations = new Map<number, WebhookIntegrationRow | null>();
  return rows.map((row) => {
    const { integration } = row;
    if (!integrations.has(row.integration_id)) {
      integrations.set(row.integration_id, integration ? { ...integration, created_at: new Date(integration.created_at), updated_at: new Date(integration.updated_at) } as WebhookIntegrationRow : null);
    }
    return {
      id: row.delivery_id, kind: row.kind, integration: integrations.get(row.integration_id) ?? null,
      call: row.call_id === null ? null : snapshotOf(row.call_id, row), text: row.text,
      campaign: row.kind === 'campaign' && row.breaker_trip_id !== null && row.event_payload ? { tripId: row.breaker_trip_id, payload: row.event_payload } : null,
    };
  });
}

/** Named fields rather than a rest spread of the driver's row: cheaper, and nothing else rides along. */
function snapshotOf(id: number, r: Omit<CallSnapshot, 'id'>): CallSnapshot {
  return {
    id, status: r.status, action_status: r.action_status, action_status_reason: r.action_status_reason,
    call_ended_by: r.call_ended_by, call_ended_by_reason: r.call_ended_by_reason, from_number: r.from_number, to_number: r.to_number, call_duration: r.call_duration,
    start_time: r.start_time, end_time: r.end_time, call_type: r.call_type, record_url: r.record_url, call_data: r.call_data,
    contact_id: r.contact_id, contact_phone: r.contact_phone, contact_data: r.contact_data,
  };
}

/** Un-claims rows a stopping worker claimed but never started (nothing was sent for them). */
export async function releaseClaims(db: Handle, claimedBy: string, ids: number[]): Promise<void> {
  if (ids.length === 0) return;
  await sql`
    UPDATE webhook_deliveries SET claimed_by = NULL, lease_until = NULL, started_at = NULL
    WHERE id IN (${sql.join(ids.map((id) => sql.lit(Math.trunc(id))))}) AND claimed_by = ${sql.lit(claimedBy)} AND status = 'pending'`.execute(db);
}

/** Fails claims whose worker vanished (crash, kill) before it recorded a result. */
export async function sweepExpiredClaims(db: Handle): Promise<number> {
  const result = await sql`
    UPDATE webhook_deliveries
    SET status = 'failed', finished_at = now(),
        reason = 'interrupted: the worker stopped before recording a result; not retried automatically (use redeliver)'
    WHERE status = 'pending' AND claimed_by IS NOT NULL AND lease_until < now()`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

/**
 * The worker's hot statements inline their values (sql.lit; numbers, our own ids and
 * JSON text, quotes escaped by Kysely), so pg sends them as one simple-protocol
 * message. The embedded server interleaves extended-protocol messages of concurrent
 * connections outside transactions, which a single message avoids.
 */
/**
 * Writes many outcomes in one statement; only the claimer may complete its rows.
 * Shaped so that no plan is quadratic, with or without table statistics:
 * `id = ANY(...)` finds the rows through the primary key, and the claimer is compared
 * as a join condition (it travels with each outcome) rather than as a constant. As a
 * constant, a planner whose statistics say no row is claimed estimated one matching
 * row and joined by a nested loop that re-read the whole batch for every row (50 ms
 * per batch of 128 instead of 2). json (not jsonb) keeps the payload's text, so the
 * log shows the fields in the order they were sent.
 */
export async function completeDeliveries(db: Handle, claimedBy: string, outcomes: DeliveryOutcome[]): Promise<void> {
  if (outcomes.length === 0) return;
  const ids = outcomes.map((o) => Math.trunc(o.id)).join(',');
  const rows = outcomes.map((o) => ({ ...o, claimed_by: claimedBy }));
  await sql`
    UPDATE webhook_deliveries d
    SET status = v.status, reason = v.reason, request_method = v.request_method, request_url = v.request_url,
        payload = v.payload, extraction_method = v.extraction_method, null_fields = v.null_fields, missing_required = v.missing_required,
        http_status = v.http_status, duration_ms = v.duration_ms, response_body = v.response_body,
        finished_at = now(), lease_until = NULL
    FROM json_to_recordset(${sql.lit(JSON.stringify(rows))}::json) AS v(
      id bigint, status text, reason text, request_method text, request_url text, payload json,
      extraction_method text, null_fields text[], missing_required text[], http_status integer, duration_ms integer, response_body text, claimed_by text)
    WHERE d.id = ANY (${sql.lit(`{${ids}}`)}::bigint[]) AND d.id = v.id AND d.claimed_by = v.claimed_by AND d.status = 'pending'`.execute(db);
}

/** A call with its contact, as the payload builder needs it. */
export interface CallSnapshot {
  id: number | null;
  status: string;
  action_status: string | null;
  action_status_reason: string | null;
  call_ended_by: string | null;
  call_ended_by_reason: string | null;
  from_number: string | null;
  to_number: string | null;
  call_duration: number | null;
  start_time: Date | null;
  end_time: Date | null;
  call_type: string | null;
  record_url: string | null;
  call_data: Record<string, unknown> | null;
  contact_id: number | null;
  contact_phone: string | null;
  contact_data: Record<string, unknown> | null;
}

export async function loadCalls(db: Handle, callIds: number[]): Promise<Map<number, CallSnapshot>> {
  if (callIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('calls as c')
    .leftJoin('contacts as ct', 'ct.id', 'c.contact_id')
    .select([
      'c.id', 'c.status', 'c.action_status', 'c.action_status_reason', 'c.call_ended_by', 'c.call_ended_by_reason', 'c.from_number', 'c.to_number', 'c.call_duration', 'c.start_time', 'c.end_time',
      'c.call_type', 'c.record_url', 'c.call_data', 'c.contact_id', 'ct.phone_number as contact_phone',
      sql<Record<string, unknown> | null>`coalesce(ct.contact_data, c.contact_data)`.as('contact_data'),
    ])
    .where('c.id', 'in', callIds)
    .execute();
  return new Map(rows.map((r) => [r.id, { ...r, call_data: r.call_data as Record<string, unknown> | null }]));
}

export const recordUrlOf = async (db: Handle, callId: number) =>
  (await db.selectFrom('calls').select('record_url').where('id', '=', callId).executeTakeFirst())?.record_url ?? null;

/** A delivery the API sends at once (test, redeliver): written before the send, completed by the same request. */
export async function insertManualDelivery(db: Handle, input: { integrationId: number; ownerId: number; callId: number | null; messageId?: number | null; breakerTripId?: number | null; kind: 'test' | 'redeliver'; redeliveryOf: number | null; claimedBy: string }) {
  return db
    .insertInto('webhook_deliveries')
    .values({
      integration_id: input.integrationId,
      owner_id: input.ownerId,
      call_id: input.callId,
      message_id: input.messageId ?? null,
      breaker_trip_id: input.breakerTripId ?? null,
      kind: input.kind,
      redelivery_of: input.redeliveryOf,
      status: 'pending',
      claimed_by: input.claimedBy,
      lease_until: sql<Date>`now() + interval '10 minutes'`,
      started_at: sql<Date>`now()`,
    })
    .returning(['id'])
    .executeTakeFirstOrThrow();
}

const DELIVERY_COLUMNS = [
  'id', 'integration_id', 'call_id', 'message_id', 'breaker_trip_id', 'kind', 'redelivery_of', 'status', 'reason', 'skipped_by', 'request_method', 'request_url', 'payload',
  'extraction_method', 'null_fields', 'missing_required', 'http_status', 'duration_ms', 'response_body', 'created_at', 'started_at', 'finished_at',
] as const;

export const findDelivery = (db: Handle, id: number) =>
  db.selectFrom('webhook_deliveries').select(DELIVERY_COLUMNS).where('id', '=', id).executeTakeFirst();

/**
 * A page of an integration's delivery log and its count: exact up to EXACT_COUNT_UP_TO matches,
 * past that the planner's estimate (an exact count of 500,000 deliveries took 54 ms and grew
 * with the log, docs/scale.md).
 */
export async function listDeliveries(db: Handle, input: { integrationId: number; status?: string[]; callId?: number; skip: number; limit: number }) {
  let q = db.selectFrom('webhook_deliveries').where('integration_id', '=', input.integrationId);
  if (input.status && input.status.length > 0) q = q.where('status', 'in', input.status);
  if (input.callId !== undefined) q = q.where('call_id', '=', input.callId);
  const counted = await boundedCount(db, q);
  // Payloads carry contact data and transcripts: the page ends at the list byte budget.
  const rows = await cutToByteBudget(db, q.select(DELIVERY_COLUMNS).orderBy('id', 'desc').offset(input.skip).limit(input.limit));
  return { rows, count: counted.count, exact: counted.exact };
}
