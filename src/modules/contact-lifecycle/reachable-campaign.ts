import { sql, type RawBuilder } from 'kysely';
import { CAMPAIGN_BLOCKS, type CampaignBlockCode } from './next-action.ts';

/**
 * "Can this campaign reach its contacts now": written once, as a TypeScript predicate for rows
 * already read and as the SQL the claim and the sweep run, so both always agree. A campaign is
 * blocked when archived, paused, inbound (it places no outbound calls) or at its usage limit;
 * the first of these that holds is the reason its due contacts wait.
 */
export interface CampaignState {
  is_paused: boolean;
  is_archive: boolean;
  limit_reached: boolean;
  campaign_type: string | null;
}

/** The reason a campaign reaches nobody now, or null when it may. Archived wins over paused, paused over inbound, inbound over the limit. */
export function campaignBlock(c: CampaignState): CampaignBlockCode | null {
  if (c.is_archive) return 'campaign_archived';
  if (c.is_paused) return 'campaign_paused';
  if (c.campaign_type !== 'Outbound') return 'campaign_inbound';
  if (c.limit_reached) return 'usage_limit';
  return null;
}

export const isReachableCampaign = (c: CampaignState): boolean => campaignBlock(c) === null;

const column = (alias: string, name: string) => sql.ref(`${alias}.${name}`);

/** The same rule in SQL, over the campaigns row `alias`. */
export function reachableCampaignSql(alias: string): RawBuilder<boolean> {
  return sql<boolean>`(NOT ${column(alias, 'is_paused')} AND NOT ${column(alias, 'is_archive')} AND NOT ${column(alias, 'limit_reached')} AND ${column(alias, 'campaign_type')} = 'Outbound')`;
}

/** campaignBlock in SQL: the code of a blocked campaign `alias` (null when reachable). */
export function campaignBlockSql(alias: string): RawBuilder<CampaignBlockCode | null> {
  return sql<CampaignBlockCode | null>`CASE WHEN ${column(alias, 'is_archive')} THEN 'campaign_archived' WHEN ${column(alias, 'is_paused')} THEN 'campaign_paused'
    WHEN ${column(alias, 'campaign_type')} <> 'Outbound' THEN 'campaign_inbound' WHEN ${column(alias, 'limit_reached')} THEN 'usage_limit' END`;
}

/** The sentence of a campaign block code, in SQL (beside campaignBlockSql). */
export function campaignBlockReasonSql(code: RawBuilder<unknown>): RawBuilder<string> {
  const cases = Object.entries(CAMPAIGN_BLOCKS).map(([c, text]) => sql`WHEN ${sql.lit(c)} THEN ${sql.lit(text)}`);
  return sql<string>`CASE ${code} ${sql.join(cases, sql` `)} END`;
}
