import { LIST_BUDGET_NOTE } from '../../shared/list-budget.ts';
import { ErrorResponses, IdParams } from '../../http/schemas.ts';
import { Call, CallsList, CallsQuery } from './calls.schemas.ts';

/** The OpenAPI description of each calls operation; calls.routes.ts registers them. */

const tags = ['calls'];
const ACCESS =
  'Only calls of campaigns the caller can see: an account sees the calls of its campaigns, a sub-user those of the campaigns granted to it. ' +
  "Another account's call is 403, an unknown id 404. campaign_title is the campaign's current title.";

export const ListCalls = {
  tags,
  summary: 'List calls',
  description:
    'Newest first (id descending). count and pagination.total_count are the total number of matches; pagination.current_page is ' +
    'floor(skip / limit) + 1 and total_pages ceil(count / limit). Ranges (*_from, *_to) include both bounds. phone_number (to_number) and ' +
    'from_number are exact matches, normalised to E.164 when the text parses as a phone number. call_data is a case-insensitive substring ' +
    'search in the call data JSON text (keys and values; % and _ match themselves). call_type is an exact match. An empty text filter is ignored. ' +
    `Arrays: repeated keys or a comma list. limit is at most 1000. ${LIST_BUDGET_NOTE} The pagination object keeps its formulas over the requested limit. ${ACCESS}`,
  querystring: CallsQuery,
  response: { 200: CallsList, ...ErrorResponses },
} as const;

export const ReadCall = {
  tags,
  summary: 'Read a call',
  description: ACCESS,
  params: IdParams,
  response: { 200: Call, ...ErrorResponses },
} as const;
