import { sql, type ExpressionBuilder, type Expression, type SqlBool } from 'kysely';
import type { Db } from '../../db/connection.ts';
import type { Database } from '../../db/schema.ts';
import { forbidden, notFound } from '../../http/errors.ts';
import type { Principal } from '../auth/principal.ts';

/**
 * The one rule of tenancy: an account sees its own campaigns; a sub-user sees the
 * campaigns of its account that were granted to it. Contacts, calls and phone numbers
 * follow their campaign (a number assigned to no campaign is the owner's alone). Every list, filter and count goes through campaignVisibleTo, so no other
 * account's row can be counted or returned.
 */
export function campaignVisibleTo(
  principal: Principal,
  campaignIdColumn: 'campaigns.id' | 'contacts.campaign_id' | 'calls.campaign_id' | 'phone_numbers.campaign_id' | 'messages.campaign_id',
  ownerIdColumn: 'campaigns.owner_id' | 'contacts.owner_id' | 'calls.owner_id' | 'phone_numbers.owner_id' | 'messages.owner_id',
) {
  return (eb: ExpressionBuilder<Database, any>): Expression<SqlBool> => {
    const owned = eb(sql.ref(ownerIdColumn), '=', principal.ownerId);
    if (principal.kind === 'user') return owned;
    return eb.and([
      owned,
      eb.exists(
        eb
          .selectFrom('campaign_sub_users as g')
          .select(sql`1`.as('one'))
          .where('g.sub_user_id', '=', principal.subUserId)
          .whereRef('g.campaign_id', '=', sql.ref(campaignIdColumn)),
      ),
    ]);
  };
}

/** Whether the principal may see the campaign with this owner and id (already loaded). */
export async function canAccessCampaign(db: Db, principal: Principal, campaign: { id: number; owner_id: number }) {
  if (campaign.owner_id !== principal.ownerId) return false;
  if (principal.kind === 'user') return true;
  const grant = await db
    .selectFrom('campaign_sub_users')
    .select('campaign_id')
    .where('campaign_id', '=', campaign.id)
    .where('sub_user_id', '=', principal.subUserId)
    .executeTakeFirst();
  return grant !== undefined;
}

/** Loads a campaign the principal may use: 404 when it does not exist, 403 when it is not theirs. */
export async function requireCampaign(db: Db, principal: Principal, campaignId: number) {
  const campaign = await db.selectFrom('campaigns').selectAll().where('id', '=', campaignId).executeTakeFirst();
  if (!campaign) throw notFound('Campaign');
  if (!(await canAccessCampaign(db, principal, campaign))) throw forbidden();
  return campaign;
}
