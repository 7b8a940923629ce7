import { sql } from 'kysely';
import type { Db } from '../../../db/connection.ts';
import type { Persona } from './scenario-templates.ts';

/** All SQL of test scenarios, their runs and the account's approval setting. */

export const SCENARIO_COLUMNS = ['id', 'campaign_id', 'name', 'template', 'persona', 'criteria', 'contact_data', 'max_turns', 'created_at', 'updated_at'] as const;
export const RUN_COLUMNS = [
  'id', 'campaign_id', 'scenario_id', 'prompt_history_id', 'status', 'judge', 'prompt_text', 'system_prompt_source', 'contact_data', 'transcript', 'verdicts',
  'ended_by', 'llm_requests', 'prompt_tokens', 'completion_tokens', 'duration_ms', 'error', 'created_by_user_id', 'created_by_sub_user_id', 'created_at', 'started_at', 'finished_at',
] as const;

export interface ScenarioValues {
  name: string;
  template: string | null;
  persona: Persona;
  criteria: string[];
  contact_data: Record<string, unknown> | null;
  max_turns: number;
}

const json = (v: unknown) => (v === null || v === undefined ? null : JSON.stringify(v));

export async function listScenarios(db: Db, campaignId: number) {
  return db.selectFrom('test_scenarios').select(SCENARIO_COLUMNS).where('campaign_id', '=', campaignId).orderBy('id').execute();
}

export async function findScenario(db: Db, campaignId: number, id: number) {
  return db.selectFrom('test_scenarios').select(SCENARIO_COLUMNS).where('campaign_id', '=', campaignId).where('id', '=', id).executeTakeFirst();
}

export async function insertScenario(db: Db, campaign: { id: number; owner_id: number }, v: ScenarioValues) {
  return db.insertInto('test_scenarios').values({
    owner_id: campaign.owner_id, campaign_id: campaign.id, name: v.name, template: v.template, persona: json(v.persona)!, criteria: json(v.criteria)!,
    contact_data: json(v.contact_data), max_turns: v.max_turns,
  }).returning(SCENARIO_COLUMNS).executeTakeFirstOrThrow();
}

export async function updateScenario(db: Db, campaignId: number, id: number, v: ScenarioValues) {
  return db.updateTable('test_scenarios').set({
    name: v.name, template: v.template, persona: json(v.persona)!, criteria: json(v.criteria)!, contact_data: json(v.contact_data), max_turns: v.max_turns, updated_at: sql<Date>`now()`,
  }).where('campaign_id', '=', campaignId).where('id', '=', id).returning(SCENARIO_COLUMNS).executeTakeFirst();
}

export async function deleteScenario(db: Db, campaignId: number, id: number) {
  const r = await db.deleteFrom('test_scenarios').where('campaign_id', '=', campaignId).where('id', '=', id).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

export async function openRunsOf(db: Db, ownerId: number): Promise<number> {
  const { n } = await db.selectFrom('test_scenario_runs').select((eb) => eb.fn.countAll<number>().as('n'))
    .where('owner_id', '=', ownerId).where('status', 'in', ['queued', 'running']).executeTakeFirstOrThrow();
  return Number(n);
}

export async function insertRun(db: Db, row: {
  owner_id: number; campaign_id: number; scenario_id: number; prompt_history_id: number | null; contact_data: Record<string, unknown> | null;
  created_by_user_id: number | null; created_by_sub_user_id: number | null;
}) {
  return db.insertInto('test_scenario_runs').values({ ...row, contact_data: json(row.contact_data) }).returning(RUN_COLUMNS).executeTakeFirstOrThrow();
}

export async function listRuns(db: Db, campaignId: number, filter: { scenarioId?: number; skip: number; limit: number }) {
  let q = db.selectFrom('test_scenario_runs').select(RUN_COLUMNS).where('campaign_id', '=', campaignId);
  if (filter.scenarioId !== undefined) q = q.where('scenario_id', '=', filter.scenarioId);
  return q.orderBy('id', 'desc').offset(filter.skip).limit(filter.limit).execute();
}

export async function findRun(db: Db, campaignId: number, id: number) {
  return db.selectFrom('test_scenario_runs').select(RUN_COLUMNS).where('campaign_id', '=', campaignId).where('id', '=', id).executeTakeFirst();
}

/** The prompt of one prompt_history entry of the campaign, as text (an object prompt as its JSON, as calls read it). */
export async function historyEntry(db: Db, campaignId: number, historyId: number) {
  const { rows } = await sql<{ id: number; status: string; prompt: string | null }>`
    SELECT id, status, CASE jsonb_typeof(prompt_data->'prompt') WHEN 'string' THEN prompt_data->>'prompt' WHEN 'object' THEN (prompt_data->'prompt')::text END AS prompt
    FROM prompt_history WHERE campaign_id = ${campaignId} AND id = ${historyId}`.execute(db);
  return rows[0];
}

/**
 * The campaign's scenarios without a passed run against this prompt_history entry, run after the
 * scenario was last changed (a run of an older wording proves nothing about the new one).
 */
export async function scenariosNotPassed(db: Db, campaignId: number, historyId: number) {
  return db.selectFrom('test_scenarios as s').select(['s.id', 's.name']).where('s.campaign_id', '=', campaignId)
    .where((eb) => eb.not(eb.exists(eb.selectFrom('test_scenario_runs as r').select(sql`1`.as('one'))
      .whereRef('r.scenario_id', '=', 's.id').where('r.prompt_history_id', '=', historyId).where('r.status', '=', 'passed')
      .whereRef('r.created_at', '>=', 's.updated_at'))))
    .orderBy('s.id').execute();
}

export async function countScenarios(db: Db, campaignId: number): Promise<number> {
  const { n } = await db.selectFrom('test_scenarios').select((eb) => eb.fn.countAll<number>().as('n')).where('campaign_id', '=', campaignId).executeTakeFirstOrThrow();
  return Number(n);
}

export async function readGate(db: Db, ownerId: number) {
  return db.selectFrom('test_scenario_settings').select(['require_scenarios_before_approval', 'updated_at']).where('owner_id', '=', ownerId).executeTakeFirst();
}

export async function saveGate(db: Db, ownerId: number, required: boolean) {
  await db.insertInto('test_scenario_settings').values({ owner_id: ownerId, require_scenarios_before_approval: required })
    .onConflict((oc) => oc.column('owner_id').doUpdateSet({ require_scenarios_before_approval: required, updated_at: sql<Date>`now()` })).execute();
}
