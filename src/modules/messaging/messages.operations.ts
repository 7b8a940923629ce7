import { LIST_BUDGET_NOTE } from '../../shared/list-budget.ts';
import { Detail, ErrorResponses, IdParams } from '../../http/schemas.ts';
import {
  Draft, DraftRequest, MessageJob, MessageJobsList, MessageJobsQuery, MessagesList, MessagesQuery, SendMessage, TextMessage, Timeline, TimelineQuery,
} from './messages.schemas.ts';

/** The OpenAPI description of each Messages operation; messages.routes.ts registers them. */

const tags = ['messages'];
const ACCESS =
  'Texts follow their campaign like calls: an account sees the texts of its campaigns, a sub-user those of the campaigns granted to it. ' +
  'Another account\'s text is 403, an unknown id 404.';
const SHAPE =
  'A text is the interface\'s Message object: message is the text, user_id the account owner (also for a sub-user\'s text), source the channel ' +
  '(sms, whatsapp), role_id who wrote it (assistant: the AI or the campaign\'s template; contact: the person; operator: a login by hand), ' +
  'create_datetime when it was written; message_data holds what the interface does not name: direction, status, purpose, numbers, provider ids, ' +
  'segments, encoding, cost, and for a failed or undelivered text the vendor\'s error_code with error_words, the code in plain words.';

export const ListMessages = {
  operationId: 'list_messages',
  tags,
  summary: 'List text messages',
  description:
    `Newest first (id descending). ${SHAPE} Filters narrow together: campaign_id (any of), contact_id, direction, source (the channel, any of), ` +
    'status (any of), purpose (any of), create_datetime_from / _to (both bounds included), and message: texts containing it, case-insensitive ' +
    '(% and _ match themselves; at most 200 characters). count and pagination.total_count are counted exactly while at most 1000 texts match, past that ' +
    'the database\'s estimate, and count_exact says which. A list whose queries take longer than API_STATEMENT_TIMEOUT_MS is stopped and answered 503 naming its filters. ' +
    `Arrays: repeated keys or a comma list. limit is at most 1000. ${LIST_BUDGET_NOTE} ${ACCESS} A campaign_id the caller cannot see matches nothing.`,
  querystring: MessagesQuery,
  response: { 200: MessagesList, ...ErrorResponses, 503: Detail },
} as const;

export const ReadMessage = {
  operationId: 'read_message',
  tags,
  summary: 'Read a text message',
  description: `${SHAPE} ${ACCESS}`,
  params: IdParams,
  response: { 200: TextMessage, ...ErrorResponses },
} as const;

export const SendMessageOp = {
  operationId: 'send_message',
  tags,
  summary: 'Send a text to a contact by hand (queued, answered 202)',
  description:
    'Queues the text as it is written (1 to 1600 characters, not only spaces) as a message job of purpose manual, due now, and wakes the text sender; ' +
    'the answer is the job (202 Accepted: nothing has been sent yet). The sender applies the law when it sends: quiet hours in the contact\'s zone, the ' +
    'account\'s text caps (max_texts_per_day / _week of the compliance settings) and the do-not-call list; a job held back stays pending with the ' +
    'reason, one refused is skipped with it (GET /api/v1/message-jobs/). A contact whose number is on the do-not-call list, or whose status is ' +
    'do_not_disturb, is refused here with 409 and nothing is queued. The channel and sender number are the campaign\'s messaging settings. ' +
    'Every manual text is written to the audit trail (message.manual_queued: the contact and the length, never the words). Sub-users may text the ' +
    `contacts of their granted campaigns. ${ACCESS}`,
  body: SendMessage,
  response: { 202: MessageJob, ...ErrorResponses, 409: Detail },
} as const;

export const DraftMessage = {
  operationId: 'draft_message',
  tags,
  summary: 'Write a text for a contact without sending it',
  description:
    'Writes the text the service would send, and sends nothing: with LLM_BASE_URL set, the LLM from the campaign\'s messaging prompt, the contact, ' +
    'the call and the conversation so far (its answer checked; when it fails the checks the template is used); otherwise the campaign\'s template or the ' +
    'default one, filled from the contact, the call and the campaign. by says which wrote it; segments and encoding are what it would cost. ' +
    'call_id names the call to write about and must be the contact\'s (422 otherwise); omitted, the contact\'s latest call is used. purpose defaults to manual. ' +
    'prompt and template preview settings not saved yet (the campaign form\'s preview); a template may name only {{contact.<field>}}, ' +
    `{{call.<field>}} and {{campaign.<field>}} (422 otherwise). ${ACCESS}`,
  body: DraftRequest,
  response: { 200: Draft, ...ErrorResponses },
} as const;

export const ListMessageJobs = {
  operationId: 'list_message_jobs',
  tags,
  summary: 'List queued texts and why they wait',
  description:
    'The text queue: follow-ups and confirmations after calls, AI replies and manual texts, newest first, with status and reason (why a job waits, ' +
    'was skipped or cancelled) and the text it became (message_id). Filters: contact_id, campaign_id, status (any of). count is exact up to 1000 matches, ' +
    'then estimated (count_exact). limit is at most 1000. Jobs follow their campaign like texts: another account\'s are never listed, a sub-user sees those of its granted campaigns.',
  querystring: MessageJobsQuery,
  response: { 200: MessageJobsList, ...ErrorResponses, 503: Detail },
} as const;

export const ReadContactTimeline = {
  operationId: 'read_contact_timeline',
  tags,
  summary: 'A contact\'s calls and texts in one time-ordered list',
  description:
    'Oldest first, as a conversation reads: each item is kind call (with the call\'s status, outcome (action_status), type and duration; placed at its ' +
    'start_time, or when it was created before it started) or kind message (the text\'s Message object, placed at create_datetime). A call and a text at ' +
    'the same instant list the call first. The newest `limit` of the two together are answered; truncated says older ones were left out (the calls and ' +
    `texts lists page through everything). The contact must be visible: another account's is 403, an unknown one 404.`,
  params: IdParams,
  querystring: TimelineQuery,
  response: { 200: Timeline, ...ErrorResponses },
} as const;
