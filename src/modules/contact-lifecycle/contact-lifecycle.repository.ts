import { sql, type Transaction } from 'kysely';
import type { Db } from '../../db/connection.ts';
import type { Database } from '../../db/schema.ts';
import { DUE_STATUSES, NEVER_QUEUED } from './contact-states.ts';
import type { NextAction, NextActionCode } from './next-action.ts';

/**
 * Every write of a contact's status, attempts and next step (next_action_time, _code and
 * _reason): the only SQL that moves a contact along its lifecycle (test/architecture.test.ts
 * fails if another file updates contacts' lifecycle columns). The parking of contacts by
 * campaign state is in campaign-parking.repository.ts, in this folder.
 *
 * Lock order: each function locks contact rows only, in the caller's transaction. The rows a
 * dialling round or a call's end updates are the ones they locked before (FOR UPDATE, id order);
 * the queue operations and the do-not-call updates lock with FOR UPDATE SKIP LOCKED or by
 * primary key, never waiting on a contact a dialling round holds.
 */

/** The caller's transaction (or the pool, for a single statement on its own). */
type Trx = Transaction<Database> | Db;

/** A contact moved to a status and its next step. */
export interface ContactStep {
  id: number;
  status: string;
  at: Date | null;
  next: NextAction;
}

const codes = (rows: { next: NextAction }[]) => rows.map((r) => r.next.code);
const reasons = (rows: { next: NextAction }[]) => rows.map((r) => r.next.reason);

/** The contacts a round dials now: `in progress`, one attempt more. */
export async function markContactsCalling(trx: Trx, contactIds: number[]): Promise<void> {
  if (contactIds.length === 0) return;
  await sql`
    UPDATE contacts SET status = 'in progress', calls_attempts = calls_attempts + 1, next_action_time = NULL,
      next_action_code = 'calling', next_action_reason = 'call ' || (calls_attempts + 1) || ' in progress', updated_at = now()
    WHERE id = ANY(${contactIds}::bigint[])`.execute(trx);
}

/** The contact who calls in: `in progress` (an inbound call counts no attempt). */
export async function markContactInbound(trx: Trx, contactId: number): Promise<void> {
  await sql`
    UPDATE contacts SET status = 'in progress', next_action_time = NULL, next_action_code = 'inbound_call',
      next_action_reason = 'inbound call in progress', updated_at = now()
    WHERE id = ${contactId}`.execute(trx);
}

/** Moves contacts to a status and a later time (outside their window, capped, suppressed at dial time). */
export async function moveContacts(trx: Trx, rows: ContactStep[]): Promise<void> {
  if (rows.length === 0) return;
  await sql`
    UPDATE contacts c SET status = u.s, next_action_time = u.t, next_action_code = u.k, next_action_reason = u.r, updated_at = now()
    FROM unnest(${rows.map((r) => r.id)}::bigint[], ${rows.map((r) => r.at)}::timestamptz[], ${codes(rows)}::text[], ${reasons(rows)}::text[],
                ${rows.map((r) => r.status)}::text[]) AS u(id, t, k, r, s)
    WHERE c.id = u.id`.execute(trx);
}

/** Leaves contacts due, later: their status stays (a vendor's pacing or settings held them back). */
export async function deferContacts(trx: Trx, rows: { id: number; at: Date; next: NextAction }[]): Promise<void> {
  if (rows.length === 0) return;
  await sql`
    UPDATE contacts c SET next_action_time = u.t, next_action_code = u.k, next_action_reason = u.r, updated_at = now()
    FROM unnest(${rows.map((r) => r.id)}::bigint[], ${rows.map((r) => r.at)}::timestamptz[], ${codes(rows)}::text[], ${reasons(rows)}::text[]) AS u(id, t, k, r)
    WHERE c.id = u.id`.execute(trx);
}

/** The contacts' steps after their calls ended, with their attempts (a refunded attempt is given back). */
export async function moveContactsAfterCalls(trx: Trx, rows: (ContactStep & { attempts: number })[]): Promise<void> {
  if (rows.length === 0) return;
  await sql`
    UPDATE contacts c SET status = u.s, next_action_time = u.t, next_action_code = u.k, next_action_reason = u.r,
      calls_attempts = u.n, updated_at = now()
    FROM unnest(${rows.map((r) => r.id)}::bigint[], ${rows.map((r) => r.status)}::text[], ${rows.map((r) => r.at)}::timestamptz[],
                ${codes(rows)}::text[], ${reasons(rows)}::text[], ${rows.map((r) => r.attempts)}::int[]) AS u(id, s, t, k, r, n)
    WHERE c.id = u.id`.execute(trx);
}

/** A call that was never placed: the contact's attempt is given back, with its next step. Only while it is still `in progress`. */
export async function withdrawAttempt(trx: Trx, step: ContactStep): Promise<void> {
  await sql`
    UPDATE contacts SET status = ${step.status}, calls_attempts = greatest(calls_attempts - 1, 0), next_action_time = ${step.at},
      next_action_code = ${step.next.code}, next_action_reason = ${step.next.reason}, updated_at = now()
    WHERE id = ${step.id} AND status = 'in progress'`.execute(trx);
}

/**
 * The account's contacts with these numbers go to do_not_disturb, each with its sentence. A
 * contact in a call is left to the call's end (which meets the suppression at its next dial);
 * with `skipLocked`, so is a contact a dialling round holds (the call-ending batch must not wait
 * on a round that waits on it).
 */
export async function suppressContacts(trx: Trx, ownerId: number, numbers: { phone: string; reason: string }[], options: { skipLocked?: boolean } = {}): Promise<void> {
  if (numbers.length === 0) return;
  await sql`
    UPDATE contacts AS c
       SET status = 'do_not_disturb', next_action_time = NULL, next_action_code = 'suppressed', next_action_reason = m.note, updated_at = now()
      FROM unnest(${numbers.map((n) => n.phone)}::text[], ${numbers.map((n) => n.reason)}::text[]) AS m(phone_number, note)
     WHERE c.owner_id = ${ownerId} AND c.phone_number = m.phone_number
       AND c.status NOT IN ('in progress', 'do_not_disturb')
       ${options.skipLocked ? sql`AND c.id IN (
         SELECT d.id FROM contacts d WHERE d.owner_id = ${ownerId} AND d.phone_number = ANY(${numbers.map((n) => n.phone)}::text[])
           AND d.status NOT IN ('in progress', 'do_not_disturb') ORDER BY d.id FOR UPDATE SKIP LOCKED)` : sql``}`.execute(trx);
}

/** A person set the status or next step through the API (`set_by_user`), or the number is suppressed. */
export async function setContactStep(trx: Trx, id: number, step: { status?: string; next_action_time?: Date | string | null; next_action_reason?: string | null; code?: NextActionCode }): Promise<void> {
  const { code = 'set_by_user', ...values } = step;
  if (Object.keys(values).length === 0) return;
  await trx.updateTable('contacts').set({ ...values, next_action_code: code, updated_at: sql<Date>`now()` }).where('id', '=', id).execute();
}

/** Queues these contacts now (none of NEVER_QUEUED). Returns the ids queued. */
export async function queueContacts(trx: Trx, contactIds: number[], reason: string): Promise<number[]> {
  if (contactIds.length === 0) return [];
  const rows = await trx
    .updateTable('contacts')
    .set({ status: 'added_to_queue', next_action_time: sql<Date>`now()`, next_action_code: 'queued', next_action_reason: reason, updated_at: sql<Date>`now()` })
    .where('id', 'in', contactIds)
    .where('status', 'not in', NEVER_QUEUED)
    .returning('id')
    .execute();
  return rows.map((r) => r.id);
}

/** Queues a campaign's contacts that have `status`, oldest first, at most `limit` (all when null). Returns how many. */
export async function queueCampaignByStatus(trx: Trx, input: { campaignId: number; status: string; limit: number | null; reason: string }): Promise<number> {
  if (NEVER_QUEUED.includes(input.status)) return 0;
  const result = await sql`
    UPDATE contacts SET status = 'added_to_queue', next_action_time = now(), next_action_code = 'queued', next_action_reason = ${input.reason}, updated_at = now()
    WHERE id IN (
      SELECT id FROM contacts WHERE campaign_id = ${input.campaignId} AND status = ${input.status}
      ORDER BY created_at, id ${input.limit === null ? sql`` : sql`LIMIT ${input.limit}`}
      FOR UPDATE SKIP LOCKED)`.execute(trx);
  return Number(result.numAffectedRows ?? 0);
}

/**
 * Texts (modules/messaging): a reply counts as reached. The contacts' pending call retries
 * (due, not yet claimed) end `finished` with the given step; a contact in a call, or one already
 * past its retries, keeps its state. Returns the ids moved.
 */
export async function finishDueContacts(trx: Trx, contactIds: number[], next: NextAction): Promise<number[]> {
  if (contactIds.length === 0) return [];
  const rows = await trx.updateTable('contacts')
    .set({ status: 'finished', next_action_time: null, next_action_code: next.code, next_action_reason: next.reason, updated_at: sql<Date>`now()` })
    .where('id', 'in', contactIds).where('status', 'in', [...DUE_STATUSES])
    .returning('id').execute();
  return rows.map((r) => Number(r.id));
}

/** The person asked to be called at `at` (by text): due then, `call_scheduled`, unless NEVER_QUEUED. Answers whether it was scheduled. */
export async function scheduleContactCall(trx: Trx, contactId: number, at: Date, next: NextAction): Promise<boolean> {
  const rows = await trx.updateTable('contacts')
    .set({ status: 'call_scheduled', next_action_time: at, next_action_code: next.code, next_action_reason: next.reason, updated_at: sql<Date>`now()` })
    .where('id', '=', contactId).where('status', 'not in', NEVER_QUEUED)
    .returning('id').execute();
  return rows.length > 0;
}
