import { randomUUID } from 'node:crypto';
import { hashPassword } from '../../shared/secrets.ts';
import { bearer, login } from '../../../test/helpers/factories.ts';
import type { TestApp } from '../../../test/helpers/test-app.ts';

/**
 * Test data for the campaigns and phone-numbers tests. Sub-users are written straight
 * to the database so these tests do not depend on the sub-users API.
 */
export interface SubUser {
  id: number;
  username: string;
  email: string;
  fullName: string;
  headers: Record<string, string>;
}

export async function createSubUser(t: TestApp, ownerId: number, grants: number[] = []): Promise<SubUser> {
  const username = `sub-${randomUUID().slice(0, 8)}`;
  const password = 'sub-user password';
  const email = `${username}@example.com`;
  const fullName = `Sub ${username}`;
  const { id } = await t.deps.db
    .insertInto('sub_users')
    .values({ owner_id: ownerId, username, email, full_name: fullName, hashed_password: await hashPassword(password) })
    .returning('id')
    .executeTakeFirstOrThrow();
  await grant(t, id, grants);
  return { id, username, email, fullName, headers: bearer(await login(t, username, password)) };
}

export async function grant(t: TestApp, subUserId: number, campaignIds: number[]) {
  if (campaignIds.length === 0) return;
  await t.deps.db.insertInto('campaign_sub_users').values(campaignIds.map((campaign_id) => ({ campaign_id, sub_user_id: subUserId }))).execute();
}

/** Creates a campaign through the API and answers its body. */
export async function createCampaign(t: TestApp, headers: Record<string, string>, body: Record<string, unknown> = {}) {
  const res = await t.request({ method: 'POST', url: '/api/v1/campaigns/', headers, payload: { title: `Campaign ${randomUUID().slice(0, 6)}`, campaign_type: 'Outbound', ...body } });
  if (res.statusCode !== 200) throw new Error(`create campaign failed: ${res.statusCode} ${res.body}`);
  return res.json();
}
