import type { Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';

/**
 * Called by the dialer in the same transaction that moves a call to a terminal
 * status: writes one delivery row per matching webhook integration, so a crash can
 * neither lose nor double a send. The webhooks issue implements it.
 */
export async function enqueueWebhookDeliveries(_trx: Transaction<Database>, _callId: number): Promise<void> {}
