import type { Db } from '../../db/connection.ts';

/**
 * The account's caps on outbound texts to one number across all its campaigns (account_compliance,
 * migration 0028; no row = the defaults): their own numbers, apart from the calls' caps, since a
 * text costs the person less than a call and carriers judge senders by their own rules.
 */
export interface TextCaps {
  maxPerDay: number;
  maxPerWeek: number;
}

export const DEFAULT_TEXT_CAPS: TextCaps = { maxPerDay: 2, maxPerWeek: 5 };

export async function textCapsOf(db: Db, ownerId: number): Promise<TextCaps> {
  const row = await db.selectFrom('account_compliance').select(['max_texts_per_day', 'max_texts_per_week']).where('owner_id', '=', ownerId).executeTakeFirst();
  return row ? { maxPerDay: row.max_texts_per_day, maxPerWeek: row.max_texts_per_week } : DEFAULT_TEXT_CAPS;
}

/** Sets the text caps on the account's row, which saveCompliance (compliance-settings.ts) has written in the same transaction. */
export async function saveTextCaps(db: Db, ownerId: number, caps: TextCaps): Promise<void> {
  await db.updateTable('account_compliance').set({ max_texts_per_day: caps.maxPerDay, max_texts_per_week: caps.maxPerWeek }).where('owner_id', '=', ownerId).execute();
}
