import { sql, type RawBuilder, type Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { insertContacts } from '../contacts/contacts.repository.ts';

/**
 * Which conversation an inbound text belongs to. The text is from the contact's number to one of
 * the campaign's numbers (campaigns.campaign_phone or a phone number of the campaign's), or to
 * the number a text of ours to that contact went out from: these match by the number. A text of
 * ours with no sender recorded (a Messaging Service picked it) matches any inbound text on the same
 * route, weakly. The simulator says which text of ours it answers, and that decides. Among the
 * contacts that match (the same person in several campaigns), the one we reached last, by text
 * or call, gets it. Nobody matches: the newest campaign with the number that accepts inbound
 * texts (an Inbound campaign first) gets a new contact, `integration_messaging`, in the number's
 * time zone; it is not queued for a call (a text asks for none; "call me" queues it).
 *
 * `ownerId`: the account whose credentials signed the text (a voice connection's), or null for
 * the service's own credentials and the simulator, which carry every account's texts. On such a
 * shared route a text that matches the contacts or campaigns of two accounts is nobody's: giving
 * it to either could hand one account's reply (a STOP, a person's words) to another, so it is not
 * threaded (logged). Number matches are asked first, weak ones only when no number matches.
 */
export interface TextThread {
  ownerId: number;
  campaignId: number;
  contactId: number;
  contactStatus: string;
  contactTimezone: string | null;
  created: boolean;
}

export interface ThreadInput {
  ownerId: number | null;
  from: string;
  to: string;
  channel: string;
  provider: string;
  connectionId: number | null;
  inReplyToMessageId?: number;
}

type Trx = Transaction<Database>;
type ContactRow = { id: number; owner_id: number; campaign_id: number; status: string; timezone: string | null };

const hasNumber = (campaign: string, to: string) => sql<boolean>`(${sql.ref(`${campaign}.campaign_phone`)} = ${to}
  OR EXISTS (SELECT 1 FROM phone_numbers p WHERE p.campaign_id = ${sql.ref(`${campaign}.id`)} AND p.phone_number = ${to}))`;

/** At most this many candidates are read: one person in more campaigns than that is not a thread. */
const CANDIDATES = 100;

export async function threadText(trx: Trx, input: ThreadInput): Promise<TextThread | null> {
  if (input.inReplyToMessageId !== undefined) {
    const answered = await answeredContact(trx, input);
    if (answered) return thread(answered, false);
  }
  const candidates = await matchingContacts(trx, input);
  const byNumber = candidates.filter((c) => c.by_number);
  const chosen = oneAccount(byNumber.length > 0 ? byNumber : candidates);
  if (chosen === 'ambiguous') return null;
  if (chosen) return thread(chosen, false);

  const campaignOwner = input.ownerId === null ? sql`TRUE` : sql`cp.owner_id = ${input.ownerId}`;
  const { rows: campaigns } = await sql<{ id: number; owner_id: number }>`
    SELECT cp.id, cp.owner_id FROM campaigns cp LEFT JOIN campaign_messaging cm ON cm.campaign_id = cp.id
     WHERE NOT cp.is_archive AND ${campaignOwner} AND ${hasNumber('cp', input.to)} AND coalesce(cm.accept_inbound, true)
     ORDER BY (cp.campaign_type = 'Inbound') DESC, cp.id DESC LIMIT ${CANDIDATES}`.execute(trx);
  const campaign = oneAccount(campaigns);
  if (!campaign || campaign === 'ambiguous') return null;
  const [written] = await insertContacts(trx, Number(campaign.owner_id), [{
    campaign_id: Number(campaign.id), phone_number: input.from, creation_method: 'integration_messaging', source: `inbound ${input.channel}`, contact_data: {},
  }]);
  // Not written: the same person's other text created the contact a moment ago.
  const contact = await trx.selectFrom('contacts').select(['id', 'owner_id', 'campaign_id', 'status', 'timezone'])
    .where('campaign_id', '=', Number(campaign.id)).where('phone_number', '=', input.from).executeTakeFirst();
  return contact ? thread(contact, written !== undefined) : null;
}

/** The contact of the text of ours the simulator answers, when it is that person's on this route. */
async function answeredContact(trx: Trx, input: ThreadInput): Promise<ContactRow | undefined> {
  return trx.selectFrom('messages as m').innerJoin('contacts as c', 'c.id', 'm.contact_id')
    .select(['c.id', 'c.owner_id', 'c.campaign_id', 'c.status', 'c.timezone'])
    .where('m.id', '=', input.inReplyToMessageId!).where('m.direction', '=', 'outbound').where('m.provider', '=', input.provider)
    .where('c.phone_number', '=', input.from)
    .$if(input.ownerId !== null, (q) => q.where('c.owner_id', '=', input.ownerId!))
    .executeTakeFirst();
}

/** Contacts with the sender's number that the text may answer, the one reached last first. */
async function matchingContacts(trx: Trx, input: ThreadInput): Promise<(ContactRow & { by_number: boolean })[]> {
  const owner = input.ownerId === null ? sql`TRUE` : sql`c.owner_id = ${input.ownerId}`;
  const ourText = (fromNumber: RawBuilder<unknown>) => sql<boolean>`EXISTS (SELECT 1 FROM messages m
    WHERE m.contact_id = c.id AND m.direction = 'outbound' AND ${fromNumber})`;
  const sameRoute = sql`m.from_number IS NULL AND m.provider = ${input.provider} AND m.voice_connection_id IS NOT DISTINCT FROM ${input.connectionId}::bigint`;
  const { rows } = await sql<ContactRow & { by_number: boolean }>`
    SELECT * FROM (
      SELECT c.id, c.owner_id, c.campaign_id, c.status, c.timezone,
             (${hasNumber('cp', input.to)} OR ${ourText(sql`m.from_number = ${input.to}`)}) AS by_number,
             greatest(
               (SELECT max(m.created_at) FROM messages m WHERE m.contact_id = c.id AND m.direction = 'outbound'),
               (SELECT max(k.start_time) FROM calls k WHERE k.contact_id = c.id)) AS reached_at
        FROM contacts c JOIN campaigns cp ON cp.id = c.campaign_id
       WHERE c.phone_number = ${input.from} AND ${owner}) candidate
     WHERE by_number OR ${sql`EXISTS (SELECT 1 FROM messages m WHERE m.contact_id = candidate.id AND m.direction = 'outbound' AND ${sameRoute})`}
     ORDER BY reached_at DESC NULLS LAST, id DESC
     LIMIT ${CANDIDATES}`.execute(trx);
  return rows;
}

/** The first row when every row is one account's; 'ambiguous' when two accounts' rows match. */
function oneAccount<T extends { owner_id: number }>(rows: T[]): T | 'ambiguous' | undefined {
  const owners = new Set(rows.map((r) => Number(r.owner_id)));
  return owners.size > 1 ? 'ambiguous' : rows[0];
}

function thread(row: { id: number; owner_id: number; campaign_id: number; status: string; timezone: string | null }, created: boolean): TextThread {
  return { ownerId: Number(row.owner_id), campaignId: Number(row.campaign_id), contactId: Number(row.id), contactStatus: row.status, contactTimezone: row.timezone, created };
}
