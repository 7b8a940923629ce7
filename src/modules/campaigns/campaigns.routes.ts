import type { App } from '../../app.ts';
import { requirePhone } from '../../shared/phone.ts';
import { ErrorResponses, IdParams } from '../../shared/schemas.ts';
import { Campaign, CampaignCreate, CampaignList, CampaignListQuery, CampaignUpdate } from './campaigns.schemas.ts';
import { rejectMistypedPrompt } from './campaign-rules.ts';
import { createCampaign, getCampaign, listCampaigns, updateCampaign } from './campaigns.service.ts';
import { promptHistoryRoutes } from './prompt-history.routes.ts';
import { campaignSummaryRoutes } from './campaign-summary.routes.ts';

const tags = ['campaigns'];
const ACCESS =
  'An account sees its own campaigns; a sub-user sees, reads and updates only the campaigns granted to it. ' +
  'Another account\'s campaign: 403; unknown id: 404.';

export async function campaignsRoutes(app: App) {
  const { db, clock, config } = app.deps;
  // campaign_phone is the caller id of outbound calls and the number inbound calls are
  // routed by (in E.164), so it is stored normalised like every phone number: 422 when invalid.
  const withE164 = <T extends { campaign_phone?: string | null }>(body: T): T =>
    typeof body.campaign_phone === 'string' ? { ...body, campaign_phone: requirePhone(body.campaign_phone, config.DEFAULT_COUNTRY, ['body', 'campaign_phone']).e164 } : body;

  app.get(
    '/',
    {
      schema: {
        tags,
        summary: 'List campaigns',
        description:
          `Newest first (id descending). count is the total number of matches, not the page size. Archived campaigns are left out unless include_archived=true. ${ACCESS} ` +
          'List items omit campaign_data, limit_start, limit_end and prompt_history.',
        querystring: CampaignListQuery,
        response: { 200: CampaignList, ...ErrorResponses },
      },
    },
    async (request) => listCampaigns({ db, principal: request.principal, query: request.query }),
  );

  app.post(
    '/',
    {
      schema: {
        tags,
        summary: 'Create a campaign',
        description:
          'Only the account owner creates campaigns; a sub-user gets 403. A campaign_data.prompt is recorded in prompt_history as auto_approved. ' +
          'limit_usage starts at 0; limit_reached is computed from it.',
        body: CampaignCreate,
        response: { 200: Campaign, ...ErrorResponses },
      },
      preValidation: rejectMistypedPrompt,
    },
    async (request) => createCampaign({ db, principal: request.principal, input: withE164(request.body), now: clock.now() }),
  );

  app.get(
    '/:id',
    { schema: { tags, summary: 'Read a campaign', description: ACCESS, params: IdParams, response: { 200: Campaign, ...ErrorResponses } } },
    async (request) => getCampaign({ db, principal: request.principal, id: request.params.id }),
  );

  app.put(
    '/:id',
    {
      schema: {
        tags,
        summary: 'Update a campaign',
        description:
          `${ACCESS} Omitted fields are unchanged; a null title, campaign_type, is_archive or is_paused is unchanged too. ` +
          'A change of campaign_data.prompt adds a prompt_history entry: auto_approved when the owner makes it, pending (until the owner decides) when a sub-user does. ' +
          'Changing limit_value, limit_unit, limit_start or limit_end recounts limit_usage from the calls (in the new unit and period) and recomputes limit_reached. campaign_phone is stored in E.164 (422 when it is not a phone number).',
        params: IdParams,
        body: CampaignUpdate,
        response: { 200: Campaign, ...ErrorResponses },
      },
      preValidation: rejectMistypedPrompt,
    },
    async (request) => updateCampaign({ db, principal: request.principal, id: request.params.id, input: withE164(request.body), now: clock.now() }),
  );

  await app.register(promptHistoryRoutes);
  await app.register(campaignSummaryRoutes);
}
