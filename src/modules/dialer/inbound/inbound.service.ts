import { sql } from 'kysely';
import type { Deps } from '../../../deps.ts';
import { conflict, HttpError } from '../../../http/errors.ts';
import { requirePhone } from '../../../shared/phone.ts';
import type { Principal } from '../../auth/principal.ts';
import { campaignVisibleTo } from '../../campaigns/campaign-access.ts';
import { promptsFor } from '../campaign-prompts.ts';
import { saveProviderIds } from '../provider-call-ids.ts';
import { insertContacts } from '../../contacts/contacts.repository.ts';

/**
 * An inbound call to one of an Inbound campaign's numbers: finds the caller among the
 * campaign's contacts (or creates it) and records a call with call_type inbound. The
 * contact is `in progress` during the call (one with do_not_disturb or paused keeps it); afterwards it ends `finished` after a
 * conversation and otherwise takes the final status of the table (no call-back retries).
 */
export async function simulateInbound({ deps, principal, from, to }: { deps: Deps; principal: Principal; from: string; to: string }) {
  if (deps.voice.name !== 'sim' || !deps.voice.capabilities.inboundSimulation) throw new HttpError(404, 'Not Found');
  const caller = requirePhone(from, deps.config.DEFAULT_COUNTRY, ['body', 'from']).e164;
  const number = requirePhone(to, deps.config.DEFAULT_COUNTRY, ['body', 'to']).e164;
  const now = deps.clock.now();
  const campaign = await deps.db
    .selectFrom('campaigns')
    .select(['campaigns.id', 'campaigns.owner_id', 'campaigns.title'])
    .where(campaignVisibleTo(principal, 'campaigns.id', 'campaigns.owner_id'))
    .where('campaigns.campaign_type', '=', 'Inbound')
    .where('campaigns.is_archive', '=', false)
    .where('campaigns.is_paused', '=', false)
    .where((eb) => eb.or([
      eb('campaigns.campaign_phone', '=', number),
      eb.exists(eb.selectFrom('phone_numbers as p').select(sql<number>`1`.as('one')).whereRef('p.campaign_id', '=', 'campaigns.id').where('p.phone_number', '=', number)),
    ]))
    .orderBy('campaigns.id')
    .limit(1)
    .executeTakeFirst();
  if (!campaign) throw new HttpError(404, 'No active Inbound campaign owns this number');

  const result = await deps.db.transaction().execute(async (trx) => {
    const callerRow = () => trx.selectFrom('contacts').select(['id', 'status', 'contact_data']).where('campaign_id', '=', campaign.id).where('phone_number', '=', caller).forUpdate().executeTakeFirst();
    let contact = await callerRow();
    let created = false;
    if (!contact) {
      const [written] = await insertContacts(trx, campaign.owner_id, [{
        campaign_id: campaign.id, phone_number: caller, status: 'in progress', contact_data: {},
        creation_method: 'manual', source: 'inbound_call', next_action_reason: 'inbound call in progress',
      }]);
      created = written !== undefined;
      // Not written: the same caller's other call created the contact a moment ago.
      contact = await callerRow();
      if (!contact) throw conflict('This caller is already in a call');
      if (!created && contact.status === 'in progress') throw conflict('This caller is already in a call');
    } else if (contact.status === 'in progress') {
      throw conflict('This caller is already in a call');
    }
    const call = await sql<{ id: number; start_time: Date }>`
      INSERT INTO calls (owner_id, campaign_id, contact_id, status, from_number, to_number, start_time, call_type, campaign_title, contact_data, call_data)
      VALUES (${campaign.owner_id}, ${campaign.id}, ${contact.id}, 'in progress', ${caller}, ${number}, ${now}, 'inbound', ${campaign.title},
              ${JSON.stringify(contact.contact_data ?? {})}::jsonb, ${JSON.stringify({ provider: deps.voice.name, transcript: [] })}::jsonb)
      ON CONFLICT DO NOTHING RETURNING id, start_time`.execute(trx);
    if (!call.rows[0]) throw conflict('This caller is already in a call');
    // A person who asked not to be called (or was paused) stays so: set to in progress, the
    // contact would end finished and be dialled by the next enqueue of finished contacts.
    if (contact.status !== 'do_not_disturb' && contact.status !== 'paused') {
      await trx.updateTable('contacts').set({ status: 'in progress', next_action_time: null, next_action_reason: 'inbound call in progress', updated_at: sql<Date>`now()` }).where('id', '=', contact.id).execute();
    }
    return { call: call.rows[0], contact, created };
  });
  const prompts = await promptsFor(deps.db, [campaign.id]);
  const started = await deps.voice.startCall({
    callId: result.call.id, from: caller, to: number, campaignId: campaign.id, prompt: prompts.get(campaign.id) ?? null,
    contactData: (result.contact.contact_data ?? {}) as Record<string, unknown>, direction: 'inbound',
  });
  deps.metrics.callsStarted.inc({ provider: deps.voice.name, direction: 'inbound' });
  await saveProviderIds(deps.db, [{ callId: result.call.id, providerCallId: started.providerCallId }]);
  return { call_id: result.call.id, contact_id: result.contact.id, campaign_id: campaign.id, contact_created: result.created, status: 'in progress', start_time: result.call.start_time };
}
