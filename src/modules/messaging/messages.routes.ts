import type { App } from '../../app.ts';
import * as ops from './messages.operations.ts';
import { contactTimeline, listMessageJobs, listMessagesPage, requireMessage, sendManualText } from './messages.service.ts';
import { draftText } from './message-draft.service.ts';

/** /api/v1/messages: the texts, an operator's text, a draft. */
export async function messagesRoutes(app: App) {
  const { db, config, clock, jobWakes } = app.deps;
  app.get('/', { schema: ops.ListMessages }, async (request) =>
    listMessagesPage({ db, principal: request.principal, query: request.query, statementTimeoutMs: config.API_STATEMENT_TIMEOUT_MS }));
  app.post('/', { schema: ops.SendMessageOp }, async (request, reply) => {
    const job = await sendManualText({ db, principal: request.principal, input: request.body, request, wakes: jobWakes, now: clock.now() });
    return reply.code(202).send(job);
  });
  app.post('/draft', { schema: ops.DraftMessage }, async (request) =>
    draftText({ deps: app.deps, principal: request.principal, input: request.body }));
  app.get('/:id', { schema: ops.ReadMessage }, async (request) =>
    requireMessage(db, request.principal, request.params.id));
}

/** /api/v1/message-jobs: what waits in the text queue. */
export async function messageJobsRoutes(app: App) {
  const { db, config } = app.deps;
  app.get('/', { schema: ops.ListMessageJobs }, async (request) =>
    listMessageJobs({ db, principal: request.principal, query: request.query, statementTimeoutMs: config.API_STATEMENT_TIMEOUT_MS }));
}

/** /api/v1/contacts/{id}/timeline: registered beside the contacts routes, under the same prefix. */
export async function contactTimelineRoutes(app: App) {
  const { db } = app.deps;
  app.get('/:id/timeline', { schema: ops.ReadContactTimeline }, async (request) =>
    contactTimeline({ db, principal: request.principal, contactId: request.params.id, limit: request.query.limit }));
}
