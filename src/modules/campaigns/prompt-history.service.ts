import type { Db } from '../../db/connection.ts';
import { conflict, forbidden, notFound } from '../../http/errors.ts';
import type { Principal } from '../auth/principal.ts';
import { recordAudit, type AuditRequest } from '../audit/audit.service.ts';
import { requireCampaign } from './campaign-access.ts';
import * as repo from './prompt-history.repository.ts';
import { assertScenariosPassed } from '../quality/scenarios/approval-gate.ts';

/**
 * Records a change of campaign_data.prompt. The owner's change is in force at once
 * (auto_approved); a sub-user's waits for the owner (pending). `prompt` undefined
 * means the prompt was removed and is stored as null.
 */
export async function recordPromptChange({ trx, principal, campaignId, prompt, now }: { trx: Db; principal: Principal; campaignId: number; prompt: unknown; now: Date }) {
  const byOwner = principal.kind === 'user';
  return repo.insertPromptHistory(trx, {
    campaign_id: campaignId,
    prompt: prompt ?? null,
    status: byOwner ? 'auto_approved' : 'pending',
    created_at: now,
    created_by_user_id: byOwner ? principal.userId : null,
    created_by_sub_user_id: byOwner ? null : principal.subUserId,
    approved_by_user_id: byOwner ? principal.userId : null,
    approved_at: byOwner ? now : null,
  });
}

/**
 * Approves or rejects a pending entry. Only the account owner decides (a sub-user gets
 * 403, even on a campaign granted to it); a decided entry cannot be decided again (409).
 */
export async function decidePrompt({
  db,
  principal,
  campaignId,
  historyId,
  decision,
  comment,
  now,
  request,
}: {
  db: Db;
  principal: Principal;
  campaignId: number;
  historyId: number;
  decision: 'approved' | 'rejected';
  comment: string | null;
  now: Date;
  request?: AuditRequest;
}) {
  await requireCampaign(db, principal, campaignId);
  if (principal.kind !== 'user') throw forbidden();
  const entry = await repo.findPromptHistory(db, campaignId, historyId);
  if (!entry) throw notFound('Prompt history entry');
  // The account may require the campaign's test scenarios to pass first (409 naming those that did not); a rejection never waits.
  if (decision === 'approved' && entry.status === 'pending') await assertScenariosPassed(db, principal.ownerId, campaignId, historyId);
  // The decision and its audit event commit together.
  const decided = entry.status === 'pending' && (await db.transaction().execute(async (trx) => {
    if (!(await repo.decidePromptHistory(trx, { id: historyId, status: decision, userId: principal.userId, at: now, comment }))) return false;
    const kind = decision === 'approved' ? 'prompt.approved' : 'prompt.rejected';
    await recordAudit(trx, { principal, request, kind, subject: { type: 'prompt_history', id: historyId }, details: { campaign_id: campaignId, comment } });
    return true;
  }));
  if (!decided) throw conflict('Only a pending prompt change can be approved or rejected; this one is already decided');
  return (await repo.findPromptHistory(db, campaignId, historyId))!;
}

export type PromptValue = string | Record<string, unknown> | null;

/**
 * The prompt calls of this campaign use: the newest (by creation) approved or
 * auto_approved entry. Approving an old proposal after a newer prompt was approved
 * therefore does not replace the newer one. undefined when the campaign has never had an approved prompt;
 * prompt null when the approved change removed it.
 */
export async function latestApprovedPrompt(db: Db, campaignId: number): Promise<{ historyId: number; prompt: PromptValue } | undefined> {
  const row = await repo.findLatestApproved(db, campaignId);
  if (!row) return undefined;
  return { historyId: row.id, prompt: ((row.prompt_data as { prompt?: PromptValue } | null)?.prompt ?? null) };
}
