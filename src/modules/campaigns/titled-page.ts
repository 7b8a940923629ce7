import type { SelectQueryBuilder } from 'kysely';
import type { Db } from '../../db/connection.ts';
import { cutToByteBudget } from '../../shared/list-budget.ts';

/**
 * One page of a list (newest first) for rows that show their campaign's current title
 * (contacts, calls). The page is cut from the rows' own table alone, on its (owner_id, id desc)
 * or (campaign_id, id desc) index, and only the page's rows are joined to campaigns, so a page
 * costs the same with a million rows. The count is the caller's (db/bounded-list.ts). The page
 * ends early when its JSON would pass the list byte budget (shared/list-budget.ts).
 */
export async function pageWithCampaignTitle<Row>(db: Db, page: SelectQueryBuilder<any, any, { id: number; campaign_id: number }>): Promise<Row[]> {
  const titled = db
    .selectFrom(page.as('c'))
    .innerJoin('campaigns as camp', 'camp.id', 'c.campaign_id')
    .selectAll('c')
    .select('camp.title as campaign_title');
  return (await cutToByteBudget(db, titled)) as Row[];
}
