import type { App } from '../../app.ts';
import * as ops from './campaigns.operations.ts';
import { campaignSummary } from './campaign-summary.service.ts';

export async function campaignSummaryRoutes(app: App) {
  // The clock is read per request (not captured at registration) so an injected clock is followed.
  app.get('/:id/summary', { schema: ops.SummariseCampaign }, async (request) =>
    campaignSummary({ db: app.deps.db, principal: request.principal, id: request.params.id, now: app.deps.clock.now() }));
}
