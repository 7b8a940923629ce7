import { Type } from 'typebox';
import type { App } from '../../app.ts';
import { CampaignIdParams, ErrorResponses, Id, Message } from '../../http/schemas.ts';
import type { FastifyRequest } from 'fastify';
import type { Db } from '../../db/connection.ts';
import { recordAudit } from '../audit/audit.service.ts';
import { requireCampaign } from '../campaigns/campaign-access.ts';
import { EnqueueQuery, STATUS_MACHINE_DOC } from './dialer.schemas.ts';
import { queueCampaignContacts } from '../contact-lifecycle/queueing.ts';
import { queueSelectedContacts } from './outbound/queue-selected.ts';

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
      operationId: 'enqueue_campaign_calls',
      summary: 'Queue calls for every new contact of a campaign',
      description: `Queues every contact of the campaign with status \`new\` (status added_to_queue, next_action_time now). ${MESSAGE_DOC}\n${STATUS_MACHINE_DOC}`,
      params: CampaignIdParams,
      response: { 200: Message, ...ErrorResponses },
    },
  }, async (request) => {
    const campaign = await requireCampaign(db, request.principal, request.params.campaign_id);
    return db.transaction().execute(async (trx) => {
      const n = await queueCampaignContacts(trx, { campaignId: campaign.id, status: 'new', limit: null, reason: 'queued by campaign enqueue', wake: dialerWake });
      return startedCampaign(trx, request, campaign, message(campaign, n), { status: 'new', limit: null });
    });
  });

  app.post('/contacts/enqueue_calls/:campaign_id', {
    schema: {
      tags: ['contacts'],
      operationId: 'enqueue_campaign_contacts_by_status',
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
    return db.transaction().execute(async (trx) => {
      const n = await queueCampaignContacts(trx, { campaignId: campaign.id, status, limit, reason: `queued by contacts enqueue (status ${status})`, wake: dialerWake });
      return startedCampaign(trx, request, campaign, message(campaign, n), { status, limit });
    });
  });

  queueSelectedRoute(app);
}

/** The body and answer of queueing chosen contacts. */
const SelectedContacts = Type.Object({ contact_ids: Type.Array(Id, { minItems: 1, maxItems: 1000, description: 'the contacts to queue, of any campaigns the caller may see' }) });
const SelectedQueued = Type.Object({
  message: Type.String(),
  queued: Type.Array(Type.Integer(), { description: 'ids now added_to_queue, due at once' }),
  not_queued: Type.Array(Type.Integer(), { description: 'ids left as they were: in progress, do_not_disturb or paused' }),
});

/** Queueing chosen contacts, beside the campaign-wide operations. */
function queueSelectedRoute(app: App) {
  const { db, dialerWake } = app.deps;
  app.post('/contacts/enqueue_calls', {
    schema: {
      tags: ['contacts'],
      operationId: 'enqueue_selected_contacts',
      summary: 'Queue calls for chosen contacts',
      description:
        'Queues the contacts named in `contact_ids` (up to 1000, of any campaigns the caller may see): status added_to_queue, due now, the ' +
        'dialer woken. Not in the interface we implement, which queues campaign-wide only; added for the dashboard\'s "Queue selected". ' +
        'All or nothing on access: an unknown id answers 404 and a contact of a campaign the caller may not see 403, and nothing is queued. ' +
        'Contacts in progress, do_not_disturb or paused are not queued and are listed in not_queued. An explicit enqueue gives a contact one ' +
        `more call even past max_call_attempts.\n${STATUS_MACHINE_DOC}`,
      body: SelectedContacts,
      response: { 200: SelectedQueued, ...ErrorResponses },
    },
  }, async (request) => {
    const result = await queueSelectedContacts(db, { principal: request.principal, contactIds: request.body.contact_ids, wake: dialerWake });
    const n = result.queued.length;
    return { message: `Queued ${n} contact${n === 1 ? '' : 's'}`, ...result };
  });
}

/**
 * campaign.started in the queueing's own transaction: queueing campaign-wide is starting the
 * campaign, and a queueing that failed leaves no event.
 */
async function startedCampaign<M extends { message: string }>(
  trx: Db,
  request: FastifyRequest,
  campaign: { id: number },
  answer: M,
  query: { status: string; limit: number | null },
): Promise<M> {
  const route = request.routeOptions.url ?? '';
  await recordAudit(trx, {
    principal: request.principal,
    request,
    kind: 'campaign.started',
    subject: { type: 'campaign', id: campaign.id },
    details: { route: `POST ${route}`, status: query.status, limit: query.limit, message: answer.message },
  });
  return answer;
}

function message(campaign: { id: number; owner_id: number }, n: number) {
  return { message: `Queued ${n} contact${n === 1 ? '' : 's'}`, user_id: campaign.owner_id, campaign_id: campaign.id, contact_id: 0, call_id: null, role_id: 'user', source: 'api' };
}
