import type { Db } from '../../db/connection.ts';
import { forbidden, notFound } from '../../http/errors.ts';
import { phoneFilter } from '../../shared/phone.ts';
import type { Principal } from '../auth/principal.ts';
import { canAccessCampaign } from '../campaigns/campaign-access.ts';
import { findCall, listCalls, type CallRecord } from './calls.repository.ts';
import type { CallsQuery } from './calls.schemas.ts';

/** Web forms send empty fields; an empty text filter filters nothing. */
const text = (value: string | undefined) => (value === undefined || value === '' ? undefined : value);

/** The calls list with the API's pagination object. */
export async function listCallsPage(args: { db: Db; principal: Principal; query: CallsQuery; defaultCountry: string }) {
  const q = args.query;
  const { data, count } = await listCalls(args.db, {
    principal: args.principal,
    skip: q.skip,
    limit: q.limit,
    filters: {
      toNumber: phoneFilter(text(q.phone_number), args.defaultCountry),
      fromNumber: phoneFilter(text(q.from_number), args.defaultCountry),
      statuses: q.status,
      actionStatuses: q.action_status,
      startFrom: q.start_time_from,
      startTo: q.start_time_to,
      endFrom: q.end_time_from,
      endTo: q.end_time_to,
      durationFrom: q.duration_from,
      durationTo: q.duration_to,
      costFrom: q.cost_from,
      costTo: q.cost_to,
      campaignIds: q.campaign_id,
      contactId: q.contact_id,
      callId: q.call_id,
      callType: text(q.call_type),
      callDataText: text(q.call_data),
    },
  });
  return {
    data,
    count,
    pagination: { current_page: Math.floor(q.skip / q.limit) + 1, total_pages: Math.ceil(count / q.limit), total_count: count },
  };
}

/** A call the principal may see: 404 when unknown, 403 when its campaign is not theirs. */
export async function requireCall(db: Db, principal: Principal, id: number): Promise<CallRecord> {
  const call = await findCall(db, id);
  if (!call) throw notFound('Call');
  if (!(await canAccessCampaign(db, principal, { id: call.campaign_id, owner_id: call.owner_id }))) throw forbidden();
  return call;
}
