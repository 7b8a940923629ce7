import { sql, type Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { insertContacts } from '../contacts/contacts.repository.ts';

/**
 * Which conversation an inbound text belongs to. The text is from the contact's number to one of
 * the campaign's numbers (campaigns.campaign_phone or a phone number of the campaign's), or to
 * the number a text of ours to that contact went out from (a route's own number; with none
 * recorded, a Messaging Service's or the simulator's, any text of ours on the same route). Among the
 * contacts that match (the same person in several campaigns), the one we reached last, by text
 * or call, gets it. Nobody matches: the newest campaign with the number that accepts inbound
 * texts (an Inbound campaign first) gets a new contact, `integration_messaging`, in the number's
 * time zone; it is not queued for a call (a text asks for none; "call me" queues it).
 *
 * `ownerId`: the account whose credentials signed the text (a voice connection's), or null for
 * the service's own credentials and the simulator, which carry every account's texts.
 */
export interface TextThread {
  ownerId: number;
  campaignId: number;
  contactId: number;
  contactStatus: string;
  contactTimezone: string | null;
  created: boolean;
}

type Trx = Transaction<Database>;

const hasNumber = (campaign: string, to: string) => sql<boolean>`(${sql.ref(`${campaign}.campaign_phone`)} = ${to}
  OR EXISTS (SELECT 1 FROM phone_numbers p WHERE p.campaign_id = ${sql.ref(`${campaign}.id`)} AND p.phone_number = ${to}))`;

export async function threadText(trx: Trx, input: { ownerId: number | null; from: string; to: string; channel: string; provider: string; connectionId: number | null }): Promise<TextThread | null> {
  const owner = input.ownerId === null ? sql`TRUE` : sql`c.owner_id = ${input.ownerId}`;
  const { rows } = await sql<{ id: number; owner_id: number; campaign_id: number; status: string; timezone: string | null }>`
    SELECT c.id, c.owner_id, c.campaign_id, c.status, c.timezone
      FROM contacts c JOIN campaigns cp ON cp.id = c.campaign_id
     WHERE c.phone_number = ${input.from} AND ${owner}
       AND (${hasNumber('cp', input.to)}
            -- Our text went out from this number, or from a number the route picked (a Messaging Service's, the simulator's).
            OR EXISTS (SELECT 1 FROM messages m WHERE m.contact_id = c.id AND m.direction = 'outbound'
                         AND (m.from_number = ${input.to} OR (m.from_number IS NULL AND m.provider = ${input.provider}
                              AND m.voice_connection_id IS NOT DISTINCT FROM ${input.connectionId}::bigint))))
     ORDER BY greatest(
         (SELECT max(m.created_at) FROM messages m WHERE m.contact_id = c.id AND m.direction = 'outbound'),
         (SELECT max(k.start_time) FROM calls k WHERE k.contact_id = c.id)) DESC NULLS LAST, c.id DESC
     LIMIT 1`.execute(trx);
  const found = rows[0];
  if (found) return thread(found, false);

  const campaignOwner = input.ownerId === null ? sql`TRUE` : sql`cp.owner_id = ${input.ownerId}`;
  const { rows: campaigns } = await sql<{ id: number; owner_id: number }>`
    SELECT cp.id, cp.owner_id FROM campaigns cp LEFT JOIN campaign_messaging cm ON cm.campaign_id = cp.id
     WHERE NOT cp.is_archive AND ${campaignOwner} AND ${hasNumber('cp', input.to)} AND coalesce(cm.accept_inbound, true)
     ORDER BY (cp.campaign_type = 'Inbound') DESC, cp.id DESC LIMIT 1`.execute(trx);
  const campaign = campaigns[0];
  if (!campaign) return null;
  const [written] = await insertContacts(trx, Number(campaign.owner_id), [{
    campaign_id: Number(campaign.id), phone_number: input.from, creation_method: 'integration_messaging', source: `inbound ${input.channel}`, contact_data: {},
  }]);
  // Not written: the same person's other text created the contact a moment ago.
  const contact = await trx.selectFrom('contacts').select(['id', 'owner_id', 'campaign_id', 'status', 'timezone'])
    .where('campaign_id', '=', Number(campaign.id)).where('phone_number', '=', input.from).executeTakeFirst();
  return contact ? thread(contact, written !== undefined) : null;
}

function thread(row: { id: number; owner_id: number; campaign_id: number; status: string; timezone: string | null }, created: boolean): TextThread {
  return { ownerId: Number(row.owner_id), campaignId: Number(row.campaign_id), contactId: Number(row.id), contactStatus: row.status, contactTimezone: row.timezone, created };
}
