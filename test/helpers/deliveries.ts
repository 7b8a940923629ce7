import type { Db } from '../../src/db/connection.ts';
import { waitFor } from './wait-for.ts';

export const deliveriesOf = (db: Db, integrationId: number) =>
  db.selectFrom('webhook_deliveries').selectAll().where('integration_id', '=', integrationId).orderBy('id').execute();

/** Waits until no delivery of the integration is pending, and returns them all. */
export async function settled(db: Db, integrationId: number, expected?: number) {
  return waitFor(async () => {
    const rows = await deliveriesOf(db, integrationId);
    if (expected !== undefined && rows.length < expected) return null;
    return rows.every((r) => r.status !== 'pending') ? rows : null;
  }, 10_000, async () => JSON.stringify((await deliveriesOf(db, integrationId)).map((r) => [r.id, r.status, r.reason, r.claimed_by])));
}
