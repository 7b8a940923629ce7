import type { Db } from '../../db/connection.ts';
import type { CampaignRow, CampaignUpdate as CampaignPatch } from '../../db/schema.ts';
import { forbidden, notFound, unprocessable } from '../../http/errors.ts';
import { assistantInAccount } from '../assistants/assistants.repository.ts';
import type { Principal } from '../auth/principal.ts';
import { recordAudit, type AuditRequest } from '../audit/audit.service.ts';
import { refreshUsage } from '../contact-lifecycle/usage-limit.ts';
import { requireCampaign } from './campaign-access.ts';
import { checkCampaignRules, promptOf, sameJson } from './campaign-rules.ts';
import * as repo from './campaigns.repository.ts';
import type { CampaignCreate, CampaignListQuery, CampaignUpdate } from './campaigns.schemas.ts';
import { refuseOwnerOnlyChanges } from './owner-only-fields.ts';
import { recordPromptChange } from './prompt-history.service.ts';
import type { WorkSchedule } from '../contact-lifecycle/work-schedule.ts';
import { insertCampaignEvents } from '../live/live-events.repository.ts';
import { breakerResumed, pausedByPerson } from '../breaker/breaker.repository.ts';

const json = (value: unknown) => (value === null || value === undefined ? null : JSON.stringify(value));

// The dialer keeps limit_usage current; a new limit is judged against the usage so far.
const limitReached = (limitValue: number | null, usage: number | null) => limitValue !== null && (usage ?? 0) >= limitValue;

export async function listCampaigns({ db, principal, query }: { db: Db; principal: Principal; query: CampaignListQuery }) {
  return repo.listCampaigns(db, principal, {
    skip: query.skip,
    limit: query.limit,
    title: query.title,
    ids: query.id,
    subUserIds: query.sub_user_id,
    includeArchived: query.include_archived ?? false,
  });
}

export async function getCampaign({ db, principal, id }: { db: Db; principal: Principal; id: number }) {
  await requireCampaign(db, principal, id);
  return loadOrNotFound(db, id);
}

async function loadOrNotFound(db: Db, id: number) {
  const campaign = await repo.loadCampaignResponse(db, id);
  if (!campaign) throw notFound('Campaign');
  return campaign;
}

/**
 * A campaign's assistant must be one of the account's own: any other id, another account's
 * included, is a 422 that reveals nothing about it. Checked inside the write's transaction,
 * which then holds the assistant against deletion.
 */
async function checkAssistantId(trx: Db, ownerId: number, assistantId: number | null | undefined) {
  if (assistantId === null || assistantId === undefined) return;
  if (!(await assistantInAccount(trx, ownerId, assistantId))) {
    throw unprocessable(['body', 'assistant_id'], `no assistant ${assistantId} in this account (see /api/v1/assistants)`);
  }
}

/** Sub-users work inside campaigns granted to them; creating one is the account owner's (403). */
export async function createCampaign({ db, principal, input, now = new Date() }: { db: Db; principal: Principal; input: CampaignCreate; now?: Date }) {
  if (principal.kind !== 'user') throw forbidden();
  checkCampaignRules(input);
  const limitValue = input.limit_value ?? null;
  const id = await db.transaction().execute(async (trx) => {
    await checkAssistantId(trx, principal.ownerId, input.assistant_id);
    const campaignId = await repo.insertCampaign(trx, principal.ownerId, {
      title: input.title,
      description: input.description ?? null,
      campaign_type: input.campaign_type,
      campaign_data: json(input.campaign_data),
      campaign_phone: input.campaign_phone ?? null,
      campaign_sip: input.campaign_sip ?? null,
      assistant_id: input.assistant_id ?? null,
      max_call_attempts: input.max_call_attempts ?? null,
      concurrent_call_limit: input.concurrent_call_limit === undefined ? 0 : input.concurrent_call_limit,
      call_interval: input.call_interval ?? null,
      call_allowed_from_time: input.call_allowed_from_time ?? null,
      call_allowed_to_time: input.call_allowed_to_time ?? null,
      work_schedule: json(input.work_schedule),
      auto_calls: input.auto_calls ?? false,
      is_auto_ai_message: input.is_auto_ai_message ?? false,
      is_archive: input.is_archive ?? false,
      is_paused: input.is_paused ?? false,
      limit_start: input.limit_start ?? null,
      limit_end: input.limit_end ?? null,
      limit_value: limitValue,
      limit_unit: input.limit_unit ?? null,
      limit_usage: 0,
      limit_reached: limitReached(limitValue, 0),
      created_at: now,
      updated_at: now,
    });
    const prompt = promptOf(input.campaign_data);
    if (prompt !== undefined) await recordPromptChange({ trx, principal, campaignId, prompt, now });
    return campaignId;
  });
  return loadOrNotFound(db, id);
}

// Non-nullable columns whose null in an update body means "leave unchanged".
const NULL_KEEPS = new Set(['title', 'campaign_type', 'is_archive', 'is_paused']);
const JSON_COLUMNS = new Set(['campaign_data', 'work_schedule']);
const LIMIT_FIELDS = ['limit_value', 'limit_unit', 'limit_start', 'limit_end'] as const;
const toDate = (v: Date | string | null) => (v === null ? null : v instanceof Date ? v : new Date(v));

function patchFrom(input: CampaignUpdate): CampaignPatch {
  const patch: Record<string, unknown> = {};
  for (const key of repo.CAMPAIGN_SETTINGS) {
    const value = input[key];
    if (value === undefined || (value === null && NULL_KEEPS.has(key))) continue;
    patch[key] = JSON_COLUMNS.has(key) ? json(value) : value;
  }
  return patch as CampaignPatch;
}

const currentRules = (row: CampaignRow) => ({
  call_allowed_from_time: row.call_allowed_from_time,
  call_allowed_to_time: row.call_allowed_to_time,
  limit_start: row.limit_start,
  limit_end: row.limit_end,
  work_schedule: row.work_schedule as WorkSchedule | null,
});

/** The audited state changes an update makes: pausing, resuming, archiving, unarchiving (null keeps the value). */
function stateChanges(row: CampaignRow, input: CampaignUpdate) {
  const kinds: ('campaign.paused' | 'campaign.resumed' | 'campaign.archived' | 'campaign.unarchived')[] = [];
  if (typeof input.is_paused === 'boolean' && input.is_paused !== row.is_paused) kinds.push(input.is_paused ? 'campaign.paused' : 'campaign.resumed');
  if (typeof input.is_archive === 'boolean' && input.is_archive !== row.is_archive) kinds.push(input.is_archive ? 'campaign.archived' : 'campaign.unarchived');
  return kinds;
}

/**
 * Changes the fields present in the body. A sub-user may update a campaign granted to
 * it; its change of the prompt is recorded as pending, its change of an owner-only field
 * (owner-only-fields.ts) is refused with 403 and changes nothing.
 */
export async function updateCampaign({ db, principal, id, input, request, now = new Date() }: { db: Db; principal: Principal; id: number; input: CampaignUpdate; request?: AuditRequest; now?: Date }) {
  await requireCampaign(db, principal, id);
  await db.transaction().execute(async (trx) => {
    const row = await repo.lockCampaign(trx, id);
    refuseOwnerOnlyChanges(principal, row, input);
    checkCampaignRules(input, currentRules(row));
    await checkAssistantId(trx, principal.ownerId, input.assistant_id);
    const patch = patchFrom(input);
    const limitChanged = LIMIT_FIELDS.some((f) => input[f] !== undefined);
    if (limitChanged) patch.limit_reached = false; // recounted below, in the new unit and period
    patch.updated_at = now;
    await repo.updateCampaign(trx, id, patch);
    if (limitChanged) {
      // limit_usage was counted in the old unit and period (or not at all without a limit):
      // compared with a new value it showed a reached limit as 0/false for good.
      const merged = <K extends (typeof LIMIT_FIELDS)[number]>(k: K) => (input[k] !== undefined ? input[k] : row[k]) ?? null;
      await refreshUsage(trx, {
        id,
        limit_value: merged('limit_value'),
        limit_unit: merged('limit_unit'),
        limit_start: toDate(merged('limit_start')),
        limit_end: toDate(merged('limit_end')),
      }, now);
    }
    if (input.campaign_data !== undefined) {
      const before = promptOf(row.campaign_data);
      const after = promptOf(input.campaign_data);
      if (!sameJson(before ?? null, after ?? null)) await recordPromptChange({ trx, principal, campaignId: id, prompt: after, now });
    }
    const changes = stateChanges(row, input);
    for (const kind of changes) await recordAudit(trx, { principal, request, kind, subject: { type: 'campaign', id } });
    await insertCampaignEvents(trx, changes.flatMap((kind) => (kind === 'campaign.paused' || kind === 'campaign.resumed' ? [{ campaignId: id, type: kind, data: { reason: 'operator' } }] : [])));
    if (changes.includes('campaign.resumed')) await breakerResumed(trx, row, now);
    if (changes.includes('campaign.paused')) await pausedByPerson(trx, id, now);
  });
  return loadOrNotFound(db, id);
}
