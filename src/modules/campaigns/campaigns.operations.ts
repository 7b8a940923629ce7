import { Detail, ErrorResponses, IdParams } from '../../http/schemas.ts';
import { CampaignSummary } from './campaign-summary.schemas.ts';
import { CANDIDATES } from './campaign-summary.service.ts';
import { OWNER_ONLY_FIELDS } from './owner-only-fields.ts';
import {
  Campaign,
  CampaignCreate,
  CampaignList,
  CampaignListQuery,
  CampaignUpdate,
  PromptDecisionBody,
  PromptDecisionParams,
  PromptHistory,
} from './campaigns.schemas.ts';

/**
 * The OpenAPI description of each campaigns operation (the campaigns themselves, their
 * summary and their prompt history); the module's routes files register them.
 */

const tags = ['campaigns'];
const ACCESS =
  'An account sees its own campaigns; a sub-user sees, reads and updates only the campaigns granted to it. ' +
  'Another account\'s campaign: 403; unknown id: 404.';

export const ListCampaigns = {
  operationId: 'list_campaigns',
  tags,
  summary: 'List campaigns',
  description:
    `Newest first (id descending). count is the total number of matches, not the page size. Archived campaigns are left out unless include_archived=true. ${ACCESS} ` +
    'List items omit campaign_data, limit_start, limit_end and prompt_history.',
  querystring: CampaignListQuery,
  response: { 200: CampaignList, ...ErrorResponses },
} as const;

export const CreateCampaign = {
  operationId: 'create_campaign',
  tags,
  summary: 'Create a campaign',
  description:
    'Only the account owner creates campaigns; a sub-user gets 403. A campaign_data.prompt is recorded in prompt_history as auto_approved. ' +
    'limit_usage starts at 0; limit_reached is computed from it.',
  body: CampaignCreate,
  response: { 200: Campaign, ...ErrorResponses },
} as const;

export const ReadCampaign = {
  operationId: 'read_campaign',
  tags,
  summary: 'Read a campaign',
  description: ACCESS,
  params: IdParams,
  response: { 200: Campaign, ...ErrorResponses },
} as const;

export const UpdateCampaign = {
  operationId: 'update_campaign',
  tags,
  summary: 'Update a campaign',
  description:
    `${ACCESS} Omitted fields are unchanged; a null title, campaign_type, is_archive or is_paused is unchanged too. ` +
    'A change of campaign_data.prompt adds a prompt_history entry: auto_approved when the owner makes it, pending (until the owner decides) when a sub-user does. ' +
    `A sub-user may not change ${OWNER_ONLY_FIELDS.join(', ')} (who speaks on the calls, from which line, and how much the campaign may spend): ` +
    'such a request is refused whole with 403 and a detail naming the fields, and changes nothing; sending the value a field already holds is no change. ' +
    'These are refused rather than queued for approval like the prompt, because the dialer reads them from the campaign itself. ' +
    'Changing limit_value, limit_unit, limit_start or limit_end recounts limit_usage from the calls (in the new unit and period) and recomputes limit_reached. campaign_phone is stored in E.164 (422 when it is not a phone number).',
  params: IdParams,
  body: CampaignUpdate,
  response: { 200: Campaign, ...ErrorResponses },
} as const;

export const SummariseCampaign = {
  operationId: 'summarise_campaign',
  tags: ['campaigns'],
  summary: 'Summarise a campaign: contacts by status, calls in progress, next call, usage',
  description:
    'Where a campaign stands, so nobody has to count statuses by hand: its contacts by status, its calls in progress, ' +
    'when the dialer can start its next call and why, and its usage against its limit. ' +
    'next_call_at follows the dialer\'s own rules: nothing is called while the campaign is paused, archived, Inbound or over its usage limit; ' +
    'otherwise the next call goes to the contact in added_to_queue or call_scheduled with the earliest next_action_time whose calling window ' +
    '(call_allowed_from_time/call_allowed_to_time in the contact\'s local time, and the work_schedule) is open then, ' +
    'and a contact outside its window is called when the window opens in its zone, e.g. a contact abroad queued in their evening is called the next morning their time. ' +
    `The first ${CANDIDATES} contacts in queue order are weighed. Contacts parked in awaiting_queue are counted but not predicted: ` +
    'the dialer puts them back in the queue on its next round once their reason is gone. ' +
    'paused_by says why a campaign paused itself (the circuit breaker: too many of its calls failed, GET/PUT /api/v1/campaigns/{id}/protection), null otherwise. ' +
    'An account sees the summary of its own campaigns; a sub-user only of the campaigns granted to it. Another account\'s campaign: 403; unknown id: 404.',
  params: IdParams,
  response: { 200: CampaignSummary, ...ErrorResponses },
} as const;

const DECISION =
  'Account owner only (a sub-user gets 403, even on a campaign granted to it). Only a pending entry can be decided; ' +
  'a second decision is 409. The body is optional (no body = no comment). The comment is stored as approval_comment; approved_by_user_id and approved_at record who decided and when, for a rejection too.';

const decidePrompt = (operationId: string, summary: string, effect: string) =>
  ({
    tags: ['campaigns'],
    operationId,
    summary,
    description: DECISION + effect,
    params: PromptDecisionParams,
    body: PromptDecisionBody,
    response: { 200: PromptHistory, ...ErrorResponses, 409: Detail },
  }) as const;

export const ApprovePrompt = decidePrompt('approve_prompt', 'Approve a pending prompt change', ' Calls use the newest approved prompt from then on. ' +
  'When the account requires test scenarios before approval (PUT /api/v1/quality/scenario-settings), approval is refused with 409 and a detail naming the campaign\'s ' +
  'test scenarios that have no passed run against this prompt_history entry since they were last changed (a campaign with no scenarios: refused, saying to write one); ' +
  'test the pending prompt with POST /api/v1/campaigns/{id}/test-scenarios/{scenario_id}/runs and prompt_history_id. Rejecting is never blocked.');
export const RejectPrompt = decidePrompt('reject_prompt', 'Reject a pending prompt change', ' A rejected prompt is never used by calls.');
