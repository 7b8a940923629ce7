/**
 * The `next_action_reason` texts that code matches on (the sweep parks and revives contacts by
 * them, the campaign summary repeats them). Each is written once, here: a reason is read by
 * people in the contact's answer and by the dialer, so a reworded text must change both at once.
 */
export const PAUSED_REASON = 'campaign paused';
export const ARCHIVED_REASON = 'campaign archived';
export const INBOUND_REASON = 'inbound campaign: it places no outbound calls';
export const LIMIT_REASON = 'campaign usage limit reached';
export const FUNDS_REASON = 'campaign paused: insufficient funds with the voice provider';
/** The campaign states that park its due contacts, and that revive them once gone. */
export const CAMPAIGN_REASONS = [PAUSED_REASON, ARCHIVED_REASON, INBOUND_REASON, LIMIT_REASON] as const;
export const NO_WINDOW_REASON = 'no calling window: the campaign schedule and allowed hours never open';
