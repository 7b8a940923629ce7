import { sql } from 'kysely';
import type { Db } from '../../db/connection.ts';
import { UNSUBSCRIBED_CODE } from '../../messaging/text-channel.ts';
import { campaignVisibleTo } from '../campaigns/campaign-access.ts';
import type { CallScope } from './analytics.repository.ts';
import { cents, rounded } from './analytics.service.ts';
import type { TextsT } from './analytics.schemas.ts';

/**
 * The texts figures of the detailed report (analytics.schemas.ts, Texts, says what each counts).
 * Texts count in a period by created_at, the service's clock when the row was written (the send
 * of an outbound text, the arrival of an inbound one), as calls count by start_time. The scope is
 * the calls' (tenancy through campaignVisibleTo, the campaign filter); call types do not apply.
 * The periods are adjacent ([previous, current)), so one range scan of the owner's (or the
 * campaign's) messages by created_at (migration 0029) serves both. Measured on PostgreSQL with
 * 200,000 texts (40,000 inbound from 4,000 contacts, 200,000 calls) in a month, both periods:
 * 500-780 ms in the first form (a DISTINCT aggregate, an opt-out lookup per text, one statement
 * per period for the contacts), 200-260 ms as below.
 */

// Accepted by the vendor: it answered with its id or a status past 'sending'. A refused send
// (failed at once, no vendor id) and one whose answer is lost (still 'sending') were not sent.
const SENT = sql`(m.provider_message_id IS NOT NULL OR m.status IN ('queued', 'sent', 'delivered', 'undelivered', 'read'))`;

interface TextRow {
  p: number;
  sent: number;
  delivered: number;
  failed: number;
  replies: number;
  opt_outs: number;
  cost: number | null;
}

interface ContactRow {
  p: number;
  replied_contacts: number;
  reached: number;
}

type Period = { start: Date; end: Date };

function scopedMessages(db: Db, scope: CallScope, periods: Period[]) {
  const from = new Date(Math.min(...periods.map((p) => p.start.getTime())));
  const to = new Date(Math.max(...periods.map((p) => p.end.getTime())));
  let query = db.selectFrom('messages')
    .where(campaignVisibleTo(scope.principal, 'messages.campaign_id', 'messages.owner_id'))
    .where('messages.created_at', '>=', from).where('messages.created_at', '<', to);
  if (scope.campaignId !== undefined) query = query.where('messages.campaign_id', '=', scope.campaignId);
  // The number of the period holding the text (1-based), or null in a gap between periods.
  const cases = periods.map((p, i) => sql`WHEN messages.created_at >= ${p.start}::timestamptz AND messages.created_at < ${p.end}::timestamptz THEN ${i + 1}::int`);
  return query.select(sql<number>`CASE ${sql.join(cases, sql` `)} END`.as('p'));
}

/** The figures of each period (1 = the scope's, 2 = the one before it when asked), in that order. */
export async function textsOf(db: Db, scope: CallScope, periods: Period[]): Promise<TextsT[]> {
  const [figures, contacts] = await Promise.all([textFigures(db, scope, periods), repliedContacts(db, scope, periods)]);
  const byPeriod = new Map(figures.map((r) => [Number(r.p), r]));
  const contactsOf = new Map(contacts.map((r) => [Number(r.p), r]));
  return periods.map((_, i) => {
    const r = byPeriod.get(i + 1);
    const c = contactsOf.get(i + 1);
    return {
      sent: Number(r?.sent ?? 0),
      delivered: Number(r?.delivered ?? 0),
      failed: Number(r?.failed ?? 0),
      replies: Number(r?.replies ?? 0),
      replied_contacts: Number(c?.replied_contacts ?? 0),
      opt_outs_by_text: Number(r?.opt_outs ?? 0),
      cost: cents(Number(r?.cost ?? 0)),
      reached_after_unanswered_calls: Number(c?.reached ?? 0),
    };
  });
}

/**
 * Counts and cost per period: one pass over the texts, hashed by period (no DISTINCT here: it
 * made PostgreSQL sort 200,000 texts to disk, 0.9 s). An opt-out is looked up only for an inbound
 * text or one the vendor called unsubscribed (CASE fixes that order; a plain AND looked it up for
 * every text): a STOP, or Twilio's 21610, suppresses the number, and its audit event names the
 * message (none when the number was already suppressed otherwise). A contact who says STOP twice
 * writes two events, so opt-outs are counted by contact.
 */
async function textFigures(db: Db, scope: CallScope, periods: Period[]): Promise<TextRow[]> {
  const texts = scopedMessages(db, scope, periods)
    .select(['messages.id', 'messages.owner_id', 'messages.contact_id', 'messages.direction', 'messages.status', 'messages.provider_message_id', 'messages.cost', 'messages.error_code']);
  const optOut = sql<boolean>`CASE WHEN m.direction = 'inbound' OR m.error_code = ${UNSUBSCRIBED_CODE} THEN EXISTS (
    SELECT 1 FROM audit_events a WHERE a.kind = 'suppression.added' AND a.details->>'message_id' = m.id::text AND a.owner_id = m.owner_id) ELSE false END`;
  const rows = await db.selectFrom(texts.as('m'))
    .select([
      'm.p',
      sql<number>`count(*) FILTER (WHERE m.direction = 'outbound' AND ${SENT})`.as('sent'),
      sql<number>`count(*) FILTER (WHERE m.direction = 'outbound' AND m.status IN ('delivered', 'read'))`.as('delivered'),
      sql<number>`count(*) FILTER (WHERE m.direction = 'outbound' AND m.status IN ('failed', 'undelivered'))`.as('failed'),
      sql<number>`count(*) FILTER (WHERE m.direction = 'inbound')`.as('replies'),
      // Distinct contacts among the few opted-out texts, deduplicated after the pass: an aggregate
      // with DISTINCT would make the whole pass a sorted one.
      sql<number>`(SELECT count(DISTINCT x) FROM unnest(array_agg(m.contact_id) FILTER (WHERE ${optOut})) x)`.as('opt_outs'),
      sql<number | null>`sum(m.cost) FILTER (WHERE m.direction = 'outbound')`.as('cost'),
    ])
    .where('m.p', 'is not', null)
    .groupBy('m.p')
    .execute();
  return rows as TextRow[];
}

/**
 * Per period: the contacts who texted in, and among them those reached by text after unanswered
 * calls: a call of the period before their last text in it, and none of their calls in the period
 * answered (call_duration > 0, the totals' `answered`). It starts from the period's inbound texts
 * grouped by contact and looks up each contact's calls by contact (calls_contact_idx), never
 * scanning the period's calls, which are many more.
 */
async function repliedContacts(db: Db, scope: CallScope, periods: Period[]): Promise<ContactRow[]> {
  const bounds = sql`unnest(${periods.map((p) => p.start.toISOString())}::timestamptz[], ${periods.map((p) => p.end.toISOString())}::timestamptz[]) WITH ORDINALITY AS b(lo, hi, p)`;
  const replied = scopedMessages(db, scope, periods).where('messages.direction', '=', 'inbound')
    .select(['messages.contact_id', sql<Date>`max(messages.created_at)`.as('last_reply')])
    .groupBy([sql`1`, 'messages.contact_id']);
  const { rows } = await sql<ContactRow>`
    SELECT r.p, count(*) AS replied_contacts,
      count(*) FILTER (WHERE EXISTS (SELECT 1 FROM calls c WHERE c.contact_id = r.contact_id AND c.start_time >= b.lo AND c.start_time < r.last_reply)
        AND NOT EXISTS (SELECT 1 FROM calls c WHERE c.contact_id = r.contact_id AND c.start_time >= b.lo AND c.start_time < b.hi AND c.call_duration > 0)) AS reached
    FROM (${replied}) r JOIN ${bounds} ON b.p = r.p
    WHERE r.p IS NOT NULL
    GROUP BY r.p`.execute(db);
  return rows;
}

/** The change of every texts figure, as the totals' change is taken. */
export function textsChange(current: TextsT, previous: TextsT) {
  return Object.fromEntries(
    (Object.keys(current) as (keyof TextsT)[]).map((key) => {
      const c = current[key];
      const p = previous[key];
      return [key, { absolute: rounded(c - p, 4), percent: p === 0 ? null : rounded(((c - p) / Math.abs(p)) * 100, 2) }];
    }),
  ) as Record<keyof TextsT, { absolute: number | null; percent: number | null }>;
}
