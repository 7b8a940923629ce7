import type { App } from '../../app.ts';
import { requirePhone } from '../../shared/phone.ts';
import { rejectMistypedPrompt } from './campaign-rules.ts';
import * as ops from './campaigns.operations.ts';
import { createCampaign, getCampaign, listCampaigns, updateCampaign } from './campaigns.service.ts';
import { promptHistoryRoutes } from './prompt-history.routes.ts';
import { campaignSummaryRoutes } from './campaign-summary.routes.ts';

export async function campaignsRoutes(app: App) {
  const { db, clock, config } = app.deps;
  // campaign_phone is the caller id of outbound calls and the number inbound calls are
  // routed by (in E.164), so it is stored normalised like every phone number: 422 when invalid.
  const withE164 = <T extends { campaign_phone?: string | null }>(body: T): T =>
    typeof body.campaign_phone === 'string' ? { ...body, campaign_phone: requirePhone(body.campaign_phone, config.DEFAULT_COUNTRY, ['body', 'campaign_phone']).e164 } : body;

  app.get('/', { schema: ops.ListCampaigns }, async (request) =>
    listCampaigns({ db, principal: request.principal, query: request.query }));
  app.post('/', { schema: ops.CreateCampaign, preValidation: rejectMistypedPrompt }, async (request) =>
    createCampaign({ db, principal: request.principal, input: withE164(request.body), now: clock.now() }));
  app.get('/:id', { schema: ops.ReadCampaign }, async (request) =>
    getCampaign({ db, principal: request.principal, id: request.params.id }));
  app.put('/:id', { schema: ops.UpdateCampaign, preValidation: rejectMistypedPrompt }, async (request) =>
    updateCampaign({ db, principal: request.principal, id: request.params.id, input: withE164(request.body), request, now: clock.now() }));

  await app.register(promptHistoryRoutes);
  await app.register(campaignSummaryRoutes);
}
