import { LIST_BUDGET_NOTE } from '../../shared/list-budget.ts';
import { Detail, ErrorResponses, IdParams } from '../../http/schemas.ts';
import { Call, CallsList, CallsQuery } from './calls.schemas.ts';

/** The OpenAPI description of each calls operation; calls.routes.ts registers them. */

const tags = ['calls'];
const ACCESS =
  'Only calls of campaigns the caller can see: an account sees the calls of its campaigns, a sub-user those of the campaigns granted to it. ' +
  "Another account's call is 403, an unknown id 404. campaign_title is the campaign's current title.";

export const ListCalls = {
  operationId: 'list_calls',
  tags,
  summary: 'List calls',
  description:
    'Newest first (id descending). count and pagination.total_count are the total number of matches (after_id does not change them): exact ' +
    'without filters or with only status and campaign_id, and with other filters while at most 1000 calls match; past that the ' +
    "database's estimate, and count_exact says which. pagination.current_page is floor(skip / limit) + 1 and total_pages ceil(count / limit). " +
    'Deep pages: after_id (the last id of the previous page) starts the page below that id without reading the calls before it; skip still works. ' +
    'Ranges (*_from, *_to) include both bounds. phone_number (to_number) and ' +
    'from_number are exact matches, normalised to E.164 when the text parses as a phone number. call_data searches the call data JSON text ' +
    '(keys and values, case-insensitive): a call matches when it has a word starting with each word of the text (words are split at spaces and ' +
    'punctuation) and contains the whole text (% and _ match themselves); so `financ` finds financing, and a part inside a word (`nancing`) finds nothing. ' +
    'call_type is an exact match. An empty text filter is ignored. ' +
    'score_min, score_max and score_tag keep only scored calls (GET /api/v1/calls/{id}/score; the campaign\'s scorecard) within the range and with the problem tag. ' +
    'A list whose queries take longer than the service\'s statement timeout (API_STATEMENT_TIMEOUT_MS, default 3 s) is stopped and answered 503 naming its filters. ' +
    `Arrays: repeated keys or a comma list. limit is at most 1000. ${LIST_BUDGET_NOTE} The pagination object keeps its formulas over the requested limit. ${ACCESS}`,
  querystring: CallsQuery,
  response: { 200: CallsList, ...ErrorResponses, 503: Detail },
} as const;

export const ReadCall = {
  operationId: 'read_call',
  tags,
  summary: 'Read a call',
  description: ACCESS,
  params: IdParams,
  response: { 200: Call, ...ErrorResponses },
} as const;

export const ReadSimulatedRecording = {
  operationId: 'read_simulated_recording',
  tags,
  summary: 'The recording of a simulated call (audio/wav)',
  description:
    'The simulator (VOICE_PROVIDER=sim, or an assistant of provider sim) records nothing: this is its call\'s transcript spoken offline ' +
    '(espeak-ng, one voice for the agent and one for the person), so the dashboard\'s player plays something real. A simulated call\'s ' +
    'record_url names this path (absolute with PUBLIC_BASE_URL, else relative to the service). 404 for a call of another provider or with ' +
    `no transcript; 503 when espeak-ng is not installed on the server (apt-get install espeak-ng). ${ACCESS}`,
  params: IdParams,
  response: {
    200: { description: 'The recording', content: { 'audio/wav': { schema: { type: 'string', format: 'binary' } } } },
    ...ErrorResponses,
    503: Detail,
  },
} as const;
