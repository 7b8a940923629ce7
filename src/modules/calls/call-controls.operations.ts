import { Detail, ErrorResponses, IdParams } from '../../http/schemas.ts';
import { Call } from './calls.schemas.ts';
import { MAX_WHISPERS_PER_CALL, TransferBody, WhisperBody } from './call-controls.schemas.ts';

/** The OpenAPI description of an operator's controls of a call in progress; calls.routes.ts registers them. */

const tags = ['calls'];
const COMMON =
  'Only a call `in progress` (409 otherwise, with the reason), of a campaign the caller can see: another account\'s call is 403, ' +
  'an unknown id 404, a sub-user needs the campaign\'s grant (403). The request goes to the vendor that carries the call, with the ' +
  'credentials that placed it (the environment\'s or the assistant\'s voice connection); the vendor\'s refusal is a 502 with its words, ' +
  'a vendor that says the call is already over a 409. The answer is the call as it is now: the vendor reports the end a moment later, ' +
  'as for every call. Written to the audit trail with who did it.';
const WHO =
  'call_data.operator records the act at once: `{ action, user_id, sub_user_id, api_key_id, at }` (and phone_number for a transfer); ' +
  'one end or transfer per call (a second is a 409).';
const VENDORS =
  'Vendors: the simulator ends the call at once (only in the process that placed it: with separate worker processes, a 409 says so); ' +
  'Twilio (our agent) updates the call (`Status=completed`, or TwiML `<Dial>`); Vapi sends a message to the call\'s control URL ' +
  '(end-call, transfer, add-message); Retell stops the call (stop-call) and takes context (update-live-call), but has no API that ' +
  'transfers a live call to a number: a transfer on Retell is a 409 saying so.';
const answers = { 200: Call, ...ErrorResponses, 409: Detail, 502: Detail } as const;

export const EndCall = {
  operationId: 'end_call',
  tags,
  summary: 'End a call in progress now (operator)',
  description:
    'Hangs up the call. Its outcome says call_ended_by `HUMAN` and call_ended_by_reason `ended by operator` (call_data.ended_reason too), ' +
    'whatever the vendor reports; a vendor\'s `terminated` (its word for a hang-up through its API) becomes `finished`: a person chose ' +
    `to end the call, so its contact is not called again for it (a busy line or no answer stays as the vendor says). ${WHO} ${COMMON} ${VENDORS}`,
  params: IdParams,
  response: answers,
} as const;

export const TransferCall = {
  operationId: 'transfer_call',
  tags,
  summary: 'Transfer a call in progress to a person (operator take-over)',
  description:
    'The AI leaves the call and the vendor connects the caller to phone_number (E.164; anything else is a 422 and nothing changes). ' +
    'The call\'s outcome is action_status `transferred` with action_status_reason `transferred by operator to <number>`, whatever the ' +
    `vendor reports; the call ends when the transferred conversation does. ${WHO} ${COMMON} ${VENDORS}`,
  params: IdParams,
  body: TransferBody,
  response: answers,
} as const;

export const WhisperToCall = {
  operationId: 'whisper_to_call',
  tags,
  summary: 'Give the AI guidance during a call (operator whisper)',
  description:
    'The message reaches the AI as a system message for the rest of the call; the caller does not hear it and the AI does not answer it at ' +
    'once. Our Twilio agent reads the call\'s whispers from the database before each of its turns (whichever process holds the call), ' +
    `Vapi gets an add-message on the control URL, Retell an update-live-call with additional_context, the simulator records it. At most ${MAX_WHISPERS_PER_CALL} ` +
    'whispers per call (409 past that). call_data.whispers lists them `{ message, at, user_id, sub_user_id, api_key_id }`; the audit trail ' +
    `records the act and the message\'s length, not its words. ${COMMON}`,
  params: IdParams,
  body: WhisperBody,
  response: answers,
} as const;
