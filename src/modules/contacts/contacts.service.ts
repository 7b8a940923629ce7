import type { Transaction } from 'kysely';
import { requireContactDataSize } from '../../shared/contact-data-limit.ts';
import type { Db } from '../../db/connection.ts';
import { withStatementTimeout } from '../../db/bounded-list.ts';
import type { Database } from '../../db/schema.ts';
import { conflict, forbidden, notFound, unprocessable } from '../../http/errors.ts';
import { phoneFilter, requirePhone } from '../../shared/phone.ts';
import { timezoneForPhone } from '../../shared/phone-timezones.ts';
import { isValidTimeZone, unknownTimeZone } from '../../shared/timezone.ts';
import type { Principal } from '../auth/principal.ts';
import { canAccessCampaign, requireCampaign } from '../campaigns/campaign-access.ts';
import { queueContactsNow } from '../contact-lifecycle/queueing.ts';
import { QUEUED_ON_CREATION } from '../contact-lifecycle/contact-states.ts';
import { setContactStep } from '../contact-lifecycle/contact-lifecycle.repository.ts';
import type { DueWake } from '../contact-lifecycle/queueing.ts';
import { suppressedAmong, suppressionNote } from '../compliance/suppressions/suppressions.repository.ts';
import type { CampaignContactsQuery, ContactCreate, ContactsQuery, ContactUpdate } from './contacts.schemas.ts';
import {
  deleteContactRow,
  findContact,
  findContactIdByPhone,
  insertContacts,
  listContacts,
  updateContactRow,
  type ContactFilters,
  type ContactView,
} from './contacts.repository.ts';

type Loc = (string | number)[];

/** Runs fn in the caller's transaction when there is one, else in a new one. */
function inTransaction<T>(db: Db, fn: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
  return db.isTransaction ? fn(db as Transaction<Database>) : db.transaction().execute(fn);
}

const isUniqueViolation = (error: unknown) => (error as { code?: string } | null)?.code === '23505';

const duplicate = (phone: string, campaignId: number, existingId?: number) =>
  conflict(
    `A contact with phone number ${phone} already exists in campaign ${campaignId}` + (existingId ? ` (contact id ${existingId})` : ''),
  );

function checkTimeZone(zone: string | null | undefined, loc: Loc) {
  if (zone != null && !isValidTimeZone(zone)) throw unprocessable(loc, unknownTimeZone(zone), 'timezone');
}

const jsonOrNull = (value: unknown) => (value == null ? null : JSON.stringify(value));

/**
 * Creates one contact in a campaign the principal may use. Shared by every way contacts come in
 * (API, integrations): the phone is stored as E.164, the zone must be IANA (when omitted
 * it is guessed from the number: the single zone of its prefix, else null), one contact
 * per (campaign, phone) is a 409, and a campaign with auto_calls queues the contact in
 * the same transaction. `loc` prefixes 422 locations (['body'] for the API).
 */
export async function createContact(args: {
  db: Db;
  principal: Principal;
  input: ContactCreate;
  defaultCountry: string;
  /** Wakes the dialer when the contact is queued on creation (auto_calls). */
  dialerWake: DueWake;
  loc?: Loc;
}): Promise<ContactView> {
  const { input, principal } = args;
  const loc = args.loc ?? ['body'];
  const phone = requirePhone(input.phone_number, args.defaultCountry, [...loc, 'phone_number']);
  checkTimeZone(input.timezone, [...loc, 'timezone']);
  requireContactDataSize(input.contact_data, [...loc, 'contact_data']);

  return inTransaction(args.db, async (trx) => {
    const campaign = await requireCampaign(trx, principal, input.campaign_id);
    const [written] = await insertContacts(trx, campaign.owner_id, [{
      campaign_id: campaign.id,
      phone_number: phone.e164,
      status: input.status,
      contact_data: input.contact_data,
      // Omitted or null: the number's zone.
      ...(input.timezone != null ? { timezone: input.timezone } : {}),
      source: input.source ?? null,
      creation_method: input.creation_method ?? 'external_api',
      next_action_time: input.next_action_time ?? null,
      next_action_reason: input.next_action_reason ?? null,
      ...(input.created_at ? { created_at: input.created_at } : {}),
      ...(input.updated_at ? { updated_at: input.updated_at } : {}),
    }]);
    if (!written) throw duplicate(phone.e164, campaign.id, (await findContactIdByPhone(trx, campaign.id, phone.e164))?.id);
    // The written status: a suppressed number came in do_not_disturb whatever was asked.
    if (campaign.auto_calls && QUEUED_ON_CREATION.includes(written.status)) await queueContactsNow(trx, { contactIds: [written.id], reason: 'auto_calls: queued on creation', wake: args.dialerWake });
    return (await findContact(trx, written.id))!;
  });
}

/** A contact the principal may see: 404 when unknown, 403 when its campaign is not theirs. */
export async function requireContact(db: Db, principal: Principal, id: number): Promise<ContactView> {
  const contact = await findContact(db, id);
  if (!contact) throw notFound('Contact');
  if (!(await canAccessCampaign(db, principal, { id: contact.campaign_id, owner_id: contact.owner_id }))) throw forbidden();
  return contact;
}

/** Partial update: only the fields present change; a new phone is re-normalised and may 409. */
export async function updateContact(args: { db: Db; principal: Principal; id: number; input: ContactUpdate; defaultCountry: string }) {
  const { input } = args;
  const phone = input.phone_number === undefined ? undefined : requirePhone(input.phone_number, args.defaultCountry, ['body', 'phone_number']).e164;
  checkTimeZone(input.timezone, ['body', 'timezone']);
  requireContactDataSize(input.contact_data, ['body', 'contact_data']);
  return inTransaction(args.db, async (trx) => {
    const contact = await requireContact(trx, args.principal, args.id);
    // A zone guessed from the old number (as created) follows the number; one set by hand stays.
    let guessedZone: { timezone: string | null } | null = null;
    if (phone !== undefined && phone !== contact.phone_number) {
      const existing = await findContactIdByPhone(trx, contact.campaign_id, phone);
      if (existing) throw duplicate(phone, contact.campaign_id, existing.id);
      if (input.timezone === undefined && contact.timezone === (await timezoneForPhone(contact.phone_number))) guessedZone = { timezone: await timezoneForPhone(phone) };
    }
    // A number changed to a suppressed one stops the contact as creation would have.
    const suppression = phone !== undefined && phone !== contact.phone_number ? (await suppressedAmong(trx, contact.owner_id, [phone])).get(phone) : undefined;
    try {
      await updateContactRow(trx, contact.id, {
        ...(phone !== undefined ? { phone_number: phone } : {}),
        ...(input.contact_data !== undefined ? { contact_data: jsonOrNull(input.contact_data) } : {}),
        ...(input.timezone !== undefined ? { timezone: input.timezone } : (guessedZone ?? {})),
        ...(input.source !== undefined ? { source: input.source } : {}),
      });
      await setContactStep(trx, contact.id, suppression
        ? { status: 'do_not_disturb', next_action_time: null, next_action_reason: suppressionNote(suppression), code: 'suppressed' }
        : {
          ...(input.status !== undefined ? { status: input.status } : {}),
          ...(input.next_action_time !== undefined ? { next_action_time: input.next_action_time } : {}),
          ...(input.next_action_reason !== undefined ? { next_action_reason: input.next_action_reason } : {}),
        });
    } catch (error) {
      if (isUniqueViolation(error) && phone) throw duplicate(phone, contact.campaign_id);
      throw error;
    }
    return (await findContact(trx, contact.id))!;
  });
}

/** Deletes a contact (its calls go with it) and answers the API's Message object. */
export async function deleteContact(args: { db: Db; principal: Principal; id: number; now: Date }) {
  const contact = await requireContact(args.db, args.principal, args.id);
  await deleteContactRow(args.db, contact.id);
  return {
    message: 'Contact deleted',
    user_id: args.principal.ownerId,
    campaign_id: contact.campaign_id,
    contact_id: contact.id,
    call_id: null,
    role_id: args.principal.kind,
    source: 'api',
    id: null,
    create_datetime: args.now,
    message_data: null,
  };
}

/** The query's filters that narrow the list (for the 503 of a stopped query), by their API names. */
const usedFilters = (q: ContactsQuery | CampaignContactsQuery, byCampaign: boolean) => [
  ...(byCampaign ? ['campaign_id'] : []),
  ...Object.entries(q)
    .filter(([key, value]) => !['skip', 'limit', 'campaign_id'].includes(key) && value !== undefined && value !== '')
    .map(([key]) => key),
];

/**
 * Either contact list: the query's filters, with the phone normalised like stored numbers;
 * its queries run on one connection under the API's statement timeout (a stopped one is a 503).
 */
export function listContactsPage(args: {
  db: Db;
  principal: Principal;
  query: ContactsQuery | CampaignContactsQuery;
  campaignIds?: number[] | undefined;
  defaultCountry: string;
  statementTimeoutMs: number;
}) {
  const { query } = args;
  const filters: ContactFilters = {
    campaignIds: args.campaignIds,
    phoneNumber: phoneFilter(query.phone_number, args.defaultCountry),
    statuses: query.status,
    callsAttemptsFrom: query.calls_attempts_from,
    callsAttemptsTo: query.calls_attempts_to,
    ...('created_at_from' in query ? { createdFrom: query.created_at_from } : {}),
    ...('created_at_to' in query ? { createdTo: query.created_at_to } : {}),
  };
  const where = { timeoutMs: args.statementTimeoutMs, list: 'contacts', filters: usedFilters(query, (args.campaignIds?.length ?? 0) > 0) };
  return withStatementTimeout(args.db, where, (db) => listContacts(db, { principal: args.principal, filters, skip: query.skip, limit: query.limit }));
}

/** The contacts of one campaign the principal can see (404 unknown, 403 another account's or not granted). */
export async function listCampaignContactsPage(args: {
  db: Db;
  principal: Principal;
  campaignId: number;
  query: CampaignContactsQuery;
  defaultCountry: string;
  statementTimeoutMs: number;
}) {
  const campaign = await requireCampaign(args.db, args.principal, args.campaignId);
  return listContactsPage({ ...args, campaignIds: [campaign.id] });
}
