import type { FastifyRequest } from 'fastify';
import type { App } from '../../../app.ts';
import { readGateSettings, updateGateSettings } from './approval-gate.ts';
import * as ops from './scenarios.operations.ts';
import { SCENARIO_TEMPLATES } from './scenario-templates.ts';
import { offlineVerdict } from './offline-checks.ts';
import { createScenario, deleteScenario, getRun, getScenario, listRuns, listScenarios, queueRun, updateScenario } from './scenarios.service.ts';

// The run's body is optional: no body tests the current prompt.
const bodyOptional = async (request: FastifyRequest) => {
  request.body ??= {};
};

/** Under /api/v1/campaigns: a campaign's test scenarios and their runs. */
export async function campaignTestScenarioRoutes(app: App) {
  const { db } = app.deps;
  app.get('/:id/test-scenarios', { schema: ops.ListScenarios }, async (request) => listScenarios(db, request.principal, request.params.id));
  app.post('/:id/test-scenarios', { schema: ops.CreateScenario }, async (request) => createScenario(db, request.principal, request.params.id, request.body));
  app.get('/:id/test-scenarios/:scenario_id', { schema: ops.GetScenario }, async (request) =>
    getScenario(db, request.principal, request.params.id, request.params.scenario_id));
  app.put('/:id/test-scenarios/:scenario_id', { schema: ops.UpdateScenario }, async (request) =>
    updateScenario(db, request.principal, request.params.id, request.params.scenario_id, request.body));
  app.delete('/:id/test-scenarios/:scenario_id', { schema: ops.DeleteScenario }, async (request) => {
    await deleteScenario(db, request.principal, request.params.id, request.params.scenario_id);
    return { message: 'Test scenario deleted' };
  });
  app.post('/:id/test-scenarios/:scenario_id/runs', { schema: ops.CreateRun, preValidation: bodyOptional }, async (request, reply) =>
    reply.code(202).send(await queueRun(app.deps, request.principal, request.params.id, request.params.scenario_id, request.body)));
  app.get('/:id/test-scenarios/:scenario_id/runs', { schema: ops.ListScenarioRuns }, async (request) =>
    listRuns(db, request.principal, request.params.id, { scenarioId: request.params.scenario_id, skip: request.query.skip, limit: request.query.limit }));
  app.get('/:id/test-runs', { schema: ops.ListCampaignRuns }, async (request) =>
    listRuns(db, request.principal, request.params.id, { skip: request.query.skip, limit: request.query.limit }));
  app.get('/:id/test-runs/:run_id', { schema: ops.GetRun }, async (request) => getRun(db, request.principal, request.params.id, request.params.run_id));
}

/** Under /api/v1: the ready-made scenarios and the account's approval gate. */
export async function testScenarioRoutes(app: App) {
  const { db, config } = app.deps;
  const templates = SCENARIO_TEMPLATES.map((t) => ({
    key: t.key, name: t.name, persona: t.persona, criteria: t.criteria,
    // Checkable offline: the rule for the criterion gives a verdict on an empty conversation.
    offline_checkable: t.criteria.map((c) => offlineVerdict(c, []).passed !== null),
  }));
  app.get('/test-scenario-templates', { schema: ops.ListTemplates }, async () => ({ items: templates, model_configured: Boolean(config.LLM_BASE_URL) }));
  app.get('/quality/scenario-settings', { schema: ops.ReadGate }, async (request) => readGateSettings(db, request.principal));
  app.put('/quality/scenario-settings', { schema: ops.UpdateGate }, async (request) =>
    updateGateSettings(db, request.principal, request.body.require_scenarios_before_approval, request));
}
