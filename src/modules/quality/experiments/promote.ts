import { sql } from 'kysely';
import type { Db } from '../../../db/connection.ts';
import { conflict, notFound, unprocessable } from '../../../http/errors.ts';
import type { Principal } from '../../auth/principal.ts';
import { recordAudit, type AuditRequest } from '../../audit/audit.service.ts';
import { requireCampaign } from '../../campaigns/campaign-access.ts';
import { promptsFor } from '../../campaigns/campaign-prompts.ts';
import { experimentResults } from './experiment-results.ts';
import * as repo from './experiments.repository.ts';
import { ownerOnly } from './experiments.service.ts';
import type { PromoteBody } from './experiments.schemas.ts';

export const PROMOTE_DOC =
  '"Make the winner live": a prompt variant (or the control) is written into the campaign\'s prompt history as a new entry approved by the owner (and into ' +
  'campaign_data.prompt), so every call from then on uses it; an assistant variant becomes the campaign\'s assistant (the prompt stays). The experiment stops. ' +
  'Refused (409) unless the stopping rule declared this variant the winner (every variant has its minimum calls and this one a probability to be best of at ' +
  'least 0.95); force: true promotes it anyway (the owner\'s judgement; audited with forced true). 409 for a draft experiment or one already promoted. Owner only; audited (experiment.promoted).';

export async function promoteVariant(db: Db, principal: Principal, campaignId: number, experimentId: number, body: PromoteBody, now: Date, request?: AuditRequest) {
  await requireCampaign(db, principal, campaignId);
  const owner = ownerOnly(principal);
  return db.transaction().execute(async (trx) => {
    const experiment = await repo.findExperiment(trx, campaignId, experimentId, true);
    if (!experiment) throw notFound('Experiment');
    const variant = experiment.variants.find((v) => v.id === body.variant_id);
    if (!variant) throw unprocessable(['body', 'variant_id'], 'not a variant of this experiment');
    if (experiment.status === 'draft') throw conflict('A draft experiment has no results to promote; start it first');
    if (experiment.promoted_variant_id !== null) throw conflict('This experiment already made a variant live');
    const results = await experimentResults(trx, experiment);
    const isWinner = results.stopping_rule.winner_variant_id === variant.id;
    if (!isWinner && !body.force) throw conflict(`${variant.label} is not the declared winner (${results.stopping_rule.explanation}); pass force: true to make it live anyway`);
    let historyId: number | null = null;
    if (variant.kind === 'assistant') {
      await trx.updateTable('campaigns').set({ assistant_id: variant.assistant_id }).where('id', '=', campaignId).execute();
    } else {
      const prompt = variant.prompt_history_id !== null
        ? await repo.promptValueOf(trx, variant.prompt_history_id)
        : (await promptsFor(trx, [campaignId])).get(campaignId) ?? null;
      historyId = await repo.insertOwnerPrompt(trx, {
        campaignId, prompt, status: 'approved', userId: owner.userId, at: now,
        comment: `Made live by experiment #${experiment.id} "${experiment.name}": ${variant.label}${isWinner ? ' (the winner)' : ' (forced)'}`,
      });
      await sql`UPDATE campaigns SET campaign_data = jsonb_set(coalesce(campaign_data, '{}'::jsonb), '{prompt}', ${JSON.stringify(prompt)}::jsonb) WHERE id = ${campaignId}`.execute(trx);
    }
    if (experiment.status === 'running') await repo.markStopped(trx, experiment.id, now);
    await repo.markPromoted(trx, experiment.id, variant.id, historyId, now);
    await recordAudit(trx, {
      principal, request, kind: 'experiment.promoted', subject: { type: 'campaign', id: campaignId },
      details: { experiment_id: experiment.id, variant_id: variant.id, label: variant.label, kind: variant.kind, prompt_history_id: historyId, assistant_id: variant.kind === 'assistant' ? variant.assistant_id : null, forced: !isWinner, state: results.stopping_rule.state },
    });
    return (await repo.findExperiment(trx, campaignId, experimentId))!;
  });
}
