import type { App } from '../../app.ts';
import { ErrorResponses, IdParams } from '../../shared/schemas.ts';
import { CampaignSummary } from './campaign-summary.schemas.ts';
import { CANDIDATES, campaignSummary } from './campaign-summary.service.ts';

const DESCRIPTION =
  'Where a campaign stands, so nobody has to count statuses by hand: its contacts by status, its calls in progress, ' +
  'when the dialer can start its next call and why, and its usage against its limit. ' +
  'next_call_at follows the dialer\'s own rules: nothing is called while the campaign is paused, archived, Inbound or over its usage limit; ' +
  'otherwise the next call goes to the contact in added_to_queue or call_scheduled with the earliest next_action_time whose calling window ' +
  '(call_allowed_from_time/call_allowed_to_time in the contact\'s local time, and the work_schedule) is open then, ' +
  'and a contact outside its window is called when the window opens in its zone, e.g. a contact abroad queued in their evening is called the next morning their time. ' +
  `The first ${CANDIDATES} contacts in queue order are weighed. Contacts parked in awaiting_queue are counted but not predicted: ` +
  'the dialer puts them back in the queue on its next round once their reason is gone. ' +
  'An account sees the summary of its own campaigns; a sub-user only of the campaigns granted to it. Another account\'s campaign: 403; unknown id: 404.';

export async function campaignSummaryRoutes(app: App) {
  app.get(
    '/:id/summary',
    {
      schema: {
        tags: ['campaigns'],
        summary: 'Summarise a campaign: contacts by status, calls in progress, next call, usage',
        description: DESCRIPTION,
        params: IdParams,
        response: { 200: CampaignSummary, ...ErrorResponses },
      },
    },
    // The clock is read per request (not captured at registration) so an injected clock is followed.
    async (request) => campaignSummary({ db: app.deps.db, principal: request.principal, id: request.params.id, now: app.deps.clock.now() }),
  );
}
