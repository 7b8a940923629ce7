import { sql } from 'kysely';
import type { Db } from '../../../db/connection.ts';
import type { Principal } from '../../auth/principal.ts';
import { requireCampaign } from '../../campaigns/campaign-access.ts';
import { unprocessable } from '../../../http/errors.ts';
import type { ScoreSummaryView } from './scorecards.schemas.ts';

const DAY = 86_400_000;
const MAX_DAYS = 366;
const round1 = (n: number | string | null) => (n === null ? null : Math.round(Number(n) * 10) / 10);

/**
 * A campaign's scores over a period of scored_at (default the last 30 days, at most 366): the
 * average, ten 10-point buckets, the average per UTC day and per prompt version, the tags found,
 * and the rows per status. Each reads the campaign's scored rows by call_scores_campaign_idx.
 */
export async function scoreSummary(db: Db, principal: Principal, campaignId: number, q: { from?: string | Date | undefined; to?: string | Date | undefined }, now: Date): Promise<ScoreSummaryView> {
  const campaign = await requireCampaign(db, principal, campaignId);
  const to = q.to ? new Date(q.to) : now;
  const from = q.from ? new Date(q.from) : new Date(to.getTime() - 30 * DAY);
  if (from >= to) throw unprocessable(['query', 'from'], 'from must be before to');
  if (to.getTime() - from.getTime() > MAX_DAYS * DAY) throw unprocessable(['query', 'from'], `the period is at most ${MAX_DAYS} days`);
  const scored = sql`FROM call_scores WHERE campaign_id = ${campaign.id} AND status = 'scored' AND scored_at >= ${from} AND scored_at < ${to} AND score IS NOT NULL`;
  const [totals, buckets, days, versions, tags, statuses] = await Promise.all([
    sql<{ calls: string; average: number | null }>`SELECT count(*) AS calls, avg(score) AS average ${scored}`.execute(db),
    sql<{ bucket: number; calls: string }>`SELECT least(floor(score / 10), 9)::int AS bucket, count(*) AS calls ${scored} GROUP BY 1`.execute(db),
    sql<{ day: string; calls: string; average: number }>`SELECT to_char(scored_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, count(*) AS calls, avg(score) AS average ${scored} GROUP BY 1 ORDER BY 1`.execute(db),
    sql<{ prompt_history_id: string | null; calls: string; average: number }>`SELECT prompt_history_id, count(*) AS calls, avg(score) AS average ${scored} GROUP BY 1 ORDER BY 1 NULLS FIRST`.execute(db),
    sql<{ tag: string; calls: string }>`SELECT t AS tag, count(*) AS calls FROM call_scores, unnest(tags) t
      WHERE campaign_id = ${campaign.id} AND status = 'scored' AND scored_at >= ${from} AND scored_at < ${to} GROUP BY 1 ORDER BY 2 DESC, 1`.execute(db),
    sql<{ status: string; calls: string }>`SELECT status, count(*) AS calls FROM call_scores WHERE campaign_id = ${campaign.id} AND created_at >= ${from} AND created_at < ${to} GROUP BY 1 ORDER BY 1`.execute(db),
  ]);
  const perBucket = new Map(buckets.rows.map((b) => [Number(b.bucket), Number(b.calls)]));
  return {
    campaign_id: campaign.id, from, to,
    scored: Number(totals.rows[0]?.calls ?? 0),
    average: round1(totals.rows[0]?.average ?? null),
    distribution: Array.from({ length: 10 }, (_, i) => ({ from: i * 10, to: i === 9 ? 100 : (i + 1) * 10, calls: perBucket.get(i) ?? 0 })),
    trend: days.rows.map((d) => ({ day: d.day, calls: Number(d.calls), average: round1(d.average)! })),
    by_prompt_version: versions.rows.map((v) => ({ prompt_history_id: v.prompt_history_id === null ? null : Number(v.prompt_history_id), calls: Number(v.calls), average: round1(v.average)! })),
    tags: tags.rows.map((t) => ({ tag: t.tag, calls: Number(t.calls) })),
    statuses: statuses.rows.map((s) => ({ status: s.status, calls: Number(s.calls) })),
  };
}
