import type { Db } from '../../../db/connection.ts';
import { forbidden, unprocessable } from '../../../http/errors.ts';
import type { Principal } from '../../auth/principal.ts';
import { recordAudit, type AuditRequest } from '../../audit/audit.service.ts';
import { callCapacityOf, saveCallCapacity, type CallCapacity as Stored } from '../call-capacity.ts';
import type { CallCapacity, CallCapacityUpdate } from './call-capacity.schemas.ts';

const toBody = (s: Stored): CallCapacity => ({
  max_concurrent_calls: s.maxConcurrent,
  reserved_inbound_calls: s.reservedInbound,
  calls_in_progress: { outbound: s.outboundLive, inbound: s.inboundLive },
  outbound_room: s.maxConcurrent === null ? null : Math.max(0, s.maxConcurrent - s.outboundLive - Math.max(s.inboundLive, s.reservedInbound)),
});

export async function readCallCapacity(db: Db, principal: Principal): Promise<CallCapacity> {
  return toBody(await callCapacityOf(db, principal.ownerId));
}

/**
 * The owner's change (a sub-user: 403), checked before anything is written, saved and audited in
 * one transaction. Lowering the cap below the calls in progress ends none of them: no new outbound
 * call starts until they are under it.
 */
export async function updateCallCapacity(db: Db, principal: Principal, request: AuditRequest, b: CallCapacityUpdate): Promise<CallCapacity> {
  if (principal.kind !== 'user') throw forbidden();
  const max = b.max_concurrent_calls;
  const reserve = b.reserved_inbound_calls ?? 0;
  if (reserve > 0 && max === null) throw unprocessable(['body', 'reserved_inbound_calls'], 'reserved_inbound_calls needs max_concurrent_calls (a reserve is kept within the account\'s cap)');
  if (max !== null && reserve > max) throw unprocessable(['body', 'reserved_inbound_calls'], 'must not exceed max_concurrent_calls');
  return db.transaction().execute(async (trx) => {
    const before = await callCapacityOf(trx, principal.ownerId);
    await saveCallCapacity(trx, principal.ownerId, { maxConcurrent: max, reservedInbound: reserve });
    const after = await callCapacityOf(trx, principal.ownerId);
    if (before.maxConcurrent !== after.maxConcurrent || before.reservedInbound !== after.reservedInbound) {
      await recordAudit(trx, {
        principal, request, kind: 'account.capacity_changed', subject: { type: 'account', id: principal.ownerId },
        details: { from: [before.maxConcurrent, before.reservedInbound], to: [after.maxConcurrent, after.reservedInbound] },
      });
    }
    return toBody(after);
  });
}
