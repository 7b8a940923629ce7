import { sql, type Transaction } from 'kysely';
import type { Static } from 'typebox';
import type { Db } from '../../db/connection.ts';
import { columns } from '../../db/columns.ts';
import { boundedCount, EXACT_COUNT_UP_TO } from '../../db/bounded-list.ts';
import type { Database, NewContact } from '../../db/schema.ts';
import { campaignVisibleTo } from '../campaigns/campaign-access.ts';
import { pageWithCampaignTitle } from '../campaigns/titled-page.ts';
import type { Principal } from '../auth/principal.ts';
import type { Contact, ContactCreationMethod } from './contacts.schemas.ts';
import type { NextActionCode } from '../contact-lifecycle/next-action.ts';
import { timezoneForPhone } from '../../shared/phone-timezones.ts';
import { suppressedAmong, suppressionNote } from '../compliance/suppressions/suppressions.repository.ts';

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
  'contacts.next_action_code',
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

/** A list filtered by campaign counts exactly up to this many contacts (its campaign index bounds the read). */
export const CAMPAIGN_EXACT_COUNT_UP_TO = 100_000;

/**
 * One page (newest first, see pageWithCampaignTitle) and the total count, bounded (docs/scale.md):
 * a list filtered by campaign counts exactly up to CAMPAIGN_EXACT_COUNT_UP_TO contacts (a
 * campaign's 10,000 contacts count in milliseconds), any other up to EXACT_COUNT_UP_TO; past
 * that the count is the planner's estimate and `exact` is false. An exact count of an account's
 * 1M contacts took 79 ms and grew with the account.
 */
export async function listContacts(db: Db, args: { principal: Principal; filters: ContactFilters; skip: number; limit: number }) {
  const base = matching(db, args.principal, args.filters);
  const byCampaign = (args.filters.campaignIds?.length ?? 0) > 0;
  const counted = await boundedCount(db, base, byCampaign ? CAMPAIGN_EXACT_COUNT_UP_TO : EXACT_COUNT_UP_TO);
  const data = await pageWithCampaignTitle<ContactView>(db, base.select(contactColumns).orderBy('contacts.id', 'desc').limit(args.limit).offset(args.skip));
  return { data, count: counted.count, count_exact: counted.exact };
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
/** The fields a person edits; status and next step are the lifecycle's (setContactStep). */
export const WRITABLE = ['phone_number', 'contact_data', 'timezone', 'source', 'creation_method'] as const;
type Writable = Pick<NewContact, (typeof WRITABLE)[number]>;

/**
 * A contact to create. The phone is already E.164: each way contacts come in reports a bad number in
 * its own words (a 422 location, an import row's error), so normalising it is theirs.
 */
export interface ContactDraft {
  campaign_id: number;
  phone_number: string;
  creation_method: ContactCreationMethod;
  /** Default `new`. */
  status?: string;
  /** Any JSON value; null or omitted stores NULL. */
  contact_data?: unknown;
  /** Omitted: the number's zone when its prefix has a single one (as POST /contacts documents), else null. */
  timezone?: string | null;
  source?: string | null;
  next_action_time?: Date | string | null;
  next_action_reason?: string | null;
  /** Default: `set_by_user` when a reason is given, else null. */
  next_action_code?: NextActionCode | null;
  created_at?: Date | string;
  updated_at?: Date | string;
}

/**
 * What happens to a draft whose (campaign, phone) the campaign already has: `skip` keeps
 * the existing contact untouched; `merge` adds the draft's contact_data to it and sets the
 * timezone (`replace`: the draft's wins; `keep`: the existing one wins when it has one).
 */
export type OnDuplicate = 'skip' | { merge: { timezone: 'replace' | 'keep' } };

export interface WrittenContact {
  id: number;
  campaign_id: number;
  phone_number: string;
  status: string;
  /** False for an existing contact that was merged. */
  inserted: boolean;
}

/** A created contact's next_action_code: the draft's, else `set_by_user` when it came with a reason. */
const codeOf = (d: ContactDraft) => d.next_action_code ?? (d.next_action_reason ? 'set_by_user' : null);

const stamp = (value: Date | string | null | undefined) => (value == null ? null : value instanceof Date ? value.toISOString() : value);

/**
 * The one way contacts are created (the API, integrations, imports, inbound calls): it owns
 * the columns, the defaults and the duplicate rule, one contact per (campaign, phone), which
 * the unique key enforces even between concurrent writers. Drafts are written in one
 * statement in the unique key's order, so two writers of overlapping numbers lock in the
 * same order and never deadlock; a repeat inside `drafts` counts as a duplicate of the first.
 * Answers the written rows (skipped duplicates are absent). Queueing stays with the caller:
 * whether a new contact is dialled depends on how it came in. A new contact whose number the
 * account suppresses is written do_not_disturb (see suppressedAmong), so it is never queued.
 */
export async function insertContacts(trx: Transaction<Database> | Db, ownerId: number, drafts: ContactDraft[], onDuplicate: OnDuplicate = 'skip'): Promise<WrittenContact[]> {
  const unique = new Map<string, ContactDraft>();
  for (const d of drafts) if (!unique.has(`${d.campaign_id}|${d.phone_number}`)) unique.set(`${d.campaign_id}|${d.phone_number}`, d);
  const sorted = [...unique.values()].sort((a, b) => a.campaign_id - b.campaign_id || (a.phone_number < b.phone_number ? -1 : a.phone_number > b.phone_number ? 1 : 0));
  if (sorted.length === 0) return [];
  // A number on the account's do-not-call list comes in do_not_disturb, saying why, whatever
  // status was asked: nothing is lost and nothing is called (queueing skips do_not_disturb).
  const suppressed = await suppressedAmong(trx, ownerId, sorted.map((r) => r.phone_number));
  const rows = sorted.map((r) => {
    const s = suppressed.get(r.phone_number);
    return s ? { ...r, status: 'do_not_disturb', next_action_time: null, next_action_code: 'suppressed' as const, next_action_reason: suppressionNote(s) } : r;
  });
  const zones = await Promise.all(rows.map((r) => (r.timezone === undefined ? timezoneForPhone(r.phone_number) : r.timezone)));
  const onConflict = onDuplicate === 'skip'
    ? sql`DO NOTHING`
    : sql`DO UPDATE SET
        contact_data = COALESCE(c.contact_data, '{}'::jsonb) || COALESCE(excluded.contact_data, '{}'::jsonb),
        timezone = ${onDuplicate.merge.timezone === 'replace' ? sql`COALESCE(excluded.timezone, c.timezone)` : sql`COALESCE(c.timezone, excluded.timezone)`},
        updated_at = now()`;
  // unnest keeps the statement at a fixed number of parameters whatever the batch size.
  const result = await sql<WrittenContact>`
    INSERT INTO contacts AS c (owner_id, campaign_id, phone_number, status, contact_data, timezone, source, creation_method,
                               next_action_time, next_action_code, next_action_reason, created_at, updated_at)
    SELECT ${ownerId}, u.campaign_id, u.phone_number, u.status, u.contact_data::jsonb, u.timezone, u.source, u.creation_method,
           u.next_action_time::timestamptz, u.next_action_code, u.next_action_reason, COALESCE(u.created_at::timestamptz, now()), COALESCE(u.updated_at::timestamptz, now())
      FROM unnest(${rows.map((r) => r.campaign_id)}::bigint[], ${rows.map((r) => r.phone_number)}::text[],
                  ${rows.map((r) => r.status ?? 'new')}::text[], ${rows.map((r) => (r.contact_data == null ? null : JSON.stringify(r.contact_data)))}::text[],
                  ${zones}::text[], ${rows.map((r) => r.source ?? null)}::text[], ${rows.map((r) => r.creation_method)}::text[],
                  ${rows.map((r) => stamp(r.next_action_time))}::text[], ${rows.map(codeOf)}::text[], ${rows.map((r) => r.next_action_reason ?? null)}::text[],
                  ${rows.map((r) => stamp(r.created_at))}::text[], ${rows.map((r) => stamp(r.updated_at))}::text[])
        AS u(campaign_id, phone_number, status, contact_data, timezone, source, creation_method, next_action_time, next_action_code, next_action_reason, created_at, updated_at)
    ON CONFLICT (campaign_id, phone_number) ${onConflict}
    RETURNING id, campaign_id, phone_number, status, (xmax = 0) AS inserted`.execute(trx);
  return result.rows;
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
