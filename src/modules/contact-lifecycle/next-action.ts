/**
 * A contact's next step, as a machine-readable code beside the sentence a person reads.
 * Code matches on the code (the sweep parks and revives contacts by it, the campaign summary
 * repeats it); the sentence (`next_action_reason`) carries the details (times, counts,
 * suppression ids) and may be reworded freely. Both are written together, by the lifecycle
 * repository only.
 */
export const NEXT_ACTION_CODES = [
  /** Put in the queue: on creation (auto_calls), by an enqueue operation or a selection. */
  'queued',
  /** A call of a channel is in progress (outbound). */
  'calling',
  /** An inbound call from the contact is in progress. */
  'inbound_call',
  /** Another attempt after an unanswered call, at the campaign's call_interval. */
  'retry_scheduled',
  /** Waits for the calling window, the schedule or the account's quiet hours to open. */
  'outside_window',
  /** The campaign's schedule and allowed hours never open: waits for the campaign to change. */
  'no_window',
  /** The account's frequency caps for the number: waits until another call is allowed. */
  'frequency_cap',
  /** Every caller id number of the campaign reached its daily cap. */
  'caller_id_cap',
  /** Another call to the same number is in progress. */
  'number_busy',
  /** The account's concurrent calls are in use (max_concurrent_calls, some kept for inbound): stays due. */
  'account_concurrency',
  /** Waits for a free line of the vendor route (pacing), or for the vendor to be reachable. */
  'vendor_pacing',
  /** The vendor refused the call for its own limits; retried, the attempt not counted. */
  'vendor_refused',
  /** The campaign cannot call: paused, archived, inbound, usage limit, no funds. */
  'campaign_paused',
  'campaign_archived',
  'campaign_inbound',
  'usage_limit',
  'insufficient_funds',
  /** Back in the queue: the campaign reason it waited for is gone. */
  'requeued',
  /** On the account's do-not-call list (an upload, the API or the person's own opt-out). */
  'suppressed',
  /** No further attempt: the last outcome was final or the attempts are used up. */
  'completed',
  /** Status or next step set by a person through the API. */
  'set_by_user',
  /** The person asked, by text, to be called back at a time: due then. */
  'callback_requested',
] as const;
export type NextActionCode = (typeof NEXT_ACTION_CODES)[number];

/** A contact's next step: the code code matches on and the sentence people read. */
export interface NextAction {
  code: NextActionCode;
  reason: string;
}

/** The campaign states that park its due contacts, and that revive them once gone. */
export const CAMPAIGN_BLOCKS = {
  campaign_paused: 'campaign paused',
  campaign_archived: 'campaign archived',
  campaign_inbound: 'inbound campaign: it places no outbound calls',
  usage_limit: 'campaign usage limit reached',
} as const satisfies Partial<Record<NextActionCode, string>>;
export type CampaignBlockCode = keyof typeof CAMPAIGN_BLOCKS;
export const CAMPAIGN_BLOCK_CODES = Object.keys(CAMPAIGN_BLOCKS) as CampaignBlockCode[];

export const FUNDS: NextAction = { code: 'insufficient_funds', reason: 'campaign paused: insufficient funds with the voice provider' };
export const NO_WINDOW: NextAction = { code: 'no_window', reason: 'no calling window: the campaign schedule and allowed hours never open' };

/** The codes of contacts waiting for their campaign, that the sweep revives once the cause is gone. */
export const REVIVABLE_CODES: NextActionCode[] = [...CAMPAIGN_BLOCK_CODES, 'insufficient_funds', 'no_window'];

export const blocked = (code: CampaignBlockCode): NextAction => ({ code, reason: CAMPAIGN_BLOCKS[code] });
