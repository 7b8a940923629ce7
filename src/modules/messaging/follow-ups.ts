import type { Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { JobWakes } from '../../claim-worker.ts';
import { textAfterCall } from '../contact-lifecycle/after-call.ts';
import { insertMessageJobs, notifyTextsDue, type NewMessageJob } from './message-jobs.repository.ts';
import { messagingSettingsOfMany } from './messaging-defaults.ts';

/**
 * The texts that calls' ends ask for, queued in the transaction that ends them (call-finish.ts):
 * only for campaigns with is_auto_ai_message, by their messaging rules (textAfterCall). A call
 * end applied twice queues nothing more (one follow-up and one confirmation per call).
 */
export interface EndedCallForText {
  callId: number;
  contactId: number;
  campaignId: number;
  status: string;
  actionStatus: string | null;
  callType: string | null;
  end: Date;
  optedOut: boolean;
}

export async function queueTextsAfterCalls(trx: Transaction<Database>, wakes: JobWakes, ended: EndedCallForText[]): Promise<number> {
  if (ended.length === 0) return 0;
  const campaigns = await trx.selectFrom('campaigns').select(['id', 'owner_id'])
    .where('id', 'in', [...new Set(ended.map((e) => e.campaignId))]).where('is_auto_ai_message', '=', true).execute();
  if (campaigns.length === 0) return 0;
  const owners = new Map(campaigns.map((c) => [c.id, c.owner_id]));
  const settings = await messagingSettingsOfMany(trx, [...owners.keys()]);
  const jobs: NewMessageJob[] = [];
  for (const e of ended) {
    const ownerId = owners.get(e.campaignId);
    if (ownerId === undefined) continue;
    const next = textAfterCall(settings.get(e.campaignId)!, e);
    if (next) jobs.push({ ownerId, campaignId: e.campaignId, contactId: e.contactId, callId: e.callId, purpose: next.purpose, dueAt: next.dueAt, reason: `after the call's '${e.actionStatus ?? e.status}'` });
  }
  const ids = await insertMessageJobs(trx, jobs);
  if (ids.length > 0) await notifyTextsDue(trx, wakes);
  return ids.length;
}
