import { randomUUID } from 'node:crypto';
import { createUser } from '../../src/modules/users/users.service.ts';
import { createApiKey } from '../../src/modules/api-keys/api-keys.service.ts';
import { createSubUser as createSubUserThroughService } from '../../src/modules/sub-users/sub-users.service.ts';
import { seed } from './seed.ts';
import { createTestApp, type TestApp } from './test-app.ts';

/**
 * Accounts and sub-users that sign in, made through the same services the API uses (a real
 * password hash, a real API key). Rows that only need to exist come from seed (./seed.ts).
 */
export interface Account {
  id: number;
  email: string;
  password: string;
  apiKey: string;
  /** Headers that authenticate as this account. */
  headers: Record<string, string>;
}

/**
 * A test account. Its calls may go out around the clock and as often as a test needs (quiet hours
 * 00:00-24:00, caps of 1000): tests run at any hour, and the dialer's behaviour they check is not
 * the law's. `lawful: true` keeps the service's defaults (08:00-21:00, 3 a day, 7 a week), as the
 * compliance tests do.
 */
export async function createAccount(t: TestApp, options: { superuser?: boolean; lawful?: boolean } = {}): Promise<Account> {
  const email = `user-${randomUUID().slice(0, 8)}@example.com`;
  const password = 'correct horse battery';
  const user = await createUser(t.deps.db, { email, password, is_superuser: options.superuser ?? false, full_name: 'Test User' });
  if (!options.lawful) await callAroundTheClock(t.deps.db, user.id);
  const key = await createApiKey(t.deps.db, user.id, 'test');
  return { id: user.id, email, password, apiKey: key.key, headers: { 'x-api-key': key.key } };
}

export async function login(t: TestApp, username: string, password: string): Promise<string> {
  const res = await t.request({ method: 'POST', url: '/api/v1/login/access-token', payload: new URLSearchParams({ username, password }).toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } });
  if (res.statusCode !== 200) throw new Error(`login failed: ${res.statusCode} ${res.body}`);
  return res.json().access_token;
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

export interface SubUser {
  id: number;
  username: string;
  email: string;
  fullName: string;
  password: string;
  /** Headers of a signed-in session of the sub-user. */
  headers: Record<string, string>;
}

/** A signed-in sub-user of the account, granted the given campaigns. */
export async function createSubUser(t: TestApp, ownerId: number, grantedCampaignIds: number[] = []): Promise<SubUser> {
  const username = `sub-${randomUUID().slice(0, 8)}`;
  const password = 'sub-user password';
  const email = `${username}@example.com`;
  const fullName = `Sub ${username}`;
  const { id } = await createSubUserThroughService({
    db: t.deps.db,
    principal: { kind: 'user', userId: ownerId, ownerId, isSuperuser: false },
    body: { username, password, email, full_name: fullName },
  });
  await seed(t.deps.db, { grants: grantedCampaignIds.map((campaign) => ({ campaign: { id: campaign, owner_id: ownerId }, subUser: { id } })) });
  return { id, username, email, fullName, password, headers: bearer(await login(t, username, password)) };
}

/** Creates a campaign through the API, for tests of the API itself; answers its body. */
export async function createCampaignViaApi(t: TestApp, headers: Record<string, string>, body: Record<string, unknown> = {}) {
  const res = await t.request({ method: 'POST', url: '/api/v1/campaigns/', headers, payload: { title: `Campaign ${randomUUID().slice(0, 6)}`, campaign_type: 'Outbound', ...body } });
  if (res.statusCode !== 200) throw new Error(`create campaign failed: ${res.statusCode} ${res.body}`);
  return res.json();
}

/** The scene most route tests start from: one app on its own database and two accounts. */
export async function appWithAccounts(env: Record<string, string> = {}): Promise<{ t: TestApp; alice: Account; bob: Account }> {
  const t = await createTestApp(env);
  return { t, alice: await createAccount(t), bob: await createAccount(t) };
}

/** Lifts the account's quiet hours and caps (see createAccount). */
export async function callAroundTheClock(db: TestApp['deps']['db'], ownerId: number): Promise<void> {
  await db.insertInto('account_compliance')
    .values({ owner_id: ownerId, quiet_hours_from: '00:00:00', quiet_hours_to: '24:00:00', max_calls_per_day: 1000, max_calls_per_week: 1000, max_texts_per_day: 1000, max_texts_per_week: 1000, updated_at: new Date() })
    .onConflict((oc) => oc.column('owner_id').doUpdateSet({ quiet_hours_from: '00:00:00', quiet_hours_to: '24:00:00', max_calls_per_day: 1000, max_calls_per_week: 1000, max_texts_per_day: 1000, max_texts_per_week: 1000 }))
    .execute();
}
