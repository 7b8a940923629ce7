import { announceJobs } from '../../../claim-worker.ts';
import type { Db } from '../../../db/connection.ts';
import type { Deps } from '../../../deps.ts';
import { HttpError, notFound, unprocessable } from '../../../http/errors.ts';
import type { Principal } from '../../auth/principal.ts';
import { requireCampaign } from '../../campaigns/campaign-access.ts';
import { latestApprovedPrompt } from '../../campaigns/prompt-history.service.ts';
import { SCENARIO_RUNS_CHANNEL } from './run-claims.ts';
import { templateOf } from './scenario-templates.ts';
import * as repo from './scenarios.repository.ts';
import type { Run, RunCreate, Scenario, ScenarioCreate, ScenarioUpdate } from './scenarios.schemas.ts';

/**
 * Test scenarios follow their campaign: whoever may see the campaign (its owner, a sub-user it is
 * granted to) may write and run its scenarios; another account's campaign is 403 (requireCampaign).
 */
const DEFAULT_MAX_TURNS = 12;

export async function listScenarios(db: Db, principal: Principal, campaignId: number) {
  const campaign = await requireCampaign(db, principal, campaignId);
  return { items: (await repo.listScenarios(db, campaign.id)) as Scenario[] };
}

export async function getScenario(db: Db, principal: Principal, campaignId: number, id: number) {
  const campaign = await requireCampaign(db, principal, campaignId);
  const row = await repo.findScenario(db, campaign.id, id);
  if (!row) throw notFound('Test scenario');
  return row as Scenario;
}

/** A ready-made scenario fills what the body leaves out; without one, persona and criteria are required (422). */
export async function createScenario(db: Db, principal: Principal, campaignId: number, input: ScenarioCreate) {
  const campaign = await requireCampaign(db, principal, campaignId);
  const template = templateOf(input.template);
  const persona = input.persona ?? template?.persona;
  const criteria = input.criteria ?? template?.criteria;
  if (!persona) throw unprocessable(['body', 'persona'], 'persona is required unless a template is given');
  if (!criteria) throw unprocessable(['body', 'criteria'], 'criteria are required unless a template is given');
  const name = input.name ?? template?.name;
  if (!name) throw unprocessable(['body', 'name'], 'name is required unless a template is given');
  return (await repo.insertScenario(db, campaign, {
    name: name.trim() || name, template: template?.key ?? null, persona: { ...persona }, criteria: [...criteria],
    contact_data: input.contact_data ?? null, max_turns: input.max_turns ?? DEFAULT_MAX_TURNS,
  })) as Scenario;
}

/** Fields left out keep their value. */
export async function updateScenario(db: Db, principal: Principal, campaignId: number, id: number, input: ScenarioUpdate) {
  const current = await getScenario(db, principal, campaignId, id);
  const updated = await repo.updateScenario(db, current.campaign_id, id, {
    name: input.name ?? current.name, template: current.template, persona: input.persona ?? current.persona,
    criteria: input.criteria ?? current.criteria,
    contact_data: input.contact_data === undefined ? (current.contact_data as Record<string, unknown> | null) : input.contact_data,
    max_turns: input.max_turns ?? current.max_turns,
  });
  if (!updated) throw notFound('Test scenario');
  return updated as Scenario;
}

export async function deleteScenario(db: Db, principal: Principal, campaignId: number, id: number) {
  const campaign = await requireCampaign(db, principal, campaignId);
  if (!(await repo.deleteScenario(db, campaign.id, id))) throw notFound('Test scenario');
}

/**
 * Queues a run (the worker plays it). The prompt tested: the given prompt_history entry of this
 * campaign (404 for another campaign's), else the one calls use now (the newest approved). An
 * account with SCENARIO_RUNS_QUEUED_MAX runs queued or running gets 429.
 */
export async function queueRun(deps: Pick<Deps, 'db' | 'config' | 'jobWakes'>, principal: Principal, campaignId: number, scenarioId: number, input: RunCreate) {
  const { db } = deps;
  const scenario = await getScenario(db, principal, campaignId, scenarioId);
  let historyId: number | null;
  if (input.prompt_history_id != null) {
    if (!(await repo.historyEntry(db, scenario.campaign_id, input.prompt_history_id))) throw notFound('Prompt history entry');
    historyId = input.prompt_history_id;
  } else {
    historyId = (await latestApprovedPrompt(db, scenario.campaign_id))?.historyId ?? null;
  }
  const limit = deps.config.SCENARIO_RUNS_QUEUED_MAX;
  if ((await repo.openRunsOf(db, principal.ownerId)) >= limit) {
    throw new HttpError(429, `Too many test runs waiting: the account has ${limit} queued or running (SCENARIO_RUNS_QUEUED_MAX); wait for them to finish, then run again`);
  }
  const run = await repo.insertRun(db, {
    owner_id: principal.ownerId, campaign_id: scenario.campaign_id, scenario_id: scenario.id, prompt_history_id: historyId,
    contact_data: input.contact_data ?? (scenario.contact_data as Record<string, unknown> | null),
    created_by_user_id: principal.kind === 'user' ? principal.userId : null,
    created_by_sub_user_id: principal.kind === 'sub_user' ? principal.subUserId : null,
  });
  await announceJobs(db, deps.jobWakes, SCENARIO_RUNS_CHANNEL);
  return runView(run);
}

export async function listRuns(db: Db, principal: Principal, campaignId: number, query: { scenarioId?: number; skip: number; limit: number }) {
  const campaign = await requireCampaign(db, principal, campaignId);
  if (query.scenarioId !== undefined && !(await repo.findScenario(db, campaign.id, query.scenarioId))) throw notFound('Test scenario');
  return { items: (await repo.listRuns(db, campaign.id, query)).map(runView) };
}

export async function getRun(db: Db, principal: Principal, campaignId: number, runId: number) {
  const campaign = await requireCampaign(db, principal, campaignId);
  const run = await repo.findRun(db, campaign.id, runId);
  if (!run) throw notFound('Test run');
  return runView(run);
}

type RunRow = Awaited<ReturnType<typeof repo.findRun>> & object;

function runView(row: RunRow): Run {
  const { llm_requests, prompt_tokens, completion_tokens, duration_ms, ...rest } = row;
  return { ...rest, cost: { llm_requests, prompt_tokens, completion_tokens, duration_ms } } as Run;
}
