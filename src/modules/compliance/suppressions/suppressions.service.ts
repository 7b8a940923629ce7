import { recordAudit, type AuditRequest } from '../../audit/audit.service.ts';
import type { Db } from '../../../db/connection.ts';
import type { SuppressionRow } from '../../../db/tables/compliance.ts';
import { forbidden, notFound, unprocessable } from '../../../http/errors.ts';
import { phoneFilter, requirePhone } from '../../../shared/phone.ts';
import type { Principal } from '../../auth/principal.ts';
import * as repo from './suppressions.repository.ts';
import type { Suppression, SuppressionCreate, SuppressionsQuery } from './suppressions.schemas.ts';

/**
 * The do-not-call list. Anyone of the account (owner or sub-user) lists, looks up and adds;
 * only the owner removes. Another account's suppression is 403, an unknown id 404.
 */

interface Deps {
  db: Db;
  defaultCountry: string;
  now: Date;
}

export function toResponse(row: repo.SuppressionView): Suppression {
  const byUser = row.created_by_user_id !== null;
  const bySubUser = row.created_by_sub_user_id !== null;
  return {
    id: row.id,
    phone_number: row.phone_number,
    reason: row.reason,
    source: row.source,
    call_id: row.call_id,
    created_by: byUser || bySubUser
      ? { user_id: row.created_by_user_id, sub_user_id: row.created_by_sub_user_id, email: bySubUser ? row.sub_user_email : row.user_email }
      : null,
    created_at: row.created_at,
    expires_at: row.expires_at,
  };
}

/** Who a principal is, as a suppression's created_by columns record it. */
export const creatorOf = (p: Principal) =>
  p.kind === 'user' ? { created_by_user_id: p.userId, created_by_sub_user_id: null } : { created_by_user_id: null, created_by_sub_user_id: p.subUserId };

/** An expires_at a caller gave: a date in the future, or null. `error` words why not. */
export function checkExpiry(value: string | null | undefined, now: Date): { value: Date | null } | { error: string } {
  if (value == null) return { value: null };
  const at = new Date(value);
  if (Number.isNaN(at.getTime())) return { error: 'not a valid date-time' };
  if (at.getTime() <= now.getTime()) return { error: 'must be in the future' };
  return { value: at };
}

/**
 * Adds one number to the principal's account's list, for the dialer's opt-out and anything else
 * that already runs in a transaction (pass it as `trx`): the row and its effect on the account's
 * contacts (moved to do_not_disturb unless in progress) commit with the caller's work. The phone
 * must already be E.164. Adding a listed number again updates it (see upsertSuppressions).
 */
export async function suppressNumber(trx: Db, input: {
  ownerId: number;
  phoneNumber: string;
  reason: string | null;
  source: repo.Source;
  callId?: number | null;
  expiresAt?: Date | null;
  createdBy?: { userId?: number | null; subUserId?: number | null };
}): Promise<SuppressionRow> {
  const [row] = await repo.upsertSuppressions(trx, input.ownerId, [{
    phone_number: input.phoneNumber,
    reason: input.reason,
    source: input.source,
    expires_at: input.expiresAt ?? null,
    call_id: input.callId ?? null,
    created_by_user_id: input.createdBy?.userId ?? null,
    created_by_sub_user_id: input.createdBy?.subUserId ?? null,
  }]);
  return row!;
}

export async function addSuppression(input: Deps & { principal: Principal; body: SuppressionCreate; request?: AuditRequest }) {
  const { body, principal } = input;
  const phone = requirePhone(body.phone_number, input.defaultCountry, ['body', 'phone_number']);
  const expiry = checkExpiry(body.expires_at, input.now);
  if ('error' in expiry) throw unprocessable(['body', 'expires_at'], expiry.error);
  const row = await input.db.transaction().execute(async (trx) => {
    const creator = creatorOf(principal);
    const added = await suppressNumber(trx, {
      ownerId: principal.ownerId, phoneNumber: phone.e164, reason: body.reason ?? null, source: body.source ?? 'manual', expiresAt: expiry.value,
      createdBy: { userId: creator.created_by_user_id, subUserId: creator.created_by_sub_user_id },
    });
    await recordAudit(trx, {
      principal, request: input.request, kind: 'suppression.added', subject: { type: 'suppression', id: added.id },
      details: { phone_number: added.phone_number, source: added.source, reason: added.reason, expires_at: added.expires_at },
    });
    return added;
  });
  const [view] = await repo.viewSuppressions(input.db, [row.id]);
  return toResponse(view!);
}

export async function listSuppressionsPage(input: Deps & { principal: Principal; query: SuppressionsQuery }) {
  const { query } = input;
  const { rows, count } = await repo.listSuppressions(input.db, input.principal.ownerId, {
    phoneNumber: phoneFilter(query.phone_number, input.defaultCountry),
    sources: query.source,
    includeExpired: query.include_expired,
    now: input.now,
  }, query.skip, query.limit);
  return { data: rows.map(toResponse), count };
}

export async function lookupSuppression(input: Deps & { principal: Principal; phoneNumber: string }) {
  const phone = requirePhone(input.phoneNumber, input.defaultCountry, ['query', 'phone_number']);
  const found = (await repo.suppressedAmong(input.db, input.principal.ownerId, [phone.e164], input.now)).get(phone.e164);
  const view = found ? (await repo.viewSuppressions(input.db, [found.id]))[0] : undefined;
  return { phone_number: phone.e164, suppressed: view !== undefined, suppression: view ? toResponse(view) : null };
}

/**
 * Removes a number from the list: the account owner only (a sub-user: 403). Contacts moved to
 * do_not_disturb by it stay so; changing their status again is a deliberate act of the owner.
 */
export async function removeSuppression(input: { db: Db; principal: Principal; id: number; request?: AuditRequest }) {
  const row = await repo.findSuppression(input.db, input.id);
  if (!row) throw notFound('Suppression');
  if (row.owner_id !== input.principal.ownerId || input.principal.kind !== 'user') throw forbidden();
  await input.db.transaction().execute(async (trx) => {
    await repo.deleteSuppressionRow(trx, row.id);
    await recordAudit(trx, {
      principal: input.principal, request: input.request, kind: 'suppression.removed', subject: { type: 'suppression', id: row.id },
      details: { phone_number: row.phone_number, source: row.source, reason: row.reason },
    });
  });
  return { message: 'Suppression removed' };
}
