import type { Db } from '../../src/db/connection.ts';
import { enqueueWebhookDeliveries } from '../../src/modules/webhooks/enqueue-deliveries.ts';
import { seed } from './seed.ts';

/**
 * A call that has ended, with its contact, written the way the dialer writes them: the rows
 * (through seed) and, in the same transaction, the webhook deliveries the end of a call enqueues.
 */
export interface FinishedCallInput {
  ownerId: number;
  campaignId: number;
  status?: string;
  action_status?: string | null;
  action_status_reason?: string | null;
  call_ended_by?: 'HUMAN' | 'AI' | null;
  call_ended_by_reason?: string | null;
  transcript?: { role: string; text: string }[] | null;
  contact_data?: Record<string, unknown>;
  record_url?: string | null;
  call_duration?: number;
  extra_call_data?: Record<string, unknown>;
  /** Calls enqueueWebhookDeliveries in the same transaction, as the dialer does (default true). */
  finish?: boolean;
}

let phoneSeq = 0;

export async function createFinishedCall(db: Db, input: FinishedCallInput) {
  const phone = `+1202${5_000_000 + ++phoneSeq}`;
  const transcript = input.transcript === undefined ? [{ role: 'assistant', text: 'Are you interested?' }, { role: 'user', text: 'Yes I am.' }] : input.transcript;
  return db.transaction().execute(async (trx) => {
    const { contacts: [contact], calls: [call] } = await seed(trx, {
      contacts: [{
        campaign: { id: input.campaignId, owner_id: input.ownerId }, phone_number: phone, status: 'finished',
        contact_data: input.contact_data ?? { name: 'Ann Lee' },
      }],
      calls: [{
        contact: 0, status: input.status ?? 'finished',
        action_status: input.action_status === undefined ? 'interested' : input.action_status,
        action_status_reason: input.action_status_reason ?? null, call_ended_by: input.call_ended_by ?? null, call_ended_by_reason: input.call_ended_by_reason ?? null,
        from_number: '+12025550100', to_number: phone, start_time: new Date('2030-01-02T10:00:00Z'), end_time: new Date('2030-01-02T10:01:35Z'),
        call_duration: input.call_duration ?? 95, call_type: 'outbound', record_url: input.record_url ?? null,
        call_data: { ...(transcript === null ? {} : { transcript }), ...input.extra_call_data },
      }],
    });
    if (input.finish !== false) await enqueueWebhookDeliveries(trx, call.id);
    return { id: call.id, contactId: contact.id, contactPhone: contact.phone_number };
  });
}
