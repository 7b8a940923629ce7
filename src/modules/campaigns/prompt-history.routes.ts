import type { FastifyRequest } from 'fastify';
import type { App } from '../../app.ts';
import * as ops from './campaigns.operations.ts';
import { decidePrompt } from './prompt-history.service.ts';

// The body is optional: no body means no comment.
const bodyOptional = async (request: FastifyRequest) => {
  request.body ??= {};
};

export async function promptHistoryRoutes(app: App) {
  const { db, clock } = app.deps;

  app.post('/:id/prompt-history/:history_id/approve', { schema: ops.ApprovePrompt, preValidation: bodyOptional }, async (request) =>
    decidePrompt({ db, principal: request.principal, campaignId: request.params.id, historyId: request.params.history_id, decision: 'approved', comment: request.body.comment ?? null, now: clock.now(), request }));
  app.post('/:id/prompt-history/:history_id/reject', { schema: ops.RejectPrompt, preValidation: bodyOptional }, async (request) =>
    decidePrompt({ db, principal: request.principal, campaignId: request.params.id, historyId: request.params.history_id, decision: 'rejected', comment: request.body.comment ?? null, now: clock.now(), request }));
}
