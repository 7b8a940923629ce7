import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { CAMPAIGN_BLOCKS } from '../contact-lifecycle/next-action.ts';
import { limitActive, periodUsage, refreshUsage } from '../contact-lifecycle/usage-limit.ts';

/**
 * A campaign at its usage limit sends no text, as it starts no call: the text waits and is asked
 * again later, as a paused campaign's does, until the sweep lifts the limit (its period ended, or
 * the value was raised) or the owner does. A cost limit is judged on the live count, calls' and
 * texts' cost alike (usage-limit.ts), as the dialer judges it before each call: texts' cost
 * never ends a call, so the flag limit_reached would otherwise wait for the next call to end.
 * When the count reaches the limit the flag is written here, so the campaign shows it and its due
 * calls are parked as after a call's cost; the campaign row is written after the contact rows,
 * in id order, as the end of a call writes it (call-events/call-finish.ts).
 */
type Trx = Transaction<Database>;

const RECHECK_MS = 10 * 60_000;

/** For each contact whose campaign is at its usage limit, when to ask again and why. */
export async function usageLimitWaits(trx: Trx, contactIds: number[], now: Date): Promise<Map<number, { until: Date; reason: string }>> {
  const out = new Map<number, { until: Date; reason: string }>();
  if (contactIds.length === 0) return out;
  const rows = await trx.selectFrom('contacts as c').innerJoin('campaigns as k', 'k.id', 'c.campaign_id')
    .select(['c.id as contact_id', 'k.id', 'k.limit_start', 'k.limit_end', 'k.limit_value', 'k.limit_unit', 'k.limit_reached'])
    .where('c.id', 'in', [...new Set(contactIds)]).where('k.limit_value', 'is not', null).execute();
  const reached = new Map<number, boolean>();
  for (const k of [...new Map(rows.map((r) => [r.id, r])).values()].sort((a, b) => a.id - b.id)) {
    let at = k.limit_reached;
    if (!at && k.limit_unit === 'cost' && limitActive(k, now) && (await periodUsage(trx, k)) >= k.limit_value!) at = (await refreshUsage(trx, k, now)).reached;
    reached.set(k.id, at);
  }
  for (const r of rows) {
    if (!reached.get(r.id)) continue;
    // Asked again at the latest when the limit period ends (the sweep then lifts the flag).
    const end = r.limit_end && r.limit_end > now ? r.limit_end.getTime() + 1 : Infinity;
    out.set(r.contact_id, { until: new Date(Math.min(now.getTime() + RECHECK_MS, end)), reason: `${CAMPAIGN_BLOCKS.usage_limit} (limit_unit ${r.limit_unit}, limit_value ${r.limit_value})` });
  }
  return out;
}

/**
 * After texts' cost was recorded: each of these campaigns whose live cost reached its active cost
 * limit gets limit_reached now, not at its next call's end or next due text, so the campaign shows
 * it and the sweep parks its due contacts. Only the campaign row is written (no contact lock held).
 */
export async function markCostLimitsReached(db: Kysely<Database>, campaignIds: number[], now: Date): Promise<void> {
  const ids = [...new Set(campaignIds)].sort((a, b) => a - b);
  if (ids.length === 0) return;
  const campaigns = await db.selectFrom('campaigns').select(['id', 'limit_start', 'limit_end', 'limit_value', 'limit_unit', 'limit_reached'])
    .where('id', 'in', ids).where('limit_unit', '=', 'cost').where('limit_value', 'is not', null).where('limit_reached', '=', false).execute();
  for (const k of campaigns) {
    if (!limitActive(k, now)) continue;
    await db.transaction().execute(async (trx) => {
      if ((await periodUsage(trx, k)) >= k.limit_value!) await refreshUsage(trx, k, now);
    });
  }
}
