/**
 * The events of the live stream (GET /api/v1/live/events), the SSE `event:` name of each. Their
 * `data` is documented in live.schemas.ts; a browser that resumed too late is sent `resync`
 * (its last id is older than what is kept: reload the state, then follow again).
 */
export const LIVE_EVENT_TYPES = [
  'call.started', 'call.ringing', 'call.answered', 'call.turn', 'call.ended',
  'campaign.paused', 'campaign.resumed', 'campaign.limit_reached',
] as const;
export type LiveEventType = (typeof LIVE_EVENT_TYPES)[number];
