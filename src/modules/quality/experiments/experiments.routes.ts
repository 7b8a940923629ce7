import type { App } from '../../../app.ts';
import { ErrorResponses, IdParams } from '../../../http/schemas.ts';
import { readExperimentResults, RESULTS_DOC } from './experiment-results.ts';
import { Experiment, ExperimentCreate, ExperimentList, ExperimentParams, ExperimentResults, PromoteBody } from './experiments.schemas.ts';
import { createExperiment, listExperiments, readExperiment, startExperiment, stopExperiment } from './experiments.service.ts';
import { promoteVariant, PROMOTE_DOC } from './promote.ts';

const ACCESS = 'The campaign must be visible: the owner\'s, or granted to the sub-user (another account\'s is 403, an unknown id 404). Changes are the account owner\'s only (a sub-user\'s is 403).';
const SPLIT =
  'The split: each contact\'s variant is a stable hash of the experiment id and the contact id mapped onto the cumulative weights, so a contact keeps its variant ' +
  'across retries and rounds; each outbound call records it (calls.experiment_variant_id) and the prompt version it used (calls.prompt_history_id), and the ' +
  'vendor (or our own agent) gets that version\'s prompt and the variant\'s assistant. An inbound caller gets its contact\'s variant the same way. An assistant variant must use the campaign\'s voice route (the same provider and voice connection as the campaign\'s assistant, else 422), ' +
  'so the dialer\'s pacing per route holds; should the routes differ later, its contacts are dialled as the control. One running experiment per campaign (409).';

/** /api/v1/campaigns/{id}/experiments, registered under the campaigns prefix (issue 28). */
export async function experimentsRoutes(app: App) {
  const { db, clock, config } = app.deps;
  const tags = ['experiments'];
  app.get('/:id/experiments', {
    schema: { tags, operationId: 'list_experiments', summary: 'List a campaign\'s experiments', description: `Newest first, at most 100. ${ACCESS}`, params: IdParams, response: { 200: ExperimentList, ...ErrorResponses } },
  }, async (request) => listExperiments(db, request.principal, request.params.id));

  app.post('/:id/experiments', {
    schema: {
      tags, operationId: 'create_experiment', summary: 'Create an experiment (a draft; owner only, audited)',
      description: 'A draft experiment between the campaign\'s approved prompt (the control, fixed when it starts) and one to three variants, each exactly one of: ' +
        'prompt_history_id (a version of this campaign\'s prompt history that was not rejected), prompt (a new text, written to the prompt history as the owner\'s ' +
        'pending entry: it reaches only the experiment\'s calls until approved or made live) or assistant_id (an assistant of the account). Weights are relative integers ' +
        `1 to 100 (the control's is control_weight). 422 names the field; nothing is written then. ${SPLIT} Audited (experiment.created). ${ACCESS}`,
      params: IdParams, body: ExperimentCreate, response: { 200: Experiment, ...ErrorResponses },
    },
  }, async (request) => createExperiment({ db, principal: request.principal, campaignId: request.params.id, input: request.body, defaultProvider: config.VOICE_PROVIDER, now: clock.now(), request }));

  app.get('/:id/experiments/:experiment_id', {
    schema: { tags, operationId: 'read_experiment', summary: 'Read an experiment', description: `${SPLIT} ${ACCESS}`, params: ExperimentParams, response: { 200: Experiment, ...ErrorResponses } },
  }, async (request) => readExperiment(db, request.principal, request.params.id, request.params.experiment_id));

  app.post('/:id/experiments/:experiment_id/start', {
    schema: {
      tags, operationId: 'start_experiment', summary: 'Start an experiment (owner only, audited)',
      description: `The draft starts: the control becomes the approved prompt_history entry in force now, kept for the whole experiment. 409 when it is not a draft or another experiment of the campaign runs. Audited (experiment.started). ${SPLIT} ${ACCESS}`,
      params: ExperimentParams, response: { 200: Experiment, ...ErrorResponses },
    },
  }, async (request) => startExperiment(db, request.principal, request.params.id, request.params.experiment_id, clock.now(), request));

  app.post('/:id/experiments/:experiment_id/stop', {
    schema: {
      tags, operationId: 'stop_experiment', summary: 'Stop an experiment (owner only, audited)',
      description: `Calls written from then on use the campaign's approved prompt and assistant; the results stay. 409 when it is not running. Audited (experiment.stopped). ${ACCESS}`,
      params: ExperimentParams, response: { 200: Experiment, ...ErrorResponses },
    },
  }, async (request) => stopExperiment(db, request.principal, request.params.id, request.params.experiment_id, clock.now(), request));

  app.get('/:id/experiments/:experiment_id/results', {
    schema: { tags, operationId: 'read_experiment_results', summary: 'Results of an experiment per variant, with confidence and the stopping rule', description: `${RESULTS_DOC} ${ACCESS}`, params: ExperimentParams, response: { 200: ExperimentResults, ...ErrorResponses } },
  }, async (request) => readExperimentResults(db, request.principal, request.params.id, request.params.experiment_id));

  app.post('/:id/experiments/:experiment_id/promote', {
    schema: { tags, operationId: 'promote_experiment_variant', summary: 'Make a variant live (owner only, audited)', description: `${PROMOTE_DOC} ${ACCESS}`, params: ExperimentParams, body: PromoteBody, response: { 200: Experiment, ...ErrorResponses } },
  }, async (request) => promoteVariant(db, request.principal, request.params.id, request.params.experiment_id, request.body, clock.now(), request));
}
