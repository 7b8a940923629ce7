import { sql } from 'kysely';
import type { Db } from '../../../db/connection.ts';
import type { SuppressionRow, SuppressionsTable } from '../../../db/tables/compliance.ts';
import { suppressContacts } from '../../contact-lifecycle/contact-lifecycle.repository.ts';

/**
 * All SQL of the do-not-call list. Every addition (one, bulk, opt-out, integration) goes through
 * upsertSuppressions, which also moves the account's contacts with those numbers to do_not_disturb
 * in the caller's transaction: a suppression and its effect on contacts commit together.
 */

export type Source = SuppressionsTable['source'];

export interface SuppressionDraft {
  /** E.164, already normalised by the caller (each intake reports a bad number in its own words). */
  phone_number: string;
  reason: string | null;
  source: Source;
  expires_at: Date | null;
  call_id?: number | null;
  created_by_user_id?: number | null;
  created_by_sub_user_id?: number | null;
}

/** What a contact's next_action_reason says about the suppression that stopped it. */
export const suppressionNote = (row: Pick<SuppressionRow, 'id' | 'reason' | 'source'>) =>
  `suppressed: ${row.reason ?? row.source} (do-not-call list, suppression ${row.id})`;

/** Not expired at `now`: the condition under which a suppression applies. */
const activeAt = (now: Date | undefined) => sql<boolean>`(s.expires_at IS NULL OR s.expires_at > ${now ?? sql`now()`})`;

/**
 * Adds numbers to the owner's list, one row per number. A number already listed keeps its id,
 * created_at and creator; its reason is replaced when a new one is given, its expires_at always
 * (null = never expires); an opt_out turns the row's source into opt_out and records its call.
 * Rows are written in phone order so two writers of overlapping numbers never deadlock; a
 * repeated number inside `drafts` counts once (the last one wins). Then every contact of the
 * account with one of these numbers that is not in progress (nor already do_not_disturb) is
 * moved to do_not_disturb with next_action_time null and a reason naming the suppression.
 */
export async function upsertSuppressions(trx: Db, ownerId: number, drafts: SuppressionDraft[]): Promise<SuppressionRow[]> {
  const byPhone = new Map<string, SuppressionDraft>();
  for (const d of drafts) byPhone.set(d.phone_number, d);
  const rows = [...byPhone.values()].sort((a, b) => (a.phone_number < b.phone_number ? -1 : a.phone_number > b.phone_number ? 1 : 0));
  if (rows.length === 0) return [];
  const written = await sql<SuppressionRow>`
    INSERT INTO suppressions AS s (owner_id, phone_number, reason, source, call_id, created_by_user_id, created_by_sub_user_id, expires_at)
    SELECT ${ownerId}, u.phone_number, u.reason, u.source, u.call_id, u.created_by_user_id, u.created_by_sub_user_id, u.expires_at::timestamptz
      FROM unnest(${rows.map((r) => r.phone_number)}::text[], ${rows.map((r) => r.reason)}::text[], ${rows.map((r) => r.source)}::text[],
                  ${rows.map((r) => r.call_id ?? null)}::bigint[], ${rows.map((r) => r.created_by_user_id ?? null)}::bigint[],
                  ${rows.map((r) => r.created_by_sub_user_id ?? null)}::bigint[], ${rows.map((r) => r.expires_at?.toISOString() ?? null)}::text[])
        AS u(phone_number, reason, source, call_id, created_by_user_id, created_by_sub_user_id, expires_at)
     ORDER BY u.phone_number
    ON CONFLICT (owner_id, phone_number) DO UPDATE SET
      reason = COALESCE(excluded.reason, s.reason),
      expires_at = excluded.expires_at,
      source = CASE WHEN excluded.source = 'opt_out' THEN 'opt_out' ELSE s.source END,
      call_id = COALESCE(excluded.call_id, s.call_id)
    RETURNING s.*`.execute(trx);
  const active = written.rows.filter((r) => r.expires_at === null || new Date(r.expires_at) > new Date());
  if (active.length > 0) {
    await suppressContacts(trx, ownerId, active.map((r) => ({ phone: r.phone_number, reason: suppressionNote(r) })));
  }
  return written.rows;
}

/**
 * The owner's unexpired suppressions among `numbers` (E.164), by number, in one query. Every way
 * contacts are created asks this in its transaction (contacts.repository insertContacts).
 */
export async function suppressedAmong(db: Db, ownerId: number, numbers: readonly string[], now?: Date): Promise<Map<string, SuppressionRow>> {
  const unique = [...new Set(numbers)];
  if (unique.length === 0) return new Map();
  const rows = await db
    .selectFrom('suppressions as s')
    .selectAll('s')
    .where('s.owner_id', '=', ownerId)
    .where(sql<boolean>`s.phone_number = ANY(${unique}::text[])`)
    .where(activeAt(now))
    .execute();
  return new Map(rows.map((r) => [r.phone_number, r]));
}

/** A suppression with who added it, as answers show it. */
export type SuppressionView = SuppressionRow & { user_email: string | null; sub_user_email: string | null };

const withCreator = (db: Db) =>
  db
    .selectFrom('suppressions as s')
    .leftJoin('users as u', 'u.id', 's.created_by_user_id')
    .leftJoin('sub_users as su', 'su.id', 's.created_by_sub_user_id')
    .selectAll('s')
    .select(['u.email as user_email', 'su.email as sub_user_email']);

export const findSuppression = (db: Db, id: number) => db.selectFrom('suppressions').selectAll().where('id', '=', id).executeTakeFirst();

export const viewSuppressions = (db: Db, ids: number[]): Promise<SuppressionView[]> =>
  ids.length === 0 ? Promise.resolve([]) : withCreator(db).where('s.id', 'in', ids).orderBy('s.id', 'desc').execute();

export interface SuppressionFilters {
  phoneNumber?: string | undefined;
  sources?: Source[] | undefined;
  includeExpired: boolean;
  now: Date;
}

/** One page, newest first (id descending), and the total count of the owner's matching rows. */
export async function listSuppressions(db: Db, ownerId: number, f: SuppressionFilters, skip: number, limit: number) {
  let base = db.selectFrom('suppressions as s').where('s.owner_id', '=', ownerId);
  if (f.phoneNumber !== undefined) base = base.where('s.phone_number', '=', f.phoneNumber);
  if (f.sources && f.sources.length > 0) base = base.where('s.source', 'in', f.sources);
  if (!f.includeExpired) base = base.where(activeAt(f.now));
  const [page, count] = await Promise.all([
    base.select('s.id').orderBy('s.id', 'desc').offset(skip).limit(limit).execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows: await viewSuppressions(db, page.map((r) => Number(r.id))), count: Number(count.n) };
}

export const deleteSuppressionRow = (db: Db, id: number) => db.deleteFrom('suppressions').where('id', '=', id).execute();
