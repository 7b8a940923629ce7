import { sql } from 'kysely';
import type { Db } from '../../src/db/connection.ts';

/**
 * `campaigns` campaigns of one account (and one of another account, so tenancy filters have
 * something to leave out), each with `contactsPerCampaign` finished contacts, written by
 * generate_series in campaign order. Answers the first campaign's and the first contact's ids.
 */
export async function seedCampaignsAndContacts(db: Db, args: { ownerId: number; otherId: number; campaigns: number; contactsPerCampaign: number }) {
  const { ownerId, otherId, campaigns, contactsPerCampaign } = args;
  await sql`INSERT INTO campaigns (owner_id, title, campaign_type) SELECT ${ownerId}, 'Campaign ' || i, 'Outbound' FROM generate_series(1, ${campaigns}::int) i`.execute(db);
  await sql`INSERT INTO campaigns (owner_id, title, campaign_type) VALUES (${otherId}, 'Other account', 'Outbound')`.execute(db);
  const firstCampaign = (await db.selectFrom('campaigns').select('id').where('owner_id', '=', ownerId).orderBy('id').executeTakeFirstOrThrow()).id;
  await sql`
    INSERT INTO contacts (owner_id, campaign_id, phone_number, status)
    SELECT ${ownerId}, ${firstCampaign} + k, '+1202' || lpad((k * ${contactsPerCampaign} + j)::text, 7, '0'), 'finished'
    FROM generate_series(0, ${campaigns - 1}::int) k, generate_series(0, ${contactsPerCampaign - 1}::int) j
    ORDER BY k, j`.execute(db);
  const firstContact = (await db.selectFrom('contacts').select('id').where('owner_id', '=', ownerId).orderBy('id').executeTakeFirstOrThrow()).id;
  return { firstCampaign, firstContact };
}
