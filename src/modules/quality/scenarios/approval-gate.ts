import type { Db } from '../../../db/connection.ts';
import { conflict, HttpError } from '../../../http/errors.ts';
import type { Principal } from '../../auth/principal.ts';
import { recordAudit, type AuditRequest } from '../../audit/audit.service.ts';
import { countScenarios, readGate, saveGate, scenariosNotPassed } from './scenarios.repository.ts';

/**
 * The account's gate on approving prompts (issue 28): with require_scenarios_before_approval on,
 * a pending prompt is approved only when every test scenario of its campaign has a passed run
 * against that very prompt_history entry (run after the scenario was last changed). Rejecting is
 * never blocked. Called by decidePrompt (campaigns/prompt-history.service.ts) before it approves.
 */
export async function assertScenariosPassed(db: Db, ownerId: number, campaignId: number, historyId: number): Promise<void> {
  if (!(await readGate(db, ownerId))?.require_scenarios_before_approval) return;
  if ((await countScenarios(db, campaignId)) === 0) {
    throw conflict('This account requires the campaign\'s test scenarios to pass before a prompt is approved, and the campaign has none: write a test scenario, run it against this prompt, then approve');
  }
  const missing = await scenariosNotPassed(db, campaignId, historyId);
  if (missing.length === 0) return;
  const names = missing.map((s) => `"${s.name}" (id ${s.id})`).join(', ');
  throw conflict(`This account requires the campaign's test scenarios to pass before a prompt is approved; without a passed run against prompt_history ${historyId}: ${names}. Run them against this prompt (POST .../test-scenarios/{id}/runs with prompt_history_id ${historyId}), then approve`);
}

export async function readGateSettings(db: Db, principal: Principal) {
  const row = await readGate(db, principal.ownerId);
  return { require_scenarios_before_approval: row?.require_scenarios_before_approval ?? false, updated_at: row?.updated_at ?? null };
}

/** The owner's choice (a sub-user: 403), audited quality.scenario_gate_changed when it changes. */
export async function updateGateSettings(db: Db, principal: Principal, required: boolean, request?: AuditRequest) {
  if (principal.kind !== 'user') throw new HttpError(403, 'Only the account owner may change whether prompts need passed test scenarios; a sub-user may read it (ask the owner)');
  return db.transaction().execute(async (trx) => {
    const before = await readGateSettings(trx, principal);
    await saveGate(trx, principal.ownerId, required);
    if (before.require_scenarios_before_approval !== required) {
      await recordAudit(trx, {
        principal, request, kind: 'quality.scenario_gate_changed', subject: { type: 'account', id: principal.ownerId },
        details: { from: before.require_scenarios_before_approval, to: required },
      });
    }
    return readGateSettings(trx, principal);
  });
}
