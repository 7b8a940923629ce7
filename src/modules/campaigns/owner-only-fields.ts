import type { CampaignRow } from '../../db/schema.ts';
import { HttpError } from '../../http/errors.ts';
import type { Principal } from '../auth/principal.ts';
import type { CampaignUpdate } from './campaigns.schemas.ts';

/**
 * The campaign settings only the account owner changes: who speaks on the calls (assistant_id:
 * another system prompt, vendor and voice connection, which no prompt approval would see), from
 * which line (campaign_phone, campaign_sip), and how much the campaign may spend (the usage limit,
 * the attempts per contact, the calls at once). A sub-user's change of one is refused with 403
 * rather than queued for approval like the prompt: prompt approval records one value
 * (prompt_history) that calls read at dial time, while these are read by the dialer and the
 * usage counter straight from the row, so a pending value would need a second copy of every
 * one of them. Sending the value a field already holds is no change (a client may send back
 * what it read).
 */
export const OWNER_ONLY_FIELDS = [
  'assistant_id', 'campaign_phone', 'campaign_sip',
  'limit_value', 'limit_unit', 'limit_start', 'limit_end', 'max_call_attempts', 'concurrent_call_limit',
] as const satisfies readonly (keyof CampaignUpdate & keyof CampaignRow)[];

export const OWNER_ONLY_REFUSAL = (fields: readonly string[]) =>
  `Only the account owner may change ${fields.join(', ')} of a campaign; a sub-user may not (ask the owner)`;

const timeOf = (v: Date | string) => (v instanceof Date ? v : new Date(v)).getTime();

function same(field: (typeof OWNER_ONLY_FIELDS)[number], stored: unknown, sent: unknown): boolean {
  if (stored === null || sent === null) return stored === sent;
  if (field === 'limit_start' || field === 'limit_end') return timeOf(stored as Date) === timeOf(sent as string);
  if (field === 'limit_value') return Number(stored) === Number(sent);
  return stored === sent;
}

/** 403 naming the owner-only fields a sub-user's update would change; nothing for the owner. */
export function refuseOwnerOnlyChanges(principal: Principal, row: CampaignRow, input: CampaignUpdate): void {
  if (principal.kind === 'user') return;
  const changed = OWNER_ONLY_FIELDS.filter((f) => input[f] !== undefined && !same(f, row[f], input[f]));
  if (changed.length > 0) throw new HttpError(403, OWNER_ONLY_REFUSAL(changed));
}
