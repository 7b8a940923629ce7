import type { Db } from '../../db/connection.ts';
import { conflict, forbidden, notFound } from '../../http/errors.ts';
import { hashPassword } from '../../shared/credentials.ts';
import type { Principal } from '../auth/principal.ts';
import { revokeCredentials } from '../auth/credential-revocation.ts';
import { recordAudit, type AuditRequest } from '../audit/audit.service.ts';
import { subUsersRepository as repo } from './sub-users.repository.ts';
import type { SubUser, SubUserCreate, SubUserUpdate } from './sub-users.schemas.ts';

type Row = NonNullable<Awaited<ReturnType<typeof repo.find>>>;

/** Only an account owner manages sub-users; a sub-user gets 403 on every operation. */
function ownerIdOf(principal: Principal): number {
  if (principal.kind !== 'user') throw forbidden();
  return principal.userId;
}

/** The caller's sub-user: 404 when unknown, 403 when it belongs to another account. */
async function requireOwnSubUser(db: Db, principal: Principal, id: number): Promise<Row> {
  const ownerId = ownerIdOf(principal);
  const row = await repo.find(db, id);
  if (!row) throw notFound('Sub-user');
  if (row.owner_id !== ownerId) throw forbidden();
  return row;
}

async function present(db: Db, rows: Row[]): Promise<SubUser[]> {
  const grants = await repo.grantsOf(db, rows.map((r) => r.id));
  return rows.map(({ owner_id: _owner, ...row }) => ({
    ...row,
    campaign_ids: grants.filter((g) => g.sub_user_id === row.id).map((g) => g.id),
  }));
}

const clean = (value: string | null | undefined) => {
  const trimmed = value?.trim();
  return trimmed ? trimmed : null;
};

/**
 * Login tries account e-mails first, then sub-user usernames and e-mails, so a new name
 * must not already identify anyone: otherwise one of the two could never log in.
 */
async function assertNamesFree(db: Db, names: { username?: string; email?: string | null }, exceptSubUserId?: number) {
  const wanted = [names.username, names.email].filter((n): n is string => !!n).map((n) => n.toLowerCase());
  const taken = await repo.takenNames(db, [...new Set(wanted)], exceptSubUserId);
  if (names.username && taken.has(names.username.toLowerCase())) throw conflict('This username is already taken');
  if (names.email && taken.has(names.email.toLowerCase())) throw conflict('This e-mail is already in use');
}

/** A race between two creates ends at the unique indexes; answer it like the pre-check. */
async function uniqueOr409<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    const e = error as { code?: string; constraint?: string };
    if (e.code === '23505') {
      throw conflict(e.constraint === 'sub_users_email_key' ? 'This e-mail is already in use' : 'This username is already taken');
    }
    throw error;
  }
}

/** A campaign deleted between the check and the write trips the foreign key: same answer as unknown. */
async function campaignGoneOr404<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if ((error as { code?: string }).code === '23503') throw notFound('Campaign');
    throw error;
  }
}

export async function listSubUsers(input: { db: Db; principal: Principal; skip: number; limit: number }) {
  const ownerId = ownerIdOf(input.principal);
  const rows = await repo.list(input.db, ownerId, input.skip, input.limit);
  return { data: await present(input.db, rows), count: await repo.count(input.db, ownerId) };
}

export async function getSubUser(input: { db: Db; principal: Principal; id: number }) {
  const row = await requireOwnSubUser(input.db, input.principal, input.id);
  return (await present(input.db, [row]))[0]!;
}

export async function createSubUser(input: { db: Db; principal: Principal; body: SubUserCreate }) {
  const ownerId = ownerIdOf(input.principal);
  const username = input.body.username;
  const email = clean(input.body.email);
  await assertNamesFree(input.db, { username, email });
  const hashed_password = await hashPassword(input.body.password);
  const row = await uniqueOr409(() =>
    repo.insert(input.db, ownerId, { username, email, full_name: clean(input.body.full_name), hashed_password }),
  );
  return (await present(input.db, [row]))[0]!;
}

export async function updateSubUser(input: { db: Db; principal: Principal; id: number; body: SubUserUpdate }) {
  const current = await requireOwnSubUser(input.db, input.principal, input.id);
  const { body } = input;
  const values: Parameters<typeof repo.update>[2] = {};
  if (body.full_name !== undefined) values.full_name = clean(body.full_name);
  if (body.email !== undefined) {
    values.email = clean(body.email);
    if (values.email && values.email.toLowerCase() !== current.email?.toLowerCase()) {
      await assertNamesFree(input.db, { email: values.email }, current.id);
    }
  }
  if (body.password !== undefined) values.hashed_password = await hashPassword(body.password);
  if (body.is_active !== undefined) values.is_active = body.is_active;
  // A new password or a deactivation ends the sub-user's tokens and sessions for good: a later
  // reactivation does not bring them back. The owner's own session, which made the change, stays.
  const endSessions = body.password !== undefined || body.is_active === false;
  const row = await uniqueOr409(() => input.db.transaction().execute(async (trx) => {
    const updated = await repo.update(trx, current.id, values);
    if (endSessions) await revokeCredentials(trx, { kind: 'sub_user', id: current.id });
    return updated;
  }));
  return (await present(input.db, [row]))[0]!;
}

export async function deleteSubUser(input: { db: Db; principal: Principal; id: number }) {
  const row = await requireOwnSubUser(input.db, input.principal, input.id);
  await repo.delete(input.db, row.id);
  return { message: 'Sub-user deleted' };
}

export async function listGrants(input: { db: Db; principal: Principal; id: number }) {
  const row = await requireOwnSubUser(input.db, input.principal, input.id);
  return grantList(input.db, row.id);
}

async function grantList(db: Db, subUserId: number) {
  const data = (await repo.grantsOf(db, [subUserId])).map(({ id, title }) => ({ id, title }));
  return { data, count: data.length };
}

/** Every campaign must be the caller's: any unknown id is a 404, then any other account's a 403. */
async function assertOwnCampaigns(db: Db, ownerId: number, ids: number[]) {
  const found = await repo.campaignsByIds(db, ids);
  if (found.length < ids.length) {
    const known = new Set(found.map((c) => c.id));
    throw notFound(`Campaign ${ids.find((id) => !known.has(id))}`);
  }
  if (found.some((c) => c.owner_id !== ownerId)) throw forbidden();
}

type GrantChange = { db: Db; principal: Principal; id: number; request?: AuditRequest | undefined };

/** One audit event for the campaigns a change granted or revoked; none when it changed nothing. */
async function auditGrants(trx: Db, input: GrantChange, kind: 'sub_user.grant_added' | 'sub_user.grant_removed', campaignIds: number[]) {
  if (campaignIds.length === 0) return;
  await recordAudit(trx, { principal: input.principal, request: input.request, kind, subject: { type: 'sub_user', id: input.id }, details: { campaign_ids: campaignIds } });
}

export async function replaceGrants(input: GrantChange & { campaignIds: number[] }) {
  const row = await requireOwnSubUser(input.db, input.principal, input.id);
  const ids = [...new Set(input.campaignIds)];
  // Checked and written in one transaction: either the whole set is granted or nothing changes.
  await input.db.transaction().execute(async (trx) => {
    await assertOwnCampaigns(trx, row.owner_id, ids);
    const before = new Set((await repo.grantsOf(trx, [row.id])).map((g) => g.id));
    await campaignGoneOr404(() => repo.replaceGrants(trx, row.id, ids));
    await auditGrants(trx, input, 'sub_user.grant_added', ids.filter((id) => !before.has(id)).sort((a, b) => a - b));
    await auditGrants(trx, input, 'sub_user.grant_removed', [...before].filter((id) => !ids.includes(id)).sort((a, b) => a - b));
  });
  return grantList(input.db, row.id);
}

export async function addGrant(input: GrantChange & { campaignId: number }) {
  const row = await requireOwnSubUser(input.db, input.principal, input.id);
  await assertOwnCampaigns(input.db, row.owner_id, [input.campaignId]);
  await input.db.transaction().execute(async (trx) => {
    const added = await campaignGoneOr404(() => repo.addGrant(trx, row.id, input.campaignId));
    if (added) await auditGrants(trx, input, 'sub_user.grant_added', [input.campaignId]);
  });
  return grantList(input.db, row.id);
}

export async function removeGrant(input: GrantChange & { campaignId: number }) {
  const row = await requireOwnSubUser(input.db, input.principal, input.id);
  await assertOwnCampaigns(input.db, row.owner_id, [input.campaignId]);
  await input.db.transaction().execute(async (trx) => {
    if (await repo.removeGrant(trx, row.id, input.campaignId)) await auditGrants(trx, input, 'sub_user.grant_removed', [input.campaignId]);
  });
  return grantList(input.db, row.id);
}
