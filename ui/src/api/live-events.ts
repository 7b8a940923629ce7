/**
 * What the live stream (GET /api/v1/live/events) sends, for the dashboard: plain declarations, no
 * browser API, so a test can compare them with the service's (test/ui/live.test.ts).
 */

/** The stream's event names: the same list as src/modules/live/live-event-types.ts (a test compares them). */
export const LIVE_EVENT_TYPES = [
  'call.started', 'call.ringing', 'call.answered', 'call.turn', 'call.ended',
  'campaign.paused', 'campaign.resumed', 'campaign.limit_reached',
] as const;

/**
 * The `data` of each event, as LIVE_EVENTS_DESCRIPTION (src/modules/live/live.schemas.ts) documents
 * it: the OpenAPI document types the stream as text, so its shapes are written here once.
 */
type CallEvent<T, Fields = object> = { id: string; type: T; call_id: number; campaign_id: number } & Fields;
type CampaignEvent<T, Fields = object> = { id: string; type: T; campaign_id: number; title: string } & Fields;
type CallParties = { contact_id: number; direction: string; phone_number: string };

export type LiveEvent =
  | CallEvent<'call.started', CallParties & { campaign_title: string | null; contact_name: string | null; status: string; start_time: string | null }>
  | CallEvent<'call.ringing' | 'call.answered', { at: string }>
  | CallEvent<'call.turn', { role: string; text: string; at: string }>
  | CallEvent<'call.ended', CallParties & {
    status: string; action_status: string | null; call_duration: number | null; cost: number | null; call_ended_by: string | null;
    end_time: string | null; contact_status: string | null; next_action_code: string | null; next_action_time: string | null;
  }>
  | CampaignEvent<'campaign.paused' | 'campaign.resumed', { reason: string }>
  | CampaignEvent<'campaign.limit_reached', { limit_unit: string | null; limit_value: number | null; limit_usage: number | null }>;

/** An event, or the sign that some may have been missed: reload what is shown. */
export type LiveMessage = LiveEvent | { type: 'resync' };
