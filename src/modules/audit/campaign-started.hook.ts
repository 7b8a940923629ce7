import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../../db/connection.ts';
import { recordAudit } from './audit.service.ts';

/** The campaign-wide queue operations (src/modules/dialer/dialer.routes.ts): queueing them is starting the campaign. */
const START_ROUTES = new Set(['/api/v1/campaigns/enqueue_calls/:campaign_id', '/api/v1/contacts/enqueue_calls/:campaign_id']);

/**
 * Records campaign.started after a campaign-wide queue operation succeeded, before its answer
 * is sent. A hook rather than a call in the route because the dialer module is owned
 * elsewhere; the event is therefore written just after the queueing commits, not in its
 * transaction. Moving it into dialer.routes.ts is one recordAudit(trx, ...) call there.
 */
export function campaignStartedHook(db: Db) {
  return async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const route = request.routeOptions.url ?? '';
    if (reply.statusCode !== 200 || !START_ROUTES.has(route) || !request.principal) return payload;
    const answer = payload as { campaign_id?: number; message?: string };
    if (typeof answer?.campaign_id !== 'number') return payload;
    // Only the contacts route has a (validated) query; the campaigns route queues every `new` contact.
    const query = route.startsWith('/api/v1/contacts/') ? (request.query as { status: string; limit: number }) : { status: 'new', limit: null };
    await recordAudit(db, {
      principal: request.principal,
      request,
      kind: 'campaign.started',
      subject: { type: 'campaign', id: answer.campaign_id },
      details: { route: `POST ${route}`, status: query.status, limit: query.limit, message: answer.message ?? null },
    });
    return payload;
  };
}
