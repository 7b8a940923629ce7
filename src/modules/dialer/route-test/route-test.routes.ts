import type { App } from '../../../app.ts';
import { TestCampaignRoute } from './route-test.operations.ts';
import { testCampaignRoute } from './route-test.service.ts';

/** POST /api/v1/campaigns/{id}/sip-route/test, registered under the campaigns prefix. */
export async function routeTestRoutes(app: App) {
  app.post('/:id/sip-route/test', { schema: TestCampaignRoute }, async (request, reply) => {
    const answer = await testCampaignRoute(app.deps, { principal: request.principal, campaignId: request.params.id, phoneNumber: request.body.phone_number, request });
    return reply.code(202).send(answer);
  });
}
