import type { App } from '../../app.ts';
import { Detail, ErrorResponses } from '../../shared/schemas.ts';
import { PromptDecisionBody, PromptDecisionParams, PromptHistory } from './campaigns.schemas.ts';
import { decidePrompt } from './prompt-history.service.ts';

const DECISION =
  'Account owner only (a sub-user gets 403, even on a campaign granted to it). Only a pending entry can be decided; ' +
  'a second decision is 409. The body is optional (no body = no comment). The comment is stored as approval_comment; approved_by_user_id and approved_at record who decided and when, for a rejection too.';

export async function promptHistoryRoutes(app: App) {
  const { db, clock } = app.deps;
  for (const [action, decision] of [['approve', 'approved'], ['reject', 'rejected']] as const) {
    app.post(
      `/:id/prompt-history/:history_id/${action}`,
      {
        schema: {
          tags: ['campaigns'],
          summary: `${action === 'approve' ? 'Approve' : 'Reject'} a pending prompt change`,
          description:
            DECISION + (decision === 'approved' ? ' Calls use the newest approved prompt from then on.' : ' A rejected prompt is never used by calls.'),
          params: PromptDecisionParams,
          body: PromptDecisionBody,
          response: { 200: PromptHistory, ...ErrorResponses, 409: Detail },
        },
        // The body is optional: no body means no comment.
        preValidation: async (request) => {
          request.body ??= {};
        },
      },
      async (request) =>
        decidePrompt({
          db,
          principal: request.principal,
          campaignId: request.params.id,
          historyId: request.params.history_id,
          decision,
          comment: request.body.comment ?? null,
          now: clock.now(),
        }),
    );
  }
}
