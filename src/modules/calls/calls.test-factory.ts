import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/connection.ts';
import type { NewCall, NewCampaign, NewContact } from '../../db/schema.ts';
import { hashPassword } from '../../shared/secrets.ts';
import { insertCall } from './calls.repository.ts';

/**
 * Test data written straight through the repositories (the campaigns API and the dialer
 * are built elsewhere). Every factory takes the fields a test cares about and fills the rest.
 */
export async function createCampaignRow(db: Db, ownerId: number, values: Partial<NewCampaign> = {}) {
  return db
    .insertInto('campaigns')
    .values({ owner_id: ownerId, title: `Campaign ${randomUUID().slice(0, 6)}`, campaign_type: 'Outbound', ...values })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export interface TestSubUser {
  id: number;
  username: string;
  password: string;
}

/** A sub-user of the account, granted the given campaigns. */
export async function createSubUser(db: Db, ownerId: number, grantedCampaignIds: number[] = []): Promise<TestSubUser> {
  const username = `sub-${randomUUID().slice(0, 8)}`;
  const password = 'sub user password 1';
  const row = await db
    .insertInto('sub_users')
    .values({ owner_id: ownerId, username, email: `${username}@example.com`, full_name: 'Sub User', hashed_password: await hashPassword(password) })
    .returning('id')
    .executeTakeFirstOrThrow();
  for (const campaignId of grantedCampaignIds) {
    await db.insertInto('campaign_sub_users').values({ campaign_id: campaignId, sub_user_id: row.id }).execute();
  }
  return { id: row.id, username, password };
}

let phoneSeq = 0;
/** A distinct valid E.164 number (San Francisco prefix) per call within a test file. */
export const nextPhone = () => `+1415${String(2000000 + ((phoneSeq++ * 7919) % 7999999)).padStart(7, '0')}`;

export async function createContactRow(
  db: Db,
  campaign: { id: number; owner_id: number },
  values: Partial<Omit<NewContact, 'contact_data'>> & { contact_data?: unknown } = {},
) {
  const { contact_data, ...rest } = values;
  // Tests set any column (attempt counters too), so this writes the row directly.
  return db
    .insertInto('contacts')
    .values({
      owner_id: campaign.owner_id,
      campaign_id: campaign.id,
      phone_number: nextPhone(),
      status: 'new',
      contact_data: contact_data == null ? null : JSON.stringify(contact_data),
      ...rest,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function createCallRow(
  db: Db,
  contact: { id: number; campaign_id: number; owner_id: number; phone_number?: string },
  values: Partial<Omit<NewCall, 'call_data' | 'contact_data'>> & { call_data?: unknown; contact_data?: unknown } = {},
) {
  return insertCall(db, {
    owner_id: contact.owner_id,
    campaign_id: contact.campaign_id,
    contact_id: contact.id,
    status: 'finished',
    to_number: contact.phone_number ?? null,
    ...values,
  });
}

/** A campaign with one contact and `calls` calls of it, all of one account. */
export async function createCampaignWithCalls(db: Db, ownerId: number, calls: Parameters<typeof createCallRow>[2][] = [{}]) {
  const campaign = await createCampaignRow(db, ownerId);
  const contact = await createContactRow(db, campaign);
  const callIds: number[] = [];
  for (const values of calls) callIds.push(await createCallRow(db, contact, values));
  return { campaign, contact, callIds };
}
