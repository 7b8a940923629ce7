import { Type } from 'typebox';
import { DateTime, Nullable } from '../../http/schemas.ts';

export const LiveCall = Type.Object({
  id: Type.Integer({ description: 'the call id' }),
  campaign_id: Type.Integer(),
  campaign_title: Nullable(Type.String()),
  contact_id: Type.Integer(),
  contact_name: Nullable(Type.String({ description: 'the contact data\'s `name`, when it has one' })),
  phone_number: Type.String({ description: 'the contact\'s number (the caller\'s, for an inbound call)' }),
  direction: Type.String({ description: 'outbound or inbound' }),
  start_time: Nullable(DateTime),
  answered: Type.Boolean({ description: 'someone answered (an answered event or a turn was seen)' }),
  transcript: Type.Array(Type.Object({ role: Type.String({ description: 'assistant or user' }), text: Type.String() }), { description: 'the turns spoken so far' }),
});

export const LiveCalls = Type.Object({
  last_event_id: Type.String({ description: 'follow GET /live/events from this id to miss nothing after this answer' }),
  calls: Type.Array(LiveCall),
});

export const LIVE_EVENTS_DESCRIPTION = [
  'A server-sent event stream (`text/event-stream`) of what changes in the account, as it commits: one stream per account, ',
  'filtered by `campaign_id` when given. Authenticated like the rest of the API (API key, bearer token or the dashboard\'s ',
  'session cookie, so a browser\'s `EventSource` works); a sub-user receives only the events of campaigns granted to it (a grant ',
  'changed while the stream is open counts within 15 s); another account\'s campaign is 403, an unknown one 404.\n\n',
  'Each event has an `id` (increasing), an `event` name and a JSON `data` holding `id`, `type` and the fields below. Resume ',
  'after a disconnection with the `Last-Event-ID` header (browsers send it themselves) or `last_event_id`: the events since that ',
  'id are sent first, then the live ones, none twice. Events are kept 15 minutes (LIVE_EVENTS_KEEP_MS); a resume from an id older ',
  'than that receives `resync` and should reload `GET /live/calls`, then follow from its `last_event_id`. A new stream starts ',
  'with `ready`. A client that falls 2,000 events behind is disconnected (it resumes). Comments (`:`) every 30 s keep proxies open.\n\n',
  'Events and their data:\n',
  '- `call.started`: call_id, campaign_id, contact_id, direction, phone_number, campaign_title, contact_name, status, start_time.\n',
  '- `call.ringing`, `call.answered`: call_id, campaign_id, at.\n',
  '- `call.turn`: call_id, campaign_id, role (`assistant` or `user`), text, at: a transcript turn as it is spoken (the simulator, ',
  'our Twilio agent, Vapi\'s transcript messages, Retell\'s transcript_updated); from Retell also seq, the turn\'s place in the ',
  'transcript (0 = first): Retell resends the whole transcript with each update, and each place is told once.\n',
  '- `call.ended`: call_id, campaign_id, contact_id, direction, phone_number, status, action_status, call_duration, cost, ',
  'call_ended_by, end_time, and the contact after the call: contact_status, next_action_code, next_action_time.\n',
  '- `campaign.paused`, `campaign.resumed`: campaign_id, title, reason (`operator`, `insufficient_funds`, `failure_rate`); a pause by the ',
  'circuit breaker (`failure_rate`) also carries failures, attempts and window_seconds (GET /campaigns/{id}/protection).\n',
  '- `campaign.limit_reached`: campaign_id, title, limit_unit, limit_value, limit_usage.',
].join('');
