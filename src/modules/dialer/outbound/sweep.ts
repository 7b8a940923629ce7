import type { Deps } from '../../../deps.ts';
import { refreshUsage } from '../../contact-lifecycle/usage-limit.ts';
import { parkContactsOfBlockedCampaigns, reviveContactsOfReachableCampaigns } from '../../contact-lifecycle/campaign-parking.repository.ts';

/**
 * The dialer round's first step: limits whose period ended or whose value was raised stop
 * blocking, then the lifecycle parks the due contacts of campaigns that cannot call and revives
 * those whose cause is gone (contact-lifecycle/campaign-parking.repository.ts).
 */
export async function sweepCampaignStates({ deps }: { deps: Deps }): Promise<{ parked: number; revived: number }> {
  const now = deps.clock.now();
  const limited = await deps.db.selectFrom('campaigns').select(['id', 'limit_start', 'limit_end', 'limit_value', 'limit_unit']).where('limit_reached', '=', true).execute();
  for (const c of limited) await deps.db.transaction().execute((trx) => refreshUsage(trx, c, now));
  const parked = await parkContactsOfBlockedCampaigns(deps.db, now);
  const revived = await reviveContactsOfReachableCampaigns(deps.db, now);
  return { parked, revived };
}
