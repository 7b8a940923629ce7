import type { Db } from '../../../db/connection.ts';
import { HttpError, unprocessable } from '../../../http/errors.ts';
import type { Principal } from '../../auth/principal.ts';
import { recordAudit, type AuditRequest } from '../../audit/audit.service.ts';
import { requireCampaign } from '../../campaigns/campaign-access.ts';
import { requireCall } from '../../calls/calls.service.ts';
import { readScorecard, saveScorecard } from './scorecard.repository.ts';
import type { Answer, Criterion, Scorecard } from './scorecard-rules.ts';
import type { CallScoreView, ScorecardUpdate, ScorecardView } from './scorecards.schemas.ts';

export async function readCampaignScorecard(db: Db, principal: Principal, campaignId: number): Promise<ScorecardView> {
  const campaign = await requireCampaign(db, principal, campaignId);
  return { campaign_id: campaign.id, ...(await readScorecard(db, campaign.id)) };
}

/** What the schema cannot say: unique keys and labels, reserved prefixes, options exactly for category. 422 names the field. */
export function checkCriteria(criteria: Criterion[]): Criterion[] {
  const keys = new Set<string>();
  return criteria.map((c, i) => {
    const loc = ['body', 'criteria', i];
    if (c.key.startsWith('reason_') || c.key.startsWith('tag_')) throw unprocessable([...loc, 'key'], 'a key may not start with reason_ or tag_ (the judge\'s own fields)');
    if (keys.has(c.key)) throw unprocessable([...loc, 'key'], `the key ${c.key} is used twice`);
    keys.add(c.key);
    if (c.type !== 'category') {
      if (c.options !== undefined) throw unprocessable([...loc, 'options'], 'options are for a category criterion only');
      return { key: c.key, question: c.question.trim(), type: c.type, weight: c.weight };
    }
    if (!c.options) throw unprocessable([...loc, 'options'], 'a category criterion needs 2 to 10 options');
    const labels = new Set<string>();
    const options = c.options.map((o, j) => {
      const label = o.label.trim();
      if (labels.has(label)) throw unprocessable([...loc, 'options', j, 'label'], `the option ${label} is listed twice`);
      labels.add(label);
      return { label, value: o.value };
    });
    return { key: c.key, question: c.question.trim(), type: c.type, weight: c.weight, options };
  });
}

/** The owner's change (a sub-user: 403), audited campaign.scorecard_changed when something changed. */
export async function updateCampaignScorecard(db: Db, principal: Principal, campaignId: number, input: ScorecardUpdate, request?: AuditRequest): Promise<ScorecardView> {
  return db.transaction().execute(async (trx) => {
    const campaign = await requireCampaign(trx, principal, campaignId);
    if (principal.kind !== 'user') throw new HttpError(403, 'Only the account owner may change a campaign\'s scorecard; a sub-user may read it (ask the owner)');
    const before = await readScorecard(trx, campaign.id);
    const card: Scorecard = {
      enabled: input.enabled,
      criteria: input.criteria ? checkCriteria(input.criteria as Criterion[]) : before.criteria,
      tags: input.tags ?? before.tags,
    };
    await saveScorecard(trx, campaign, card);
    const shape = (c: Scorecard) => ({ enabled: c.enabled, criteria: c.criteria, tags: c.tags });
    if (before.is_default || JSON.stringify(shape(before)) !== JSON.stringify(shape(card))) {
      await recordAudit(trx, {
        principal, request, kind: 'campaign.scorecard_changed', subject: { type: 'campaign', id: campaign.id },
        details: { from: before.is_default ? null : { enabled: before.enabled, criteria: before.criteria.map((c) => c.key), tags: before.tags }, to: { enabled: card.enabled, criteria: card.criteria.map((c) => c.key), tags: card.tags } },
      });
    }
    return { campaign_id: campaign.id, ...(await readScorecard(trx, campaign.id)) };
  });
}

/** The call's score as its page shows it; a call never queued for scoring is not_scored (no 404: the call exists). */
export async function readCallScore(db: Db, principal: Principal, callId: number): Promise<CallScoreView> {
  const call = await requireCall(db, principal, callId);
  const row = await db.selectFrom('call_scores').selectAll().where('call_id', '=', call.id).executeTakeFirst();
  if (!row) {
    return { call_id: call.id, campaign_id: call.campaign_id, prompt_history_id: null, status: 'not_scored', score: null, answers: [], tags: [], method: null, error: null, attempts: 0, scored_at: null };
  }
  const card = (row.card ?? { criteria: [] }) as { criteria: Criterion[] };
  const stored = (row.answers ?? {}) as Record<string, Answer>;
  return {
    call_id: call.id, campaign_id: Number(row.campaign_id), prompt_history_id: row.prompt_history_id === null ? null : Number(row.prompt_history_id),
    status: row.status as CallScoreView['status'], score: row.score, tags: row.tags, method: row.method, error: row.error, attempts: row.attempts, scored_at: row.scored_at,
    answers: card.criteria.filter((c) => stored[c.key]).map((c) => ({
      key: c.key, question: c.question, type: c.type, weight: c.weight, answer: stored[c.key]!.answer, value: stored[c.key]!.value, reason: stored[c.key]!.reason,
    })),
  };
}

