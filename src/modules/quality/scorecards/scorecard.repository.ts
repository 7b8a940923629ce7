import type { Db } from '../../../db/connection.ts';
import { DEFAULT_CARD, type Criterion, type ProblemTag, type Scorecard } from './scorecard-rules.ts';

/** The campaign's card, or the default (switched off) when it has none. */
export async function readScorecard(db: Db, campaignId: number): Promise<Scorecard & { is_default: boolean; updated_at: Date | null }> {
  const row = await db.selectFrom('campaign_scorecards').select(['enabled', 'criteria', 'tags', 'updated_at']).where('campaign_id', '=', campaignId).executeTakeFirst();
  if (!row) return { ...DEFAULT_CARD, criteria: [...DEFAULT_CARD.criteria], tags: [...DEFAULT_CARD.tags], is_default: true, updated_at: null };
  return { enabled: row.enabled, criteria: row.criteria as Criterion[], tags: row.tags as ProblemTag[], is_default: false, updated_at: row.updated_at };
}

export async function saveScorecard(db: Db, campaign: { id: number; owner_id: number }, card: Scorecard): Promise<void> {
  const values = { enabled: card.enabled, criteria: JSON.stringify(card.criteria), tags: card.tags };
  await db.insertInto('campaign_scorecards').values({ campaign_id: campaign.id, owner_id: campaign.owner_id, ...values })
    .onConflict((oc) => oc.column('campaign_id').doUpdateSet({ ...values, updated_at: new Date() })).execute();
}
