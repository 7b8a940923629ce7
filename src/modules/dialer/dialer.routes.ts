import type { App } from '../../app.ts';
import { CampaignIdParams, ErrorResponses, Message } from '../../http/schemas.ts';
import { requireCampaign } from '../campaigns/campaign-access.ts';
import { EnqueueQuery, STATUS_MACHINE_DOC } from './dialer.schemas.ts';
import { queueCampaignContacts } from './outbound/queue.ts';

const MESSAGE_DOC =
  'Answers the Message object: message "Queued N contacts", user_id = the campaign owner\'s id, campaign_id, contact_id 0 ' +
  '(the operation is campaign-wide), call_id null, role_id "user", source "api". Paused or archived campaigns may be queued; ' +
  'their contacts wait as awaiting_queue until the campaign can dial.';

/** Enqueue operations (mounted at /api/v1; authenticated). */
export async function dialerRoutes(app: App) {
  const { db, dialerWake } = app.deps;

  app.post('/campaigns/enqueue_calls/:campaign_id', {
    schema: {
      tags: ['campaigns'],
      summary: 'Queue calls for every new contact of a campaign',
      description: `Queues every contact of the campaign with status \`new\` (status added_to_queue, next_action_time now). ${MESSAGE_DOC}\n${STATUS_MACHINE_DOC}`,
      params: CampaignIdParams,
      response: { 200: Message, ...ErrorResponses },
    },
  }, async (request) => {
    const campaign = await requireCampaign(db, request.principal, request.params.campaign_id);
    const n = await db.transaction().execute((trx) => queueCampaignContacts(trx, { campaignId: campaign.id, status: 'new', limit: null, reason: 'queued by campaign enqueue', wake: dialerWake }));
    return message(campaign, n);
  });

  app.post('/contacts/enqueue_calls/:campaign_id', {
    schema: {
      tags: ['contacts'],
      summary: 'Queue calls for contacts of a campaign with a given status',
      description:
        `Queues up to \`limit\` contacts of the campaign whose status is \`status\`, oldest first (created_at). Contacts in progress, ` +
        `do_not_disturb or paused are never queued (0 queued). An explicit enqueue gives a contact one more call even past max_call_attempts. ` +
        `${MESSAGE_DOC}\n${STATUS_MACHINE_DOC}`,
      params: CampaignIdParams,
      querystring: EnqueueQuery,
      response: { 200: Message, ...ErrorResponses },
    },
  }, async (request) => {
    const campaign = await requireCampaign(db, request.principal, request.params.campaign_id);
    const { status, limit } = request.query;
    const n = await db.transaction().execute((trx) => queueCampaignContacts(trx, { campaignId: campaign.id, status, limit, reason: `queued by contacts enqueue (status ${status})`, wake: dialerWake }));
    return message(campaign, n);
  });
}

function message(campaign: { id: number; owner_id: number }, n: number) {
  return { message: `Queued ${n} contact${n === 1 ? '' : 's'}`, user_id: campaign.owner_id, campaign_id: campaign.id, contact_id: 0, call_id: null, role_id: 'user', source: 'api' };
}
