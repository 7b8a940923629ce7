import { sql } from 'kysely';
import type { Db } from '../../../db/connection.ts';

/**
 * Everything an account holds about one person, found by the person's phone number (and e-mail,
 * when the account stored one in a contact's data): the contacts with that number or e-mail in
 * any campaign, the calls and texts of those contacts and any other call or text to or from the
 * person's numbers, the webhook deliveries that told of them, the queued texts, our agent's
 * conversations and the do-not-call entries. The export and the erasure read the same selection,
 * so what one shows is what the other erases.
 */
export interface Person {
  ownerId: number;
  /** E.164. */
  phone: string;
  email: string | null;
}

export interface PersonRows {
  /** The person's numbers: the one asked for and those of contacts found by e-mail. */
  phones: string[];
  contactIds: number[];
  callIds: number[];
  messageIds: number[];
  deliveryIds: number[];
  jobIds: number[];
  suppressionIds: number[];
}

const ids = (rows: { id: number | string }[]) => rows.map((r) => Number(r.id));

export async function selectPerson(db: Db, person: Person): Promise<PersonRows> {
  const contacts = await sql<{ id: number; phone_number: string }>`
    SELECT id, phone_number FROM contacts
    WHERE owner_id = ${person.ownerId}
      AND (phone_number = ${person.phone} ${person.email ? sql`OR lower(contact_data ->> 'email') = lower(${person.email})` : sql``})
    ORDER BY id`.execute(db);
  const contactIds = ids(contacts.rows);
  const phones = [...new Set([person.phone, ...contacts.rows.map((c) => c.phone_number)])];
  // Each branch on its own index (an OR of them would read the whole table); an inbound call or
  // text is the caller's contact's, so the contacts find those.
  const calls = await sql<{ id: number }>`
    SELECT id FROM calls WHERE contact_id = ANY(${contactIds}::bigint[])
    UNION SELECT id FROM calls WHERE owner_id = ${person.ownerId} AND to_number = ANY(${phones}::text[])
    ORDER BY id`.execute(db);
  const messages = await sql<{ id: number }>`
    SELECT id FROM messages WHERE contact_id = ANY(${contactIds}::bigint[])
    UNION SELECT id FROM messages WHERE owner_id = ${person.ownerId} AND direction = 'outbound' AND to_number = ANY(${phones}::text[])
    ORDER BY id`.execute(db);
  const callIds = ids(calls.rows);
  const messageIds = ids(messages.rows);
  const deliveries = await sql<{ id: number }>`
    SELECT id FROM webhook_deliveries WHERE call_id = ANY(${callIds}::bigint[])
    UNION SELECT id FROM webhook_deliveries WHERE message_id = ANY(${messageIds}::bigint[])
    ORDER BY id`.execute(db);
  const jobs = await db.selectFrom('message_jobs').select('id').where('owner_id', '=', person.ownerId).where('contact_id', 'in', contactIds.length ? contactIds : [0]).orderBy('id').execute();
  const suppressions = await db.selectFrom('suppressions').select('id').where('owner_id', '=', person.ownerId).where('phone_number', 'in', phones).orderBy('id').execute();
  return { phones, contactIds, callIds, messageIds, deliveryIds: ids(deliveries.rows), jobIds: ids(jobs), suppressionIds: ids(suppressions) };
}
