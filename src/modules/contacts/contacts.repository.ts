import { sql, type Transaction } from 'kysely';
import type { Static } from 'typebox';
import type { Db } from '../../db/connection.ts';
import { columns } from '../../db/columns.ts';
import type { Database, NewContact } from '../../db/schema.ts';
import { campaignVisibleTo } from '../campaigns/campaign-access.ts';
import type { Principal } from '../auth/principal.ts';
import type { Contact } from './contacts.schemas.ts';

/** A contact as read back: the response fields plus its owner (for access checks). */
export type ContactView = Static<typeof Contact> & { owner_id: number; campaign_id: number };

/** Filters of both contact lists; every one narrows, none widens past campaignVisibleTo. */
export interface ContactFilters {
  campaignIds?: number[] | undefined;
  phoneNumber?: string | undefined;
  statuses?: string[] | undefined;
  createdFrom?: string | undefined;
  createdTo?: string | undefined;
  callsAttemptsFrom?: number | undefined;
  callsAttemptsTo?: number | undefined;
}

const contactColumns = [
  'contacts.id',
  'contacts.owner_id',
  'contacts.campaign_id',
  'contacts.phone_number',
  'contacts.status',
  'contacts.contact_data',
  'contacts.timezone',
  'contacts.source',
  'contacts.creation_method',
  'contacts.calls_attempts',
  'contacts.message_attempts',
  'contacts.next_action_time',
  'contacts.next_action_reason',
  'contacts.created_at',
  'contacts.updated_at',
] as const;

/** The one WHERE clause shared by the page query and the count query. */
function matching(db: Db, principal: Principal, f: ContactFilters) {
  let q = db.selectFrom('contacts').where(campaignVisibleTo(principal, 'contacts.campaign_id', 'contacts.owner_id'));
  if (f.campaignIds && f.campaignIds.length > 0) q = q.where('contacts.campaign_id', 'in', f.campaignIds);
  if (f.phoneNumber !== undefined) q = q.where('contacts.phone_number', '=', f.phoneNumber);
  if (f.statuses && f.statuses.length > 0) q = q.where('contacts.status', 'in', f.statuses);
  if (f.createdFrom !== undefined) q = q.where('contacts.created_at', '>=', new Date(f.createdFrom));
  if (f.createdTo !== undefined) q = q.where('contacts.created_at', '<=', new Date(f.createdTo));
  if (f.callsAttemptsFrom !== undefined) q = q.where('contacts.calls_attempts', '>=', f.callsAttemptsFrom);
  if (f.callsAttemptsTo !== undefined) q = q.where('contacts.calls_attempts', '<=', f.callsAttemptsTo);
  return q;
}

/**
 * One page (newest first) and the total count. The page is cut from contacts alone, on
 * the (owner_id, id desc) or (campaign_id, id desc) index, and only its rows are joined
 * to campaigns for the title, so a page costs the same with a million contacts.
 */
export async function listContacts(db: Db, args: { principal: Principal; filters: ContactFilters; skip: number; limit: number }) {
  const base = matching(db, args.principal, args.filters);
  const page = base.select(contactColumns).orderBy('contacts.id', 'desc').limit(args.limit).offset(args.skip);
  const [data, total] = await Promise.all([
    db
      .selectFrom(page.as('c'))
      .innerJoin('campaigns as camp', 'camp.id', 'c.campaign_id')
      .selectAll('c')
      .select('camp.title as campaign_title')
      .orderBy('c.id', 'desc')
      .$castTo<ContactView>()
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow(),
  ]);
  return { data, count: Number(total.count) };
}

/** One contact with its campaign's title, whoever owns it (the caller checks access). */
export function findContact(db: Db, id: number) {
  return db
    .selectFrom('contacts')
    .innerJoin('campaigns as camp', 'camp.id', 'contacts.campaign_id')
    .select(contactColumns)
    .select('camp.title as campaign_title')
    .where('contacts.id', '=', id)
    .$castTo<ContactView>()
    .executeTakeFirst();
}

export function findContactIdByPhone(db: Db, campaignId: number, phoneNumber: string) {
  return db
    .selectFrom('contacts')
    .select('id')
    .where('campaign_id', '=', campaignId)
    .where('phone_number', '=', phoneNumber)
    .executeTakeFirst();
}

/** What a caller may set on a contact; its attempt counters belong to the dialer. */
const WRITABLE = ['phone_number', 'status', 'contact_data', 'timezone', 'source', 'creation_method', 'next_action_time', 'next_action_reason'] as const;
type Writable = Pick<NewContact, (typeof WRITABLE)[number]>;

export async function insertContact(
  trx: Transaction<Database> | Db,
  owner: { owner_id: number; campaign_id: number },
  values: Writable & Pick<NewContact, 'phone_number' | 'status'>,
  stamps: { created_at?: Date | string; updated_at?: Date | string } = {},
): Promise<number> {
  const row = await trx
    .insertInto('contacts')
    .values({ owner_id: owner.owner_id, campaign_id: owner.campaign_id, ...columns(values, WRITABLE), ...columns(stamps, ['created_at', 'updated_at']) })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function updateContactRow(trx: Transaction<Database> | Db, id: number, values: Partial<Writable>) {
  await trx
    .updateTable('contacts')
    .set({ ...columns(values, WRITABLE), updated_at: sql<Date>`now()` })
    .where('id', '=', id)
    .execute();
}

export async function deleteContactRow(db: Db, id: number) {
  await db.deleteFrom('contacts').where('id', '=', id).execute();
}
