import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { WebhookIntegrationRow } from '../../db/tables/webhooks.ts';

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
  http_status: number | null;
  duration_ms: number | null;
  response_body: string | null;
}

export interface ClaimedDelivery {
  id: number;
  integration: WebhookIntegrationRow | null;
  call: CallSnapshot | null;
}

/**
 * Claims due deliveries and loads what sending them needs, in one statement (one
 * round trip per batch). SKIP LOCKED lets any number of workers claim side by side;
 * the re-checked `claimed_by IS NULL` means a row is claimed once, ever: a claim that
 * is never completed is failed by the sweeper, never handed out again (the spec
 * allows no retry, so at most one send per row).
 */
export async function claimDeliveries(db: Handle, input: { workerId: string; limit: number; leaseSeconds: number }): Promise<ClaimedDelivery[]> {
  const { rows } = await sql<Omit<CallSnapshot, 'id'> & { delivery_id: number; call_id: number | null; integration: (Omit<WebhookIntegrationRow, 'created_at' | 'updated_at'> & { created_at: string; updated_at: string }) | null }>`
    WITH claimed AS (
      UPDATE webhook_deliveries d
      SET claimed_by = ${sql.lit(input.workerId)}, lease_until = now() + make_interval(secs => ${sql.lit(Math.trunc(input.leaseSeconds))}), started_at = now()
      WHERE d.id IN (
        SELECT id FROM webhook_deliveries
        WHERE status = 'pending' AND kind = 'call' AND claimed_by IS NULL
        ORDER BY id
        LIMIT ${sql.lit(Math.trunc(input.limit))}
        FOR UPDATE SKIP LOCKED
      )
      RETURNING d.id, d.integration_id, d.call_id
    )
    SELECT claimed.id AS delivery_id, c.id AS call_id, c.status, c.action_status, c.from_number, c.to_number, c.call_duration,
           c.start_time, c.end_time, c.call_type, c.record_url, c.call_data, c.contact_id, ct.phone_number AS contact_phone,
           coalesce(ct.contact_data, c.contact_data) AS contact_data,
           to_json(i) AS integration
    FROM claimed
    LEFT JOIN calls c ON c.id = claimed.call_id
    LEFT JOIN contacts ct ON ct.id = c.contact_id
    LEFT JOIN webhook_integrations i ON i.id = claimed.integration_id
    ORDER BY claimed.id`.execute(db);
  return rows.map(({ delivery_id, call_id, integration, ...call }) => ({
    id: delivery_id,
    integration: integration ? ({ ...integration, created_at: new Date(integration.created_at), updated_at: new Date(integration.updated_at) } as WebhookIntegrationRow) : null,
    call: call_id === null ? null : { ...call, id: call_id, start_time: call.start_time && new Date(call.start_time), end_time: call.end_time && new Date(call.end_time) },
  }));
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
/** Writes many outcomes in one statement; only the claimer may complete its rows. */
export async function completeDeliveries(db: Handle, claimedBy: string, outcomes: DeliveryOutcome[]): Promise<void> {
  if (outcomes.length === 0) return;
  await sql`
    UPDATE webhook_deliveries d
    SET status = v.status, reason = v.reason, request_method = v.request_method, request_url = v.request_url,
        payload = v.payload, extraction_method = v.extraction_method, null_fields = v.null_fields,
        http_status = v.http_status, duration_ms = v.duration_ms, response_body = v.response_body,
        finished_at = now(), lease_until = NULL
    FROM jsonb_to_recordset(${sql.lit(JSON.stringify(outcomes))}::jsonb) AS v(
      id bigint, status text, reason text, request_method text, request_url text, payload json,
      extraction_method text, null_fields text[], http_status integer, duration_ms integer, response_body text)
    WHERE d.id = v.id AND d.claimed_by = ${sql.lit(claimedBy)} AND d.status = 'pending'`.execute(db);
}

/** A call with its contact, as the payload builder needs it. */
export interface CallSnapshot {
  id: number | null;
  status: string;
  action_status: string | null;
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
      'c.id', 'c.status', 'c.action_status', 'c.from_number', 'c.to_number', 'c.call_duration', 'c.start_time', 'c.end_time',
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
export async function insertManualDelivery(db: Handle, input: { integrationId: number; ownerId: number; callId: number | null; kind: 'test' | 'redeliver'; redeliveryOf: number | null; claimedBy: string }) {
  return db
    .insertInto('webhook_deliveries')
    .values({
      integration_id: input.integrationId,
      owner_id: input.ownerId,
      call_id: input.callId,
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
  'id', 'integration_id', 'call_id', 'kind', 'redelivery_of', 'status', 'reason', 'request_method', 'request_url', 'payload',
  'extraction_method', 'null_fields', 'http_status', 'duration_ms', 'response_body', 'created_at', 'started_at', 'finished_at',
] as const;

export const findDelivery = (db: Handle, id: number) =>
  db.selectFrom('webhook_deliveries').select(DELIVERY_COLUMNS).where('id', '=', id).executeTakeFirst();

export async function listDeliveries(db: Handle, input: { integrationId: number; status?: string[]; callId?: number; skip: number; limit: number }) {
  let q = db.selectFrom('webhook_deliveries').where('integration_id', '=', input.integrationId);
  if (input.status && input.status.length > 0) q = q.where('status', 'in', input.status);
  if (input.callId !== undefined) q = q.where('call_id', '=', input.callId);
  const [rows, count] = await Promise.all([
    q.select(DELIVERY_COLUMNS).orderBy('id', 'desc').offset(input.skip).limit(input.limit).execute(),
    q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, count: Number(count.n) };
}
