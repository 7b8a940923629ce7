import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { PausedBy } from './protection.schemas.ts';

/**
 * A campaign resumed (is_paused true to false): the breaker's pause, if it made one, is over,
 * and its count starts again now. The calls that ended before do not count again, or the first
 * call after a resume would pause the campaign anew on the same failures. Called in the
 * transaction that resumes it, which holds the campaign row.
 */
export async function breakerResumed(trx: Transaction<Database>, campaign: { id: number; owner_id: number }, now: Date): Promise<void> {
  await sql`UPDATE campaign_breaker_trips SET resumed_at = ${now}::timestamptz WHERE campaign_id = ${campaign.id} AND resumed_at IS NULL`.execute(trx);
  // A campaign that never saved settings gets a row holding only counted_since (updated_at null: the defaults).
  await trx.insertInto('campaign_protection').values({ campaign_id: campaign.id, owner_id: campaign.owner_id, counted_since: now })
    .onConflict((oc) => oc.column('campaign_id').doUpdateSet({ counted_since: now }))
    .execute();
}

/**
 * A person paused a running campaign: a breaker trip still open on it (the campaign was resumed
 * outside the service, by psql) is over, so it never shows as the reason of this pause.
 */
export async function pausedByPerson(trx: Transaction<Database>, campaignId: number, now: Date): Promise<void> {
  await sql`UPDATE campaign_breaker_trips SET resumed_at = ${now}::timestamptz WHERE campaign_id = ${campaignId} AND resumed_at IS NULL`.execute(trx);
}

/** Why the campaign paused itself, while that pause holds (the open trip of a paused campaign); null otherwise. */
export async function pausedBy(db: Kysely<Database>, campaign: { id: number; is_paused: boolean }): Promise<PausedBy> {
  if (!campaign.is_paused) return null;
  const trip = await db.selectFrom('campaign_breaker_trips')
    .select(['reason', 'failures', 'attempts', 'window_seconds', 'failure_rate_threshold', 'tripped_at'])
    .where('campaign_id', '=', campaign.id).where('resumed_at', 'is', null).orderBy('id', 'desc').limit(1).executeTakeFirst();
  if (!trip) return null;
  const { tripped_at: at, ...figures } = trip;
  return { ...figures, at };
}
