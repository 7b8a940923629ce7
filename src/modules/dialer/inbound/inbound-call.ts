import { sql } from 'kysely';
import { markContactInbound } from '../../contact-lifecycle/contact-lifecycle.repository.ts';
import type { Deps } from '../../../deps.ts';
import { conflict } from '../../../http/errors.ts';
import { insertContacts } from '../../contacts/contacts.repository.ts';
import { insertCallsStarted } from '../../live/live-events.repository.ts';
import { lockAccountCapacity } from '../account-capacity.ts';
import { promptVersionsFor } from '../../campaigns/campaign-prompts.ts';
import { callVariant, runningVariantsFor } from '../../quality/experiments/dialer-split.ts';

export interface InboundCampaign {
  id: number;
  owner_id: number;
  title: string;
}

/**
 * Records an inbound call to one of a campaign's numbers: finds the caller among the
 * campaign's contacts (or creates it) and writes the call with call_type inbound. The contact
 * is `in progress` during the call (one with do_not_disturb or paused keeps it). 409 when that
 * caller is already in a call with this account. The account's concurrency cap never refuses it
 * (account-capacity.ts): it uses the capacity kept for inbound first. Under a running experiment
 * the caller gets its contact's variant, as an outbound call would (dialer-split.ts): the call keeps
 * it, and `uses` says which prompt version and assistant the call is answered with.
 */
export async function recordInboundCall(deps: Deps, input: {
  campaign: InboundCampaign;
  caller: string;
  number: string;
  provider: string;
  connectionId: number | null;
  assistantId: number | null;
}) {
  const { campaign, caller, number } = input;
  const recorded = await deps.db.transaction().execute(async (trx) => {
    const callerRow = () => trx.selectFrom('contacts').select(['id', 'status', 'contact_data', 'phone_number']).where('campaign_id', '=', campaign.id).where('phone_number', '=', caller).forUpdate().executeTakeFirst();
    let contact = await callerRow();
    let created = false;
    if (!contact) {
      const [written] = await insertContacts(trx, campaign.owner_id, [{
        campaign_id: campaign.id, phone_number: caller, status: 'in progress', contact_data: {},
        creation_method: 'manual', source: 'inbound_call', next_action_code: 'inbound_call', next_action_reason: 'inbound call in progress',
      }]);
      created = written !== undefined;
      // Not written: the same caller's other call created the contact a moment ago.
      contact = await callerRow();
      if (!contact) throw conflict('This caller is already in a call');
      if (!created && contact.status === 'in progress') throw conflict('This caller is already in a call');
    } else if (contact.status === 'in progress') {
      throw conflict('This caller is already in a call');
    }
    // Never refused for the account's cap: an inbound call takes the reserve, then any room. It is
    // written under the account's lock (when capped) so a round counting the account's calls sees
    // it or waits for it (lock order: the contact row, the account lock, the call row).
    await lockAccountCapacity(trx, [campaign.owner_id]);
    // Its start is taken under the lock, as a round's is: the record never shows it in a count it was not in.
    const now = deps.clock.now();
    const [versions, experiments] = await Promise.all([promptVersionsFor(trx, [campaign.id]), runningVariantsFor(trx, [campaign.id])]);
    const uses = callVariant(experiments.get(campaign.id), contact.id, {
      version: versions.get(campaign.id) ?? null, assistantId: input.assistantId, route: { provider: input.provider, connectionId: input.connectionId },
    });
    const callData = { provider: input.provider, ...(uses.assistantId !== null && { assistant_id: uses.assistantId }), transcript: [] };
    const call = await sql<{ id: number; start_time: Date }>`
      INSERT INTO calls (owner_id, campaign_id, contact_id, status, from_number, to_number, start_time, call_type, campaign_title, contact_data, call_data, provider, voice_connection_id, prompt_history_id, experiment_variant_id)
      VALUES (${campaign.owner_id}, ${campaign.id}, ${contact.id}, 'in progress', ${caller}, ${number}, ${now}, 'inbound', ${campaign.title},
              ${JSON.stringify(contact.contact_data ?? {})}::jsonb, ${JSON.stringify(callData)}::jsonb, ${input.provider}, ${input.connectionId},
              ${uses.promptHistoryId}, ${uses.variantId})
      ON CONFLICT DO NOTHING RETURNING id, start_time`.execute(trx);
    if (!call.rows[0]) throw conflict('This caller is already in a call');
    await insertCallsStarted(trx, [call.rows[0].id]);
    // A person who asked not to be called (or was paused) stays so: set to in progress, the
    // contact would end finished and be dialled by the next enqueue of finished contacts.
    if (contact.status !== 'do_not_disturb' && contact.status !== 'paused') {
      await markContactInbound(trx, contact.id);
    }
    return { call: call.rows[0], contact, created, uses };
  });
  deps.live.wake();
  return recorded;
}
