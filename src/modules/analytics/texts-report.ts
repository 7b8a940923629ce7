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
 * campaign's) messages by created_at (migration 0029) serves both.
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
  replied_contacts: number;
  opt_outs: number;
  cost: number | null;
}

function scopedMessages(db: Db, scope: CallScope, start: Date, end: Date) {
  let query = db.selectFrom('messages')
    .where(campaignVisibleTo(scope.principal, 'messages.campaign_id', 'messages.owner_id'))
    .where('messages.created_at', '>=', start).where('messages.created_at', '<', end);
  if (scope.campaignId !== undefined) query = query.where('messages.campaign_id', '=', scope.campaignId);
  return query;
}

/** The figures of each period (1 = the scope's, 2 = the one before it when asked), in that order. */
export async function textsOf(db: Db, scope: CallScope, periods: { start: Date; end: Date }[]): Promise<TextsT[]> {
  const from = new Date(Math.min(...periods.map((p) => p.start.getTime())));
  const to = new Date(Math.max(...periods.map((p) => p.end.getTime())));
  const period = sql<number>`CASE ${sql.join(periods.map((p, i) => sql`WHEN messages.created_at >= ${p.start}::timestamptz AND messages.created_at < ${p.end}::timestamptz THEN ${i + 1}`), sql` `)} END`;
  const inScope = scopedMessages(db, scope, from, to)
    .select(['messages.id', 'messages.owner_id', 'messages.contact_id', 'messages.direction', 'messages.status', 'messages.provider_message_id', 'messages.cost', 'messages.error_code', period.as('p')]);
  const [figures, reached] = await Promise.all([
    db.selectFrom(inScope.as('m'))
      .select([
        'm.p',
        sql<number>`count(*) FILTER (WHERE m.direction = 'outbound' AND ${SENT})`.as('sent'),
        sql<number>`count(*) FILTER (WHERE m.direction = 'outbound' AND m.status IN ('delivered', 'read'))`.as('delivered'),
        sql<number>`count(*) FILTER (WHERE m.direction = 'outbound' AND m.status IN ('failed', 'undelivered'))`.as('failed'),
        sql<number>`count(*) FILTER (WHERE m.direction = 'inbound')`.as('replies'),
        sql<number>`count(DISTINCT m.contact_id) FILTER (WHERE m.direction = 'inbound')`.as('replied_contacts'),
        // A STOP (inbound) or a vendor's "unsubscribed" on an outbound text suppresses the number;
        // its audit event names the message that did (none when the number was already suppressed
        // otherwise). A contact who says STOP twice is one opt-out.
        sql<number>`count(DISTINCT m.contact_id) FILTER (WHERE (m.direction = 'inbound' OR m.error_code = ${UNSUBSCRIBED_CODE}) AND EXISTS (
          SELECT 1 FROM audit_events a WHERE a.kind = 'suppression.added' AND a.details->>'message_id' = m.id::text AND a.owner_id = m.owner_id))`.as('opt_outs'),
        sql<number | null>`sum(m.cost) FILTER (WHERE m.direction = 'outbound')`.as('cost'),
      ])
      .where('m.p', 'is not', null)
      .groupBy('m.p')
      .execute() as Promise<TextRow[]>,
    reachedAfterUnansweredCalls(db, scope, periods),
  ]);
  const byPeriod = new Map(figures.map((r) => [Number(r.p), r]));
  return periods.map((_, i) => {
    const r = byPeriod.get(i + 1);
    return {
      sent: Number(r?.sent ?? 0),
      delivered: Number(r?.delivered ?? 0),
      failed: Number(r?.failed ?? 0),
      replies: Number(r?.replies ?? 0),
      replied_contacts: Number(r?.replied_contacts ?? 0),
      opt_outs_by_text: Number(r?.opt_outs ?? 0),
      cost: cents(Number(r?.cost ?? 0)),
      reached_after_unanswered_calls: reached[i] ?? 0,
    };
  });
}

/**
 * Per period: contacts who texted in after a call of the period, none of whose calls in the
 * period was answered (call_duration > 0, the totals' `answered`). It starts from the few
 * inbound texts of the period and looks up each contact's calls by contact (calls_contact_idx),
 * never scanning the period's calls, which are many more.
 */
async function reachedAfterUnansweredCalls(db: Db, scope: CallScope, periods: { start: Date; end: Date }[]): Promise<number[]> {
  const out: number[] = [];
  for (const { start, end } of periods) {
    const replied = scopedMessages(db, scope, start, end)
      .where('messages.direction', '=', 'inbound')
      .select(['messages.contact_id', sql<Date>`max(messages.created_at)`.as('last_reply')])
      .groupBy('messages.contact_id');
    const row = await db.selectFrom(replied.as('r'))
      .select(sql<number>`count(*)`.as('n'))
      .where(({ exists, selectFrom }) => exists(selectFrom('calls as c').select(sql`1`.as('one'))
        .whereRef('c.contact_id', '=', 'r.contact_id').where('c.start_time', '>=', start).whereRef('c.start_time', '<', 'r.last_reply')))
      .where(({ not, exists, selectFrom }) => not(exists(selectFrom('calls as c').select(sql`1`.as('one'))
        .whereRef('c.contact_id', '=', 'r.contact_id').where('c.start_time', '>=', start).where('c.start_time', '<', end).where('c.call_duration', '>', 0))))
      .executeTakeFirst();
    out.push(Number(row?.n ?? 0));
  }
  return out;
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
