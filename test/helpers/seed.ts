import { randomUUID } from 'node:crypto';
import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../../src/db/connection.ts';
import type {
  CallsTable, CampaignsTable, CampaignSubUsersTable, ContactsTable, Database, PhoneNumbersTable, SubUsersTable, UsersTable,
} from '../../src/db/schema.ts';

/**
 * Test rows written straight to the tables: `seed(db, { users, campaigns, contacts, calls, ... })`.
 * Each list holds plain rows of its table; required columns a test does not care about get a
 * default (nullable ones stay null unless given), parents are named by `owner` / `campaign` /
 * `contact` / `subUser`, and everything is inserted in dependency order, each table in one
 * statement. Answers the inserted rows, in the order given.
 *
 * A parent is either a row that exists already (anything with its `id`, such as an Account or a
 * row an earlier seed answered) or a number: the index of a row seeded by the same call. A
 * contact's owner and a call's owner and campaign come from the parent unless given.
 *
 * Seeded users and sub-users cannot log in (their password hash matches no password): accounts
 * that sign in come from createAccount / createSubUser in ./factories.ts.
 */
export type Parent<Row> = number | Row;

/** JSON columns take the value itself; seed serialises it. */
type WithJson<Row, Columns extends keyof Row> = Omit<Row, Columns> & { [C in Columns]?: unknown };
type Optional<Row, Columns extends keyof Row> = Omit<Row, Columns> & Partial<Pick<Row, Columns>>;

type Owner = Parent<{ id: number }>;
type CampaignParent = Parent<{ id: number; owner_id: number }>;
type ContactParent = Parent<{ id: number; campaign_id: number; owner_id: number }>;

export type SeedUser = Optional<Insertable<UsersTable>, 'email' | 'hashed_password' | 'full_name'>;
export type SeedSubUser = Optional<Omit<Insertable<SubUsersTable>, 'owner_id'>, 'username' | 'hashed_password' | 'email' | 'full_name'> & { owner: Owner };
export type SeedCampaign = WithJson<Optional<Omit<Insertable<CampaignsTable>, 'owner_id'>, 'title' | 'campaign_type'>, 'campaign_data' | 'work_schedule'> & { owner: Owner };
export type SeedGrant = { campaign: CampaignParent; subUser: Parent<{ id: number }> };
export type SeedPhoneNumber = Omit<Insertable<PhoneNumbersTable>, 'owner_id' | 'campaign_id'> & { owner?: Owner; campaign?: CampaignParent | null };
export type SeedContact = WithJson<Optional<Omit<Insertable<ContactsTable>, 'owner_id' | 'campaign_id'>, 'phone_number' | 'status'>, 'contact_data'> & { campaign: CampaignParent; owner_id?: number };
export type SeedCall = WithJson<Optional<Omit<Insertable<CallsTable>, 'owner_id' | 'campaign_id' | 'contact_id'>, 'status'>, 'call_data' | 'contact_data'> & { contact: ContactParent; owner_id?: number; campaign_id?: number };

export interface SeedInput {
  users?: readonly SeedUser[];
  subUsers?: readonly SeedSubUser[];
  campaigns?: readonly SeedCampaign[];
  grants?: readonly SeedGrant[];
  phoneNumbers?: readonly SeedPhoneNumber[];
  contacts?: readonly SeedContact[];
  calls?: readonly SeedCall[];
}

export interface Seeded {
  users: Selectable<UsersTable>[];
  subUsers: Selectable<SubUsersTable>[];
  campaigns: Selectable<CampaignsTable>[];
  grants: Selectable<CampaignSubUsersTable>[];
  phoneNumbers: Selectable<PhoneNumbersTable>[];
  contacts: Selectable<ContactsTable>[];
  calls: Selectable<CallsTable>[];
}

/** One row per input row: a list written out in the call gives a tuple, so `const { campaigns: [c] }` needs no `!`. */
type RowsFor<Input extends readonly unknown[], Row> = { -readonly [N in keyof Input]: Row };
export type SeededFrom<I extends SeedInput> = {
  [K in keyof Seeded]: K extends keyof I ? (I[K] extends readonly unknown[] ? RowsFor<I[K], Seeded[K][number]> : Seeded[K]) : [];
};

let phoneSeq = 0;
/** A distinct valid E.164 number (San Francisco prefix) per call within a test process. */
export const nextPhone = () => `+1415${String(2000000 + ((phoneSeq++ * 7919) % 7999999)).padStart(7, '0')}`;

const shortId = () => randomUUID().slice(0, 8);
/** A hash no password verifies against: seeded accounts are rows, not logins. */
const NO_LOGIN = '!seeded';
const json = (value: unknown) => (value == null ? null : JSON.stringify(value));

function pick<Row>(seeded: Row[], parent: Parent<Row>, what: string): Row {
  if (typeof parent !== 'number') return parent;
  const row = seeded[parent];
  if (!row) throw new Error(`seed: no ${what} at index ${parent} in this seed`);
  return row;
}

/** Bulk inserts in slices, so thousands of rows stay under PostgreSQL's parameter limit. */
async function insertAll<T extends 'users' | 'sub_users' | 'campaigns' | 'campaign_sub_users' | 'phone_numbers' | 'contacts' | 'calls'>(
  db: Db, table: T, rows: Insertable<Database[T]>[],
): Promise<Selectable<Database[T]>[]> {
  const out: Selectable<Database[T]>[] = [];
  for (let i = 0; i < rows.length; i += 500) {
    // Kysely cannot follow a table name that is a type parameter; the row types above carry the checks.
    const inserted = await (db as any).insertInto(table).values(rows.slice(i, i + 500)).returningAll().execute();
    out.push(...inserted);
  }
  return out;
}

export async function seed<const I extends SeedInput>(db: Db, input: I): Promise<SeededFrom<I>> {
  const users = await insertAll(db, 'users', (input.users ?? []).map((u) => ({
    email: `user-${shortId()}@example.com`, hashed_password: NO_LOGIN, full_name: null, ...u,
  })));
  const subUsers = await insertAll(db, 'sub_users', (input.subUsers ?? []).map(({ owner, ...s }) => {
    const username = s.username ?? `sub-${shortId()}`;
    return { owner_id: pick(users, owner, 'user').id, username, email: `${username}@example.com`, full_name: 'Sub User', hashed_password: NO_LOGIN, ...s };
  }));
  const campaigns = await insertAll(db, 'campaigns', (input.campaigns ?? []).map(({ owner, campaign_data, work_schedule, ...c }) => ({
    owner_id: pick(users, owner, 'user').id,
    title: `Campaign ${randomUUID().slice(0, 6)}`,
    campaign_type: 'Outbound',
    ...(campaign_data === undefined ? {} : { campaign_data: json(campaign_data) }),
    ...(work_schedule === undefined ? {} : { work_schedule: json(work_schedule) }),
    ...c,
  })));
  const grants = await insertAll(db, 'campaign_sub_users', (input.grants ?? []).map((g) => ({
    campaign_id: pick(campaigns, g.campaign, 'campaign').id,
    sub_user_id: pick(subUsers, g.subUser, 'sub-user').id,
  })));
  const phoneNumbers = await insertAll(db, 'phone_numbers', (input.phoneNumbers ?? []).map(({ owner, campaign, ...p }) => {
    const parent = campaign == null ? null : pick(campaigns, campaign, 'campaign');
    const ownerId = owner !== undefined ? pick(users, owner, 'user').id : parent?.owner_id;
    if (ownerId === undefined) throw new Error('seed: a phone number needs an owner or a campaign');
    return { owner_id: ownerId, campaign_id: parent?.id ?? null, ...p };
  }));
  const contacts = await insertAll(db, 'contacts', (input.contacts ?? []).map(({ campaign, contact_data, ...c }) => {
    const parent = pick(campaigns, campaign, 'campaign');
    return {
      owner_id: parent.owner_id, campaign_id: parent.id, phone_number: nextPhone(), status: 'new',
      ...(contact_data === undefined ? {} : { contact_data: json(contact_data) }),
      ...c,
    };
  }));
  const calls = await insertAll(db, 'calls', (input.calls ?? []).map(({ contact, call_data, contact_data, ...c }) => {
    const parent = pick(contacts, contact, 'contact');
    return {
      owner_id: parent.owner_id, campaign_id: parent.campaign_id, contact_id: parent.id, status: 'finished',
      ...(call_data === undefined ? {} : { call_data: json(call_data) }),
      ...(contact_data === undefined ? {} : { contact_data: json(contact_data) }),
      ...c,
    };
  }));
  const seeded: Seeded = { users, subUsers, campaigns, grants, phoneNumbers, contacts, calls };
  return seeded as SeededFrom<I>;
}
