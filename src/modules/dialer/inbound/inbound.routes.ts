import { Type } from 'typebox';
import type { App } from '../../../app.ts';
import { DateTime, Detail, Nullable, ValidationDetail } from '../../../http/schemas.ts';
import { simulateInbound } from './inbound.service.ts';

/**
 * The simulator's inbound trigger (mounted at /api/v1/voice; authenticated like the rest of
 * the API). It writes a contact and a call into the account that owns the number, so it
 * needs that account's credentials: unauthenticated, anyone could fill any account's
 * campaigns and start its webhooks.
 */
export async function simInboundRoutes(app: App) {
  const deps = app.deps;
  app.post('/sim/inbound', {
    schema: {
      tags: ['voice'],
      operationId: 'simulate_inbound_call',
      summary: 'Simulate an inbound call (sim provider only)',
      description:
        'Places a simulated inbound call from `from` to `to`. Only with VOICE_PROVIDER=sim (404 otherwise). `to` must be a number of an ' +
        'active Inbound campaign the caller of this API may see (one of its phone_numbers, or its campaign_phone), or a SIP URI: the SIP address of such a campaign ' +
        '(its campaign_sip, compared by user@host ignoring scheme, port and parameters); else 404. A SIP `from` is the caller\'s number when its user part is one. The caller is found ' +
        'among the campaign\'s contacts by number or created (status in progress, creation_method "manual", source "inbound_call"); a contact ' +
        'with status do_not_disturb or paused keeps it. The call is recorded with call_type inbound and ends through the simulator\'s events ' +
        'like any call. 409 when that caller is already in a call with this account.',
      body: Type.Object({ from: Type.String({ minLength: 3, maxLength: 300 }), to: Type.String({ minLength: 3, maxLength: 300 }) }),
      response: {
        200: Type.Object({ call_id: Type.Integer(), contact_id: Type.Integer(), campaign_id: Type.Integer(), contact_created: Type.Boolean(), status: Type.String(), start_time: Nullable(DateTime) }),
        401: Detail, 404: Detail, 409: Detail, 422: ValidationDetail,
      },
    },
  }, async (request) => simulateInbound({ deps, principal: request.principal, from: request.body.from, to: request.body.to }));
}
