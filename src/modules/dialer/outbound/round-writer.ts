import type { Transaction } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import { deferContacts, markContactsCalling, moveContacts } from '../../contact-lifecycle/contact-lifecycle.repository.ts';
import { insertCalls, type NewOutboundCall } from './call-rows.ts';
import type { RoundPlan } from './round-plan.ts';
import type { StartingCall } from './start-calls.ts';
import { insertCallsStarted } from '../../live/live-events.repository.ts';
import { promptVersionsFor } from '../../campaigns/campaign-prompts.ts';
import { callVariant, runningVariantsFor } from '../../quality/experiments/dialer-split.ts';

/**
 * Applies a round's plan in its transaction: the call rows, the called contacts `in progress`,
 * and every other contact's next step. A contact whose call was not inserted (another call to
 * the same number or contact is live: the unique live-call indexes) is tried again a minute later.
 * Each call keeps its prompt version and, under a running experiment, its variant (one read per
 * round, no lock: dialer-split.ts). Answers the calls to start after commit, with what they use.
 *
 * Lock order: last in a round (call-rows.ts): the call rows in (owner, number) order, then the
 * contact rows the claim already holds.
 */

type Trx = Transaction<Database>;

const NUMBER_BUSY_RETRY_MS = 60_000;

export async function writeRound(trx: Trx, plan: RoundPlan): Promise<StartingCall[]> {
  const campaignIds = [...new Set(plan.chosen.map((c) => c.campaign.id))];
  const [versions, experiments] = await Promise.all([promptVersionsFor(trx, campaignIds), runningVariantsFor(trx, campaignIds)]);
  const uses = new Map(plan.chosen.map(({ contact, campaign, route }) => [contact.id, callVariant(experiments.get(campaign.id), contact.id, {
    version: versions.get(campaign.id) ?? null, assistantId: campaign.assistant_id, route,
  })]));
  const rows: NewOutboundCall[] = plan.chosen.map(({ contact, campaign, route, callerId }) => {
    const use = uses.get(contact.id)!;
    return {
      contactId: contact.id,
      ownerId: contact.owner_id,
      campaignId: campaign.id,
      from: callerId.number,
      to: contact.phone_number,
      title: campaign.title,
      contactData: JSON.stringify(contact.contact_data ?? {}),
      callData: JSON.stringify({ provider: route.provider, ...(use.assistantId !== null && { assistant_id: use.assistantId }), caller_id: callerId, transcript: [] }),
      provider: route.provider,
      connectionId: route.connectionId,
      promptHistoryId: use.promptHistoryId,
      experimentVariantId: use.variantId,
    };
  });
  const inserted = await insertCalls(trx, rows, plan.startAt);
  await markContactsCalling(trx, inserted.map((r) => r.contact_id));
  await insertCallsStarted(trx, inserted.map((r) => r.id));
  const callOf = new Map(inserted.map((r) => [r.contact_id, r.id]));
  const retryAt = new Date(plan.startAt.getTime() + NUMBER_BUSY_RETRY_MS);
  const moves = [...plan.moves];
  for (const { contact } of plan.chosen) {
    if (!callOf.has(contact.id)) moves.push({ id: contact.id, status: 'call_scheduled', at: retryAt, next: { code: 'number_busy', reason: 'another call to this number is in progress' } });
  }
  await deferContacts(trx, plan.deferrals);
  await moveContacts(trx, moves);
  return plan.chosen.flatMap((c) => {
    const id = callOf.get(c.contact.id);
    const use = uses.get(c.contact.id)!;
    return id === undefined ? [] : [{ id, contact: c.contact, campaign: c.campaign, route: c.route, from: c.callerId.number, promptHistoryId: use.promptHistoryId, assistantId: use.assistantId }];
  });
}
