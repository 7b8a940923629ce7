import type { Db } from '../../db/connection.ts';
import { forbidden, notFound } from '../../http/errors.ts';
import { generateToken } from '../../shared/credentials.ts';
import type { Principal } from '../auth/principal.ts';
import { requireCampaign } from '../campaigns/campaign-access.ts';
import type { ContactIntegrationsRepository, IntegrationRow } from './contact-integrations.repository.ts';
import { DEFAULT_RATE_LIMIT_PER_MINUTE, type IntegrationCreate, type IntegrationUpdate } from './contact-integrations.schemas.ts';

const TOKEN_PREFIX = 'vci';

/** Integrations belong to the account; sub-users cannot manage them. */
export function ownerOf(p: Principal): number {
  if (p.kind !== 'user') throw forbidden();
  return p.userId;
}

export function present(row: IntegrationRow) {
  const { token_prefix, owner_id: _owner, ...rest } = row;
  return { ...rest, masked_token: `${token_prefix}****` };
}

async function checkCampaigns(db: Db, principal: Principal, campaignIds: number[]) {
  for (const id of campaignIds) await requireCampaign(db, principal, id);
}

export async function requireIntegration(repo: ContactIntegrationsRepository, principal: Principal, id: number) {
  const ownerId = ownerOf(principal);
  const row = await repo.findById(id);
  if (!row) throw notFound('Integration');
  if (row.owner_id !== ownerId) throw forbidden();
  return row;
}

export async function createIntegration(input: { db: Db; repo: ContactIntegrationsRepository; principal: Principal; body: IntegrationCreate }) {
  const { db, repo, principal, body } = input;
  const ownerId = ownerOf(principal);
  await checkCampaigns(db, principal, body.campaign_ids);
  const { token, hash, displayPrefix } = generateToken(TOKEN_PREFIX);
  const id = await db.transaction().execute(async (trx) => {
    const { id } = await repo.insert(trx, ownerId, {
      name: body.name,
      token_prefix: displayPrefix,
      token_hash: hash,
      auto_start_calls: body.auto_start_calls ?? false,
      determine_timezone: body.determine_timezone ?? false,
      rate_limit_per_minute: body.rate_limit_per_minute ?? DEFAULT_RATE_LIMIT_PER_MINUTE,
    });
    await repo.setCampaigns(trx, id, body.campaign_ids);
    return id;
  });
  return { ...present((await repo.findById(id))!), token };
}

export async function updateIntegration(input: { db: Db; repo: ContactIntegrationsRepository; principal: Principal; id: number; body: IntegrationUpdate }) {
  const { db, repo, principal, id, body } = input;
  await requireIntegration(repo, principal, id);
  if (body.campaign_ids) await checkCampaigns(db, principal, body.campaign_ids);
  await db.transaction().execute(async (trx) => {
    await repo.updateSettings(trx, id, {
      name: body.name,
      auto_start_calls: body.auto_start_calls,
      determine_timezone: body.determine_timezone,
      rate_limit_per_minute: body.rate_limit_per_minute,
    });
    if (body.campaign_ids) await repo.setCampaigns(trx, id, body.campaign_ids);
  });
  return present((await repo.findById(id))!);
}

/** A new token replaces the old one at once: the old token is a 401 from the next request. */
export async function regenerateToken(input: { repo: ContactIntegrationsRepository; principal: Principal; id: number; db: Db }) {
  const { repo, principal, id, db } = input;
  await requireIntegration(repo, principal, id);
  const { token, hash, displayPrefix } = generateToken(TOKEN_PREFIX);
  await repo.replaceToken(db, id, { token_hash: hash, token_prefix: displayPrefix });
  return { ...present((await repo.findById(id))!), token };
}

/** The account's integrations, tokens masked. */
export async function listIntegrations(repo: ContactIntegrationsRepository, principal: Principal) {
  return (await repo.listByOwner(ownerOf(principal))).map(present);
}

export async function readIntegration(repo: ContactIntegrationsRepository, principal: Principal, id: number) {
  return present(await requireIntegration(repo, principal, id));
}

/** Deleting an integration revokes its token. */
export async function deleteIntegration(input: { repo: ContactIntegrationsRepository; principal: Principal; id: number }) {
  const row = await requireIntegration(input.repo, input.principal, input.id);
  await input.repo.delete(row.id);
  return { message: 'Integration deleted' };
}
