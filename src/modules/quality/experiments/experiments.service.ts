import type { Db } from '../../../db/connection.ts';
import { conflict, HttpError, notFound, type ValidationIssue } from '../../../http/errors.ts';
import type { Principal } from '../../auth/principal.ts';
import { recordAudit, type AuditRequest } from '../../audit/audit.service.ts';
import { requireCampaign } from '../../campaigns/campaign-access.ts';
import { promptVersionsFor } from '../../campaigns/campaign-prompts.ts';
import * as repo from './experiments.repository.ts';
import type { Experiment, ExperimentCreate } from './experiments.schemas.ts';
import { DEFAULT_MIN_CALLS } from './experiments.schemas.ts';

/**
 * Creating, starting and stopping a campaign's experiments. Reads follow the campaign
 * (requireCampaign: a granted sub-user reads); every change is the account owner's (a sub-user
 * 403), audited with subject the campaign and the experiment's id in the details.
 */

export const ownerOnly = (principal: Principal) => {
  if (principal.kind !== 'user') throw new HttpError(403, 'Only the account owner may change a campaign\'s experiments; a sub-user may read them');
  return principal;
};

export async function listExperiments(db: Db, principal: Principal, campaignId: number) {
  await requireCampaign(db, principal, campaignId);
  return { data: await repo.listExperiments(db, campaignId) };
}

export async function readExperiment(db: Db, principal: Principal, campaignId: number, experimentId: number): Promise<Experiment> {
  await requireCampaign(db, principal, campaignId);
  const experiment = await repo.findExperiment(db, campaignId, experimentId);
  if (!experiment) throw notFound('Experiment');
  return experiment;
}

interface CreateInput { db: Db; principal: Principal; campaignId: number; input: ExperimentCreate; defaultProvider: string; now: Date; request?: AuditRequest }

/**
 * A draft experiment. Every variant is checked before anything is written (422 naming the field):
 * exactly one of prompt_history_id, prompt, assistant_id; a version of this campaign not rejected;
 * an assistant of the account on the campaign's voice route (provider and connection), so the
 * dialer's pacing per route holds whichever variant a call gets. A new prompt text becomes a
 * pending prompt_history entry of the owner: it is not in force outside the experiment.
 */
export async function createExperiment({ db, principal, campaignId, input, defaultProvider, now, request }: CreateInput): Promise<Experiment> {
  const campaign = await requireCampaign(db, principal, campaignId);
  const owner = ownerOnly(principal);
  const issues: ValidationIssue[] = [];
  const versions = await repo.promptEntriesOf(db, campaign.id, input.variants.flatMap((v) => (v.prompt_history_id === undefined ? [] : [v.prompt_history_id])));
  const assistantIds = input.variants.flatMap((v) => (v.assistant_id === undefined ? [] : [v.assistant_id]));
  const routes = await repo.assistantRoutesOf(db, campaign.owner_id, [...assistantIds, ...(campaign.assistant_id === null ? [] : [Number(campaign.assistant_id)])]);
  const own = campaign.assistant_id === null ? undefined : routes.get(Number(campaign.assistant_id));
  const campaignRoute = own ?? { provider: defaultProvider, connectionId: null };
  input.variants.forEach((v, i) => {
    const loc = ['body', 'variants', i];
    const given = [v.prompt_history_id, v.prompt, v.assistant_id].filter((x) => x !== undefined).length;
    if (given !== 1) return issues.push({ loc, msg: 'give exactly one of prompt_history_id, prompt or assistant_id', type: 'value_error' });
    if (v.prompt_history_id !== undefined) {
      const status = versions.get(v.prompt_history_id);
      if (status === undefined) issues.push({ loc: [...loc, 'prompt_history_id'], msg: 'not an entry of this campaign\'s prompt history', type: 'value_error' });
      else if (status === 'rejected') issues.push({ loc: [...loc, 'prompt_history_id'], msg: 'a rejected prompt cannot be tested', type: 'value_error' });
    }
    if (v.prompt !== undefined && v.prompt.trim() === '') issues.push({ loc: [...loc, 'prompt'], msg: 'the prompt is empty', type: 'value_error' });
    if (v.assistant_id !== undefined) {
      const route = routes.get(v.assistant_id);
      if (!route) issues.push({ loc: [...loc, 'assistant_id'], msg: 'not an assistant of this account', type: 'value_error' });
      else if (route.provider !== campaignRoute.provider || route.connectionId !== campaignRoute.connectionId) {
        issues.push({ loc: [...loc, 'assistant_id'], msg: `the assistant must use the campaign's voice route (${campaignRoute.provider}${campaignRoute.connectionId === null ? '' : `, connection ${campaignRoute.connectionId}`}), so the dialer's pacing holds`, type: 'value_error' });
      }
    }
    return undefined;
  });
  if (issues.length > 0) throw new HttpError(422, issues);
  return db.transaction().execute(async (trx) => {
    const variants: repo.NewVariant[] = [{ position: 0, kind: 'control', label: 'Control', weight: input.control_weight, prompt_history_id: null, assistant_id: null }];
    for (const [i, v] of input.variants.entries()) {
      const prompt = v.prompt === undefined ? null : await repo.insertOwnerPrompt(trx, { campaignId: campaign.id, prompt: v.prompt, status: 'pending', userId: owner.userId, at: now, comment: null });
      variants.push({
        position: i + 1, kind: v.assistant_id === undefined ? 'prompt' : 'assistant', label: v.label?.trim() || `Variant ${String.fromCharCode(65 + i)}`, weight: v.weight,
        prompt_history_id: v.prompt_history_id ?? prompt, assistant_id: v.assistant_id ?? null,
      });
    }
    const id = await repo.insertExperiment(trx, {
      owner_id: campaign.owner_id, campaign_id: campaign.id, name: input.name.trim() || 'Experiment', min_calls_per_variant: input.min_calls_per_variant ?? DEFAULT_MIN_CALLS,
      created_by_user_id: owner.userId, created_at: now,
    }, variants);
    await recordAudit(trx, {
      principal, request, kind: 'experiment.created', subject: { type: 'campaign', id: campaign.id },
      details: { experiment_id: id, name: input.name, variants: variants.map(({ kind, label, weight, prompt_history_id, assistant_id }) => ({ kind, label, weight, prompt_history_id, assistant_id })) },
    });
    return (await repo.findExperiment(trx, campaign.id, id))!;
  });
}

/**
 * Starts a draft: the control becomes the approved prompt_history entry in force now (kept for the
 * whole experiment, so a prompt approved meanwhile does not change the control). 409 when the
 * experiment is not a draft or another experiment of the campaign runs (the partial unique index
 * decides between two starts at once).
 */
export async function startExperiment(db: Db, principal: Principal, campaignId: number, experimentId: number, now: Date, request?: AuditRequest) {
  await requireCampaign(db, principal, campaignId);
  ownerOnly(principal);
  try {
    return await db.transaction().execute(async (trx) => {
      const experiment = await repo.findExperiment(trx, campaignId, experimentId, true);
      if (!experiment) throw notFound('Experiment');
      if (experiment.status !== 'draft') throw conflict(`Only a draft experiment can start; this one is ${experiment.status}`);
      if (await repo.runningExperimentOf(trx, campaignId)) throw conflict('Another experiment of this campaign is running; stop it first');
      const control = (await promptVersionsFor(trx, [campaignId])).get(campaignId) ?? null;
      await repo.markStarted(trx, experimentId, control, now);
      await recordAudit(trx, { principal, request, kind: 'experiment.started', subject: { type: 'campaign', id: campaignId }, details: { experiment_id: experimentId, control_prompt_history_id: control } });
      return (await repo.findExperiment(trx, campaignId, experimentId))!;
    });
  } catch (error) {
    // Two starts at once: the loser meets the unique index on the running experiment.
    if (error instanceof HttpError) throw error;
    if (/experiments_one_running_idx|unique/i.test(String((error as Error).message))) throw conflict('Another experiment of this campaign is running; stop it first');
    throw error;
  }
}

/** Stops a running experiment: calls from then on use the campaign's approved prompt and assistant. 409 when it is not running. */
export async function stopExperiment(db: Db, principal: Principal, campaignId: number, experimentId: number, now: Date, request?: AuditRequest) {
  await requireCampaign(db, principal, campaignId);
  ownerOnly(principal);
  return db.transaction().execute(async (trx) => {
    const experiment = await repo.findExperiment(trx, campaignId, experimentId, true);
    if (!experiment) throw notFound('Experiment');
    if (experiment.status !== 'running') throw conflict(`Only a running experiment can stop; this one is ${experiment.status}`);
    await repo.markStopped(trx, experimentId, now);
    await recordAudit(trx, { principal, request, kind: 'experiment.stopped', subject: { type: 'campaign', id: campaignId }, details: { experiment_id: experimentId } });
    return (await repo.findExperiment(trx, campaignId, experimentId))!;
  });
}

