import type { Db } from '../../db/connection.ts';
import type { MessageRow } from '../../db/tables/messaging.ts';
import { boundedCount, withStatementTimeout } from '../../db/bounded-list.ts';
import { conflict, forbidden, notFound, unprocessable } from '../../http/errors.ts';
import { textErrorWords } from '../../messaging/text-channel.ts';
import type { Principal } from '../auth/principal.ts';
import { canAccessCampaign } from '../campaigns/campaign-access.ts';
import { requireContact } from '../contacts/contacts.service.ts';
import { suppressionsOf, suppressedReason } from '../contact-lifecycle/reach-law.ts';
import { recordAudit, type AuditRequest } from '../audit/audit.service.ts';
import type { JobWakes } from '../../claim-worker.ts';
import { insertMessageJobs, notifyTextsDue } from './message-jobs.repository.ts';
import * as repo from './messages.repository.ts';
import type { MessageJobsQuery, MessagesQuery, SendMessage, TextMessage } from './messages.schemas.ts';

/** A messages row as the interface's Message object (messages.schemas.ts says why). */
export function toMessage(m: MessageRow): TextMessage {
  return {
    id: m.id,
    message: m.body,
    user_id: m.owner_id,
    campaign_id: m.campaign_id,
    contact_id: m.contact_id,
    call_id: m.call_id,
    role_id: m.role_id,
    source: m.source,
    create_datetime: m.created_at,
    message_data: {
      direction: m.direction,
      status: m.status,
      purpose: m.purpose,
      to_number: m.to_number,
      from_number: m.from_number,
      provider: m.provider,
      provider_message_id: m.provider_message_id,
      error_code: m.error_code,
      error_words: textErrorWords(m.error_code),
      error_message: m.error_message,
      segments: m.segments,
      encoding: m.encoding,
      cost: m.cost,
      sent_by_user_id: m.sent_by_user_id,
      sent_by_sub_user_id: m.sent_by_sub_user_id,
      sent_at: m.sent_at,
      delivered_at: m.delivered_at,
      updated_at: m.updated_at,
    },
  };
}

/** Web forms send empty fields; an empty text filter filters nothing. */
const text = (value: string | undefined) => (value === undefined || value === '' ? undefined : value);

const usedFilters = (q: object) =>
  Object.entries(q).filter(([key, value]) => !['skip', 'limit'].includes(key) && value !== undefined && value !== '').map(([key]) => key);

/** The messages list: every query under the API's statement timeout, the count bounded (db/bounded-list.ts). */
export async function listMessagesPage(args: { db: Db; principal: Principal; query: MessagesQuery; statementTimeoutMs: number }) {
  const q = args.query;
  const filters: repo.MessageFilters = {
    campaignIds: q.campaign_id, contactId: q.contact_id, direction: q.direction, sources: q.source, statuses: q.status, purposes: q.purpose,
    createdFrom: q.create_datetime_from, createdTo: q.create_datetime_to, text: text(q.message),
  };
  const where = { timeoutMs: args.statementTimeoutMs, list: 'messages', filters: usedFilters(q) };
  const { rows, count, exact } = await withStatementTimeout(args.db, where, async (db) => {
    const counted = await boundedCount(db, repo.matchingMessages(db, args.principal, filters));
    const page = await repo.messagesPage(db, { principal: args.principal, filters, skip: q.skip, limit: q.limit });
    return { rows: page, ...counted };
  });
  return {
    data: rows.map(toMessage),
    count,
    count_exact: exact,
    pagination: { current_page: Math.floor(q.skip / q.limit) + 1, total_pages: Math.ceil(count / q.limit), total_count: count },
  };
}

/** A text the principal may see: 404 when unknown, 403 when its campaign is not theirs. */
export async function requireMessage(db: Db, principal: Principal, id: number): Promise<TextMessage> {
  const row = await repo.findMessage(db, id);
  if (!row) throw notFound('Message');
  if (!(await canAccessCampaign(db, principal, { id: row.campaign_id, owner_id: row.owner_id }))) throw forbidden();
  return toMessage(row);
}

/** A contact's calls and texts, oldest first, the newest `limit` of each kind merged and cut to `limit`. */
export async function contactTimeline(args: { db: Db; principal: Principal; contactId: number; limit: number }) {
  const contact = await requireContact(args.db, args.principal, args.contactId);
  // One more than asked of each kind tells whether older ones were left out.
  const [calls, texts] = await Promise.all([repo.contactCalls(args.db, contact.id, args.limit + 1), repo.contactMessages(args.db, contact.id, args.limit + 1)]);
  const items = [
    ...calls.map((c) => ({ kind: 'call' as const, at: c.start_time ?? c.created_at, call: { id: c.id, status: c.status, action_status: c.action_status, call_type: c.call_type, call_duration: c.call_duration, start_time: c.start_time, end_time: c.end_time } })),
    ...texts.map((m) => ({ kind: 'message' as const, at: m.created_at, message: toMessage(m) })),
  ].sort((a, b) => new Date(a.at).getTime() - new Date(b.at).getTime() || (a.kind === b.kind ? 0 : a.kind === 'call' ? -1 : 1));
  const truncated = items.length > args.limit;
  return { contact_id: contact.id, data: truncated ? items.slice(items.length - args.limit) : items, truncated };
}

/**
 * An operator's text: refused up front (409) when the number is on the do-not-call list or the
 * contact is do_not_disturb, else queued as a `manual` job due now. The sender asks the law again
 * when it sends (quiet hours and caps may still hold it back, with the reason on the job).
 */
export async function sendManualText(args: { db: Db; principal: Principal; input: SendMessage; request: AuditRequest; wakes: JobWakes | undefined; now: Date }) {
  const body = args.input.message;
  if (body.trim() === '') throw unprocessable(['body', 'message'], 'must contain more than spaces');
  return args.db.transaction().execute(async (trx) => {
    const contact = await requireContact(trx, args.principal, args.input.contact_id);
    const suppression = (await suppressionsOf(trx, [{ ownerId: contact.owner_id, phone: contact.phone_number }], args.now)).get(`${contact.owner_id}|${contact.phone_number}`);
    if (suppression) throw conflict(`Contact ${contact.id} (${contact.phone_number}) is on the do-not-call list: no text is sent to it (${suppressedReason(suppression)})`);
    if (contact.status === 'do_not_disturb') throw conflict(`Contact ${contact.id} is do_not_disturb: no text is sent to it; change its status first if the person asked to be contacted`);
    const sentBy = args.principal.kind === 'user' ? { userId: args.principal.userId, subUserId: null } : { userId: null, subUserId: args.principal.subUserId };
    const [jobId] = await insertMessageJobs(trx, [{
      ownerId: contact.owner_id, campaignId: contact.campaign_id, contactId: contact.id, purpose: 'manual', body, sentBy, dueAt: args.now,
    }]);
    await recordAudit(trx, {
      principal: args.principal, request: args.request, kind: 'message.manual_queued', subject: { type: 'message_job', id: jobId! },
      details: { contact_id: contact.id, campaign_id: contact.campaign_id, characters: body.length },
    });
    await notifyTextsDue(trx, args.wakes);
    return repo.findMessageJob(trx, jobId!);
  });
}

/** What waits in the text queue and why (the operator's view), newest first. */
export async function listMessageJobs(args: { db: Db; principal: Principal; query: MessageJobsQuery; statementTimeoutMs: number }) {
  const q = args.query;
  const filters = { contactId: q.contact_id, campaignId: q.campaign_id, statuses: q.status };
  const where = { timeoutMs: args.statementTimeoutMs, list: 'message jobs', filters: usedFilters(q) };
  return withStatementTimeout(args.db, where, async (db) => {
    const counted = await boundedCount(db, repo.matchingJobs(db, args.principal, filters));
    const data = await repo.messageJobsPage(db, { principal: args.principal, filters, skip: q.skip, limit: q.limit });
    return { data, count: counted.count, count_exact: counted.exact };
  });
}
