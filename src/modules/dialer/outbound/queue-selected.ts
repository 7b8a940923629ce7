import type { Db } from '../../../db/connection.ts';
import { forbidden, notFound } from '../../../http/errors.ts';
import type { Principal } from '../../auth/principal.ts';
import { canAccessCampaign } from '../../campaigns/campaign-access.ts';
import type { DialerWake } from '../wake.ts';
import { queueContactsNow } from '../../contact-lifecycle/queueing.ts';

/**
 * Queues chosen contacts (the dashboard's "Queue selected"), across campaigns. All or nothing on
 * access: an unknown id is 404, a contact of a campaign the caller may not see is 403, and then
 * nothing is queued. Contacts in progress, do_not_disturb or paused are left as they are.
 */
export async function queueSelectedContacts(db: Db, input: { principal: Principal; contactIds: number[]; wake: DialerWake }) {
  const ids = [...new Set(input.contactIds)];
  return db.transaction().execute(async (trx) => {
    const rows = await trx.selectFrom('contacts').select(['id', 'campaign_id', 'owner_id']).where('id', 'in', ids).execute();
    const found = new Set(rows.map((r) => r.id));
    const missing = ids.find((id) => !found.has(id));
    if (missing !== undefined) throw notFound(`Contact ${missing}`);
    const campaigns = new Map(rows.map((r) => [r.campaign_id, { id: r.campaign_id, owner_id: r.owner_id }]));
    for (const campaign of campaigns.values()) {
      if (!(await canAccessCampaign(trx, input.principal, campaign))) throw forbidden();
    }
    const queued = await queueContactsNow(trx, { contactIds: ids, reason: 'queued by selection', wake: input.wake });
    const done = new Set(queued);
    return { queued: ids.filter((id) => done.has(id)), not_queued: ids.filter((id) => !done.has(id)) };
  });
}
