import type { Db } from '../../../db/connection.ts';
import { selectPerson, type Person, type PersonRows } from './person-selection.ts';

/**
 * A person's data as one JSON document (a right of access): the rows the selection finds, whole,
 * as the account holds them. Secrets of the account (webhook credentials) are not the person's
 * and are not in it; a delivery shows what was sent and answered, not the receiver's auth.
 */
export async function exportPerson(db: Db, person: Person, now: Date) {
  const found = await selectPerson(db, person);
  const none = [0];
  const [contacts, calls, conversations, messages, jobs, deliveries, suppressions] = await Promise.all([
    db.selectFrom('contacts').selectAll().where('id', 'in', found.contactIds.length ? found.contactIds : none).orderBy('id').execute(),
    db.selectFrom('calls').select(['id', 'campaign_id', 'contact_id', 'call_type', 'status', 'action_status', 'action_status_reason', 'from_number', 'to_number',
      'start_time', 'end_time', 'call_duration', 'cost', 'record_url', 'call_data', 'contact_data', 'call_ended_by', 'call_ended_by_reason', 'personal_data_purged_at'])
      .where('id', 'in', found.callIds.length ? found.callIds : none).orderBy('id').execute(),
    db.selectFrom('agent_conversations').select(['call_id', 'transcript', 'answered_by', 'transfer_to', 'opt_out']).where('call_id', 'in', found.callIds.length ? found.callIds : none).orderBy('call_id').execute(),
    db.selectFrom('messages').select(['id', 'campaign_id', 'contact_id', 'call_id', 'direction', 'role_id', 'source', 'purpose', 'body', 'status', 'to_number', 'from_number',
      'created_at', 'sent_at', 'delivered_at', 'personal_data_purged_at'])
      .where('id', 'in', found.messageIds.length ? found.messageIds : none).orderBy('id').execute(),
    db.selectFrom('message_jobs').select(['id', 'campaign_id', 'contact_id', 'purpose', 'body', 'status', 'due_at', 'created_at']).where('id', 'in', found.jobIds.length ? found.jobIds : none).orderBy('id').execute(),
    db.selectFrom('webhook_deliveries').select(['id', 'integration_id', 'call_id', 'message_id', 'kind', 'status', 'request_url', 'payload', 'http_status', 'response_body', 'created_at', 'personal_data_purged_at'])
      .where('id', 'in', found.deliveryIds.length ? found.deliveryIds : none).orderBy('id').execute(),
    db.selectFrom('suppressions').select(['id', 'phone_number', 'reason', 'source', 'call_id', 'created_at', 'expires_at']).where('id', 'in', found.suppressionIds.length ? found.suppressionIds : none).orderBy('id').execute(),
  ]);
  return {
    subject: { phone_number: person.phone, email: person.email, phone_numbers: found.phones },
    exported_at: now.toISOString(),
    counts: countsOf(found),
    contacts, calls, agent_conversations: conversations, messages, message_jobs: jobs, webhook_deliveries: deliveries, suppressions,
  };
}

export const countsOf = (found: PersonRows) => ({
  contacts: found.contactIds.length, calls: found.callIds.length, messages: found.messageIds.length, message_jobs: found.jobIds.length,
  webhook_deliveries: found.deliveryIds.length, suppressions: found.suppressionIds.length,
});
