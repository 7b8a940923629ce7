import type { App } from '../../../app.ts';
import { ErrorResponses, IdParams } from '../../../http/schemas.ts';
import { CallScore, SCORECARD_DOC, Scorecard, ScorecardUpdate, ScoreSummary, ScoreSummaryQuery } from './scorecards.schemas.ts';
import { readCallScore, readCampaignScorecard, updateCampaignScorecard } from './scorecards.service.ts';
import { scoreSummary } from './score-summary.ts';

const ACCESS = 'The campaign must be visible: the owner\'s, or granted to the sub-user (another account\'s is 403, an unknown id 404).';
const tags = ['scorecards'];

/** Under /campaigns: GET/PUT /{id}/scorecard and GET /{id}/scores/summary. */
export async function campaignScorecardRoutes(app: App) {
  const { db, clock } = app.deps;
  app.get('/:id/scorecard', {
    schema: { tags, operationId: 'read_campaign_scorecard', summary: 'Read a campaign\'s scorecard', description: `${SCORECARD_DOC} ${ACCESS}`, params: IdParams, response: { 200: Scorecard, ...ErrorResponses } },
  }, async (request) => readCampaignScorecard(db, request.principal, request.params.id));

  app.put('/:id/scorecard', {
    schema: {
      tags, operationId: 'update_campaign_scorecard', summary: 'Change a campaign\'s scorecard (owner only, audited)',
      description: `${SCORECARD_DOC} criteria and tags left out keep their value. Keys are unique, options only (and always) for a category, option labels unique: ` +
        'a card that breaks a rule is 422 naming the field, and nothing changes. Only the account owner changes it (a sub-user\'s change is 403); audited ' +
        `(campaign.scorecard_changed, subject the campaign). ${ACCESS}`,
      params: IdParams, body: ScorecardUpdate, response: { 200: Scorecard, ...ErrorResponses },
    },
  }, async (request) => updateCampaignScorecard(db, request.principal, request.params.id, request.body, request));

  app.get('/:id/scores/summary', {
    schema: {
      tags, operationId: 'read_campaign_score_summary', summary: 'A campaign\'s call scores: average, distribution, trend, by prompt version',
      description: 'Over the calls scored in [from, to) (default the last 30 days; at most 366 days; from after to is 422): the average score, ten 10-point ' +
        'buckets, the average per UTC day, the average per prompt version (calls.prompt_history_id, the version the call used), the problem tags found, and ' +
        `the score rows per status (created in the period). ${ACCESS}`,
      params: IdParams, querystring: ScoreSummaryQuery, response: { 200: ScoreSummary, ...ErrorResponses },
    },
  }, async (request) => scoreSummary(db, request.principal, request.params.id, request.query, clock.now()));
}

/** Under /calls: GET /{id}/score. */
export async function callScoreRoutes(app: App) {
  const { db } = app.deps;
  app.get('/:id/score', {
    schema: {
      tags, operationId: 'read_call_score', summary: 'Read a call\'s score on its campaign\'s scorecard',
      description: 'The score, each criterion\'s answer with the judge\'s reason, the problem tags found, and the status (a call of a campaign whose card was off is ' +
        'not_scored). Kept beside the call, not in the Call object, whose shape the spec fixes. The reasons are redacted by the call\'s rule for extracted payloads. ' +
        'Only calls of campaigns the caller can see (another account\'s call is 403, an unknown id 404).',
      params: IdParams, response: { 200: CallScore, ...ErrorResponses },
    },
  }, async (request) => readCallScore(db, request.principal, request.params.id));
}
