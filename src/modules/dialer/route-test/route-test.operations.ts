import { Type, type Static } from 'typebox';
import { Detail, ErrorResponses, IdParams } from '../../../http/schemas.ts';

/** The OpenAPI description of the route test (route-test.routes.ts registers it). */

const RouteTestBody = Type.Object({
  phone_number: Type.String({ minLength: 1, maxLength: 40, description: 'The number to call, E.164 or national (read in DEFAULT_COUNTRY); usually the operator\'s own phone' }),
}, { additionalProperties: false });

export const RouteTestAnswer = Type.Object({
  call_id: Type.Integer({ description: 'The test call: GET /api/v1/calls/{id} shows its status and call_data.sip_response_code as it ends' }),
  status: Type.String({ description: 'in progress while the trunk is answering or the call is on; failed etc. at once when the vendor refused the route' }),
  from_number: Type.Union([Type.String(), Type.Null()], { description: 'The caller ID: the trunk\'s first number when it lists its numbers' }),
  to_number: Type.String({ description: 'The number called, E.164' }),
  sip_uri: Type.String({ description: 'The route called: the campaign\'s campaign_sip with the number in its user part, no credentials (a vendor may write it its own way: Twilio dials a sips: route as sip:…;transport=tls)' }),
  sip_response_code: Type.Union([Type.Integer(), Type.Null()], { description: 'The trunk\'s final answer to the INVITE, once known' }),
  ended_reason: Type.Union([Type.String(), Type.Null()], { description: 'Why the call ended, once it has' }),
});

/** What the dashboard shows while the test call runs: it reads GET /api/v1/calls/{id} for the end. */
export type RouteTestAnswer = Static<typeof RouteTestAnswer>;

export const TestCampaignRoute = {
  operationId: 'test_campaign_sip_route', tags: ['campaigns'], summary: 'Place one test call through the campaign\'s SIP route',
  description:
    'Calls the number given, now, from this Outbound campaign through its campaign_sip and SIP trunk, with its assistant, so the trunk\'s answer is seen ' +
    'before the campaign calls anyone. The answer is 202 with the call; its end (status, call_data.sip_response_code, the SIP code\'s meaning in ' +
    'docs/sip.md) is read with GET /api/v1/calls/{id}. Decided: a test call has call_type null (the analytics\' call_types=none); it takes no attempt, ' +
    'sends no webhook, is not scored and sends no text; the campaign\'s contact with the number is used, else one is made with status finished (never queued by ' +
    'this), and the contact\'s status is not changed. The law and the limits hold as for any call: a number on the do-not-call list (or the campaign\'s contact with it do_not_disturb) or outside the campaign\'s ' +
    'calling window and the account\'s quiet hours (the number\'s local time), or at the account\'s frequency caps for the number (test calls count toward them, for later calls too), is a 409 saying why; the campaign\'s concurrent_call_limit, the account\'s ' +
    'max_concurrent_calls, MAX_CONCURRENT_CALLS and the vendor\'s pacing give 429 when full; a number already in a call is 409. A paused campaign may be tested. ' +
    '409 too for a campaign without campaign_sip, an Inbound campaign (its campaign_sip is where callers reach it) or an archived one. ' +
    'Account owner only (a sub-user: 403): it is a call at the account\'s cost through its carrier credentials. Audited (sip_trunk.route_tested, subject the campaign, details call_id and sip_trunk_id; the number stays on the call). ' +
    'Another account\'s campaign is 403, an unknown one 404; a number that is not a phone number is a 422 naming phone_number.',
  params: IdParams, body: RouteTestBody,
  response: { 202: RouteTestAnswer, ...ErrorResponses, 409: Detail, 429: Detail },
} as const;
