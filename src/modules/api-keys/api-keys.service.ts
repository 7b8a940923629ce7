import type { Db } from '../../db/connection.ts';
import { conflict, forbidden, notFound } from '../../http/errors.ts';
import { generateToken } from '../../shared/credentials.ts';
import type { Principal } from '../auth/principal.ts';
import { recordAudit, type AuditRequest } from '../audit/audit.service.ts';
import { deleteApiKeyRow, findApiKey, insertApiKey, listKeysOf, lockAndCountKeys } from './api-keys.repository.ts';

/** Keys one account may hold: enough for every integration, bounded like every other input. */
export const MAX_API_KEYS_PER_ACCOUNT = 100;

/** API keys belong to the account; sub-users cannot manage them. */
export function ownerOf(p: Principal): number {
  if (p.kind !== 'user') throw forbidden();
  return p.userId;
}

/** A new key for the account (CLI and set-up paths: no cap). */
export async function createApiKey(db: Db, ownerId: number, name: string | null) {
  const { token, hash, displayPrefix } = generateToken('vck');
  const row = await insertApiKey(db, { owner_id: ownerId, name, key_prefix: displayPrefix, key_hash: hash });
  return { ...row, masked_key: `${displayPrefix}****`, key: token };
}

/** A new key through the API: 409 once the account holds MAX_API_KEYS_PER_ACCOUNT. Audited (api_key.created). */
export async function createApiKeyWithinCap(db: Db, principal: Principal, name: string | null, request?: AuditRequest) {
  const ownerId = ownerOf(principal);
  return db.transaction().execute(async (trx) => {
    if ((await lockAndCountKeys(trx, ownerId)) >= MAX_API_KEYS_PER_ACCOUNT) {
      throw conflict(`An account can hold at most ${MAX_API_KEYS_PER_ACCOUNT} API keys; delete one before generating another`);
    }
    const key = await createApiKey(trx, ownerId, name);
    await recordAudit(trx, { principal, request, kind: 'api_key.created', subject: { type: 'api_key', id: key.id }, details: { name: key.name, masked_key: key.masked_key } });
    return key;
  });
}

/** The account's keys, newest first, each shown only by its first characters. */
export async function listApiKeys(db: Db, ownerId: number) {
  const rows = await listKeysOf(db, ownerId);
  return rows.map(({ key_prefix, ...row }) => ({ ...row, masked_key: `${key_prefix}****` }));
}

/** Deletes one of the account's keys: 404 when unknown, 403 when another account's (or a sub-user asks). Audited (api_key.deleted). */
export async function deleteApiKey(db: Db, principal: Principal, id: number, request?: AuditRequest) {
  const key = await findApiKey(db, id);
  if (!key) throw notFound('API key');
  if (key.owner_id !== ownerOf(principal)) throw forbidden();
  await db.transaction().execute(async (trx) => {
    // A concurrent delete of the same key already wrote its event.
    if (!(await deleteApiKeyRow(trx, key.id))) return;
    await recordAudit(trx, { principal, request, kind: 'api_key.deleted', subject: { type: 'api_key', id: key.id }, details: { name: key.name, masked_key: `${key.key_prefix}****` } });
  });
  return { message: 'API key deleted' };
}
