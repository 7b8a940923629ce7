import { sql, type ExpressionBuilder, type Kysely, type Transaction } from 'kysely';
import type { Db } from '../../db/connection.ts';
import type { Database, RestCode } from '../../db/schema.ts';
import { insertAuditEvent } from '../audit/audit.repository.ts';
import type { Principal } from '../auth/principal.ts';
import { campaignVisibleTo } from '../campaigns/campaign-access.ts';
import { ANSWERED_STATUSES, COUNTED_STATUSES, HEALTH_DEFAULTS, type Figures, type HealthSettings, type NumberFigures, type Verdict } from './number-health.rule.ts';

/** All SQL of number health: its settings, the judgement's figures and rests, and the dialer's read. */

type Trx = Transaction<Database>;

/** The audit trail's actor label of an automatic rest and of a rest's end. */
export const HEALTH_ACTOR = 'number health';

const SETTING_KEYS = Object.keys(HEALTH_DEFAULTS) as (keyof HealthSettings)[];

export async function findHealthSettings(db: Db, ownerId: number): Promise<{ settings: HealthSettings; updated_at: Date | null }> {
  const row = await db.selectFrom('number_health_settings').selectAll().where('owner_id', '=', ownerId).executeTakeFirst();
  if (!row) return { settings: { ...HEALTH_DEFAULTS }, updated_at: null };
  return { settings: Object.fromEntries(SETTING_KEYS.map((k) => [k, row[k]])) as HealthSettings, updated_at: row.updated_at };
}

/** Writes an account's whole rule (the service merged the request into the current one); names every column it writes. */
export async function saveHealthSettings(db: Db, ownerId: number, s: HealthSettings, now: Date) {
  const values = {
    enabled: s.enabled, window_days: s.window_days, min_calls: s.min_calls, answer_rate_ratio: s.answer_rate_ratio,
    short_call_seconds: s.short_call_seconds, short_call_ratio: s.short_call_ratio, rest_hours: s.rest_hours, updated_at: now,
  };
  await db.insertInto('number_health_settings').values({ owner_id: ownerId, ...values })
    .onConflict((oc) => oc.column('owner_id').doUpdateSet(values)).execute();
}

/** Takes the judgement's lock: one process judges at a time, another skips its round (the next one judges anew). */
export async function tryJudgeLock(trx: Trx): Promise<boolean> {
  const { rows } = await sql<{ ok: boolean }>`SELECT pg_try_advisory_xact_lock(7310, 0) AS ok`.execute(trx);
  return rows[0]?.ok === true;
}

/**
 * The figures' statement is costed high enough for PostgreSQL's JIT, whose compilation took 1.4 s
 * of a 7.5 s judgement (2M calls in the window, a loaded 2-core machine) and saves nothing on
 * counts read from an index: off for the judgement's transaction. PGlite has no JIT setting to
 * refuse: set_config takes any name.
 */
export async function noJit(trx: Trx): Promise<void> {
  await sql`SELECT set_config('jit', 'off', true)`.execute(trx);
}

/**
 * Every account's figures over its window, and each of its numbers': one statement. The account
 * reads its outbound calls through calls_owner_start_cover_idx (status, call_duration included),
 * a number its own through calls_from_number_cover_idx (index-only, migration 0036), from the later of the window's start and the
 * end of its last rest (counted_since).
 */
export async function windowFigures(trx: Trx, now: Date) {
  const { rows } = await sql<{ kind: 'account' | 'number'; owner_id: number; phone_number_id: number | null; phone_number: string | null; rested_until: Date | null } & Figures>`
    WITH s AS (
      SELECT o.owner_id, ${now}::timestamptz - make_interval(days => coalesce(h.window_days, ${HEALTH_DEFAULTS.window_days}::int)) AS since,
             coalesce(h.short_call_seconds, ${HEALTH_DEFAULTS.short_call_seconds}::int) AS short_s
        FROM (SELECT DISTINCT owner_id FROM phone_numbers) o LEFT JOIN number_health_settings h ON h.owner_id = o.owner_id
    )
    SELECT 'account' AS kind, s.owner_id, NULL::bigint AS phone_number_id, NULL::text AS phone_number, NULL::timestamptz AS rested_until, f.*
      FROM s CROSS JOIN LATERAL (${figures(sql`k.owner_id = s.owner_id AND k.start_time > s.since`)}) f
    UNION ALL
    SELECT 'number', p.owner_id, p.id, p.phone_number, h.rested_until, f.*
      FROM phone_numbers p JOIN s ON s.owner_id = p.owner_id LEFT JOIN phone_number_health h ON h.phone_number_id = p.id
     CROSS JOIN LATERAL (${figures(sql`k.from_number = p.phone_number AND k.owner_id = p.owner_id AND k.start_time > greatest(s.since, coalesce(h.counted_since, '-infinity'::timestamptz))`)}) f`.execute(trx);
  const accounts = new Map<number, Figures>();
  const numbers = new Map<number, NumberFigures[]>();
  for (const r of rows) {
    const f = { calls: r.calls, answered: r.answered, short_calls: r.short_calls };
    const owner = Number(r.owner_id);
    if (r.kind === 'account') accounts.set(owner, f);
    else numbers.set(owner, [...(numbers.get(owner) ?? []), { ...f, owner_id: owner, phone_number_id: Number(r.phone_number_id), phone_number: r.phone_number!, rested_until: r.rested_until }]);
  }
  return { accounts, numbers };
}

const figures = (where: ReturnType<typeof sql>) => sql`
  SELECT count(*)::int AS calls,
         (count(*) FILTER (WHERE k.status = ANY(${[...ANSWERED_STATUSES]}::text[])))::int AS answered,
         (count(*) FILTER (WHERE k.status = ANY(${[...ANSWERED_STATUSES]}::text[]) AND coalesce(k.call_duration, 0) < s.short_s))::int AS short_calls
    FROM calls k WHERE k.call_type = 'outbound' AND k.status = ANY(${[...COUNTED_STATUSES]}::text[]) AND ${where}`;

/** The settings of these accounts (no row: the defaults). */
export async function settingsOf(trx: Trx, ownerIds: number[]): Promise<Map<number, HealthSettings>> {
  const rows = ownerIds.length === 0 ? [] : await trx.selectFrom('number_health_settings').selectAll().where('owner_id', 'in', ownerIds).execute();
  const saved = new Map(rows.map((r) => [Number(r.owner_id), Object.fromEntries(SETTING_KEYS.map((k) => [k, r[k]])) as HealthSettings]));
  return new Map(ownerIds.map((id) => [id, saved.get(id) ?? { ...HEALTH_DEFAULTS }]));
}

/** Writes every number's figures and its account's beside them (idempotent: the same round twice writes the same row). */
export async function saveFigures(trx: Trx, rows: { number: NumberFigures; account: Figures }[], now: Date) {
  if (rows.length === 0) return;
  const col = <T>(f: (r: (typeof rows)[number]) => T) => rows.map(f);
  await sql`
    INSERT INTO phone_number_health (phone_number_id, owner_id, calls, answered, short_calls, account_calls, account_answered, account_short_calls, judged_at)
    SELECT v.*, ${now}::timestamptz FROM unnest(${col((r) => r.number.phone_number_id)}::bigint[], ${col((r) => r.number.owner_id)}::bigint[],
      ${col((r) => r.number.calls)}::int[], ${col((r) => r.number.answered)}::int[], ${col((r) => r.number.short_calls)}::int[],
      ${col((r) => r.account.calls)}::int[], ${col((r) => r.account.answered)}::int[], ${col((r) => r.account.short_calls)}::int[]) v
    ON CONFLICT (phone_number_id) DO UPDATE SET calls = excluded.calls, answered = excluded.answered, short_calls = excluded.short_calls,
      account_calls = excluded.account_calls, account_answered = excluded.account_answered, account_short_calls = excluded.account_short_calls,
      judged_at = excluded.judged_at`.execute(trx);
}

/** Rests the numbers judged (those not resting already: a second process's round changes nothing); answers the rests made. */
export async function applyRests(trx: Trx, verdicts: Verdict[], now: Date) {
  if (verdicts.length === 0) return [];
  const { rows } = await sql<{ phone_number_id: number; owner_id: number; calls: number; answered: number; short_calls: number; account_calls: number; account_answered: number; account_short_calls: number }>`
    UPDATE phone_number_health h SET rested_at = ${now}::timestamptz, rested_until = v.until, rest_code = v.code, rest_reason = v.reason
      FROM unnest(${verdicts.map((v) => v.phone_number_id)}::bigint[], ${verdicts.map((v) => v.until)}::timestamptz[], ${verdicts.map((v) => v.code)}::text[], ${verdicts.map((v) => v.reason)}::text[]) AS v(id, until, code, reason)
     WHERE h.phone_number_id = v.id AND (h.rested_until IS NULL OR h.rested_until <= ${now}::timestamptz)
    RETURNING h.phone_number_id, h.owner_id, h.calls, h.answered, h.short_calls, h.account_calls, h.account_answered, h.account_short_calls`.execute(trx);
  const byId = new Map(verdicts.map((v) => [v.phone_number_id, v]));
  for (const r of rows) {
    const v = byId.get(Number(r.phone_number_id))!;
    await auditByHealth(trx, Number(r.owner_id), Number(r.phone_number_id), 'phone_number.rested', {
      code: v.code, reason: v.reason, rested_until: v.until.toISOString(), calls: r.calls, answered: r.answered, short_calls: r.short_calls,
      account_calls: r.account_calls, account_answered: r.account_answered, account_short_calls: r.account_short_calls,
    });
  }
  return rows;
}

/**
 * Ends rests: those whose time is over (`ownerId` undefined), or every rest of an account (number
 * health switched off), or one number's. Calls before the end are not judged again. Audited as
 * `code`; a person's end is audited by the service, so `audit` false. An account's or a number's
 * rest already over is left for the worker, which audits it as rest_over.
 */
export async function endRests(trx: Trx, input: { now: Date; code: 'rest_over' | 'disabled' | 'manual'; ownerId?: number; phoneNumberId?: number; audit: boolean }) {
  const { rows } = await sql<{ phone_number_id: number; owner_id: number }>`
    UPDATE phone_number_health SET counted_since = least(rested_until, ${input.now}::timestamptz), rested_until = NULL, rest_code = NULL, rest_reason = NULL
     WHERE rested_until IS NOT NULL
       ${input.ownerId === undefined && input.phoneNumberId === undefined ? sql`AND rested_until <= ${input.now}::timestamptz` : sql`AND rested_until > ${input.now}::timestamptz`}
       ${input.ownerId !== undefined ? sql`AND owner_id = ${input.ownerId}` : sql``}
       ${input.phoneNumberId !== undefined ? sql`AND phone_number_id = ${input.phoneNumberId}` : sql``}
    RETURNING phone_number_id, owner_id`.execute(trx);
  if (input.audit) for (const r of rows) await auditByHealth(trx, Number(r.owner_id), Number(r.phone_number_id), 'phone_number.unrested', { code: input.code });
  return rows;
}

/** A person rests one number until `until` (the row is made if the worker never judged it). */
export async function restByHand(trx: Trx, number: { id: number; owner_id: number }, until: Date, reason: string, now: Date) {
  await trx.insertInto('phone_number_health')
    .values({ phone_number_id: number.id, owner_id: number.owner_id, rested_at: now, rested_until: until, rest_code: 'manual', rest_reason: reason })
    .onConflict((oc) => oc.column('phone_number_id').doUpdateSet({ rested_at: now, rested_until: until, rest_code: 'manual', rest_reason: reason }))
    .execute();
}

async function auditByHealth(trx: Trx, ownerId: number, phoneNumberId: number, kind: 'phone_number.rested' | 'phone_number.unrested', details: Record<string, unknown>) {
  await insertAuditEvent(trx, {
    owner_id: ownerId, actor_user_id: null, actor_sub_user_id: null, actor_api_key_id: null, actor_label: sql<string>`${HEALTH_ACTOR}::text`,
    kind, subject_type: 'phone_number', subject_id: phoneNumberId, details, ip: null, user_agent: null,
  });
}

/** One number's health row (figures and rest), if it was ever judged or rested. */
export const findHealth = (db: Kysely<Database> | Trx, ids: number[]) =>
  ids.length === 0 ? Promise.resolve([]) : db.selectFrom('phone_number_health').selectAll().where('phone_number_id', 'in', ids).execute();

export interface RestedNumber {
  reason: string;
  code: RestCode;
  /** The number's answer rate of its last judgement; null: no calls counted. */
  answerRate: number | null;
}

/**
 * The dialer's read, once per round: the rested numbers of these campaigns, per campaign and
 * number (two accounts may hold the same number; each rests its own). Through
 * phone_numbers_campaign_idx and the health table's key: a few rows per campaign.
 */
export async function restedNumbersOf(trx: Trx, campaignIds: number[], now: Date): Promise<Map<number, Map<string, RestedNumber>>> {
  const byCampaign = new Map<number, Map<string, RestedNumber>>();
  if (campaignIds.length === 0) return byCampaign;
  const { rows } = await sql<{ campaign_id: number; phone_number: string; rest_reason: string | null; rest_code: RestCode; calls: number; answered: number }>`
    SELECT p.campaign_id, p.phone_number, h.rest_reason, h.rest_code, h.calls, h.answered
      FROM phone_numbers p JOIN phone_number_health h ON h.phone_number_id = p.id
     WHERE p.campaign_id = ANY(${campaignIds}::bigint[]) AND h.rested_until > ${now}::timestamptz`.execute(trx);
  for (const r of rows) {
    const id = Number(r.campaign_id);
    if (!byCampaign.has(id)) byCampaign.set(id, new Map());
    byCampaign.get(id)!.set(r.phone_number, { reason: r.rest_reason ?? 'rested', code: r.rest_code, answerRate: r.calls > 0 ? r.answered / r.calls : null });
  }
  return byCampaign;
}

/** The numbers the principal may see, newest first, each with its health row; and the count. */
export async function listNumberHealth(db: Db, principal: Principal, filter: { skip: number; limit: number; campaignId?: number | undefined; id?: number }) {
  const visible = campaignVisibleTo(principal, 'phone_numbers.campaign_id', 'phone_numbers.owner_id');
  const where = (eb: ExpressionBuilder<Database, 'phone_numbers'>) =>
    eb.and([visible(eb), ...(filter.campaignId !== undefined ? [eb('phone_numbers.campaign_id', '=', filter.campaignId)] : []), ...(filter.id !== undefined ? [eb('phone_numbers.id', '=', filter.id)] : [])]);
  const data = await db.selectFrom('phone_numbers')
    .leftJoin('campaigns', 'campaigns.id', 'phone_numbers.campaign_id')
    .leftJoin('phone_number_health as h', 'h.phone_number_id', 'phone_numbers.id')
    .select(['phone_numbers.id', 'phone_numbers.phone_number', 'phone_numbers.campaign_id', 'campaigns.title as campaign_title',
      'h.calls', 'h.answered', 'h.short_calls', 'h.rested_until', 'h.rested_at', 'h.rest_code', 'h.rest_reason', 'h.judged_at'])
    .where(where).orderBy('phone_numbers.id', 'desc').offset(filter.skip).limit(filter.limit).execute();
  const { count } = await db.selectFrom('phone_numbers').select((eb) => eb.fn.countAll<number>().as('count')).where(where).executeTakeFirstOrThrow();
  return { data, count: Number(count) };
}

/** The account's figures of its last judgement (every row of one judgement carries them). */
export const latestAccountFigures = (db: Db, ownerId: number) =>
  db.selectFrom('phone_number_health').select(['account_calls', 'account_answered', 'account_short_calls'])
    .where('owner_id', '=', ownerId).where('judged_at', 'is not', null).orderBy('judged_at', 'desc').limit(1).executeTakeFirst();
