import type { Config } from '../../config.ts';
import type { Db } from '../../db/connection.ts';
import type { AssistantRow } from '../../db/tables/voice.ts';
import { conflict, forbidden, notFound, unprocessable } from '../../http/errors.ts';
import type { Principal } from '../auth/principal.ts';
import type { ActionStatusRule } from './action-status-rules.ts';
import { checkAssistant } from './assistant-rules.ts';
import * as repo from './assistants.repository.ts';
import type { Assistant, AssistantCreate, AssistantProvider, AssistantUpdate } from './assistants.schemas.ts';

/** Assistants belong to the account: its owner changes them; a sub-user reads those of its granted campaigns. */
function ownerOnly(p: Principal): number {
  if (p.kind !== 'user') throw forbidden();
  return p.userId;
}

/** 404 for an unknown id; 403 for another account's, or (a sub-user) one no granted campaign uses. */
export async function requireAssistant(db: Db, principal: Principal, id: number) {
  const row = await repo.findAssistant(db, id);
  if (!row) throw notFound('Assistant');
  if (row.owner_id !== principal.ownerId) throw forbidden();
  if (principal.kind === 'sub_user' && !(await repo.isVisibleToSubUser(db, id, principal.subUserId))) throw forbidden();
  return row;
}

export const toResponse = (row: AssistantRow): Assistant => ({
  ...row,
  provider: row.provider as AssistantProvider,
  voicemail_action: row.voicemail_action as Assistant['voicemail_action'],
  action_status_rules: (row.action_status_rules ?? []) as ActionStatusRule[],
});

interface Deps {
  db: Db;
  config: Config;
}

export async function listAssistantsPage(input: Deps & { principal: Principal; skip: number; limit: number }) {
  const p = input.principal;
  const { rows, count } = await repo.listAssistants(input.db, p.ownerId, input.skip, input.limit, p.kind === 'sub_user' ? p.subUserId : undefined);
  return { data: rows.map(toResponse), count };
}

export async function readAssistant(input: Deps & { principal: Principal; id: number }) {
  return toResponse(await requireAssistant(input.db, input.principal, input.id));
}

export async function createAssistant(input: Deps & { principal: Principal; body: AssistantCreate }) {
  const ownerId = ownerOnly(input.principal);
  const b = input.body;
  const values = await checkAssistant(input.db, input.config, ownerId, {
    name: b.name,
    provider: b.provider,
    provider_assistant_id: b.provider_assistant_id ?? null,
    voice_connection_id: b.voice_connection_id ?? null,
    first_message: b.first_message ?? null,
    system_prompt: b.system_prompt ?? null,
    voice: b.voice ?? null,
    language: b.language ?? null,
    model: b.model ?? null,
    voicemail_action: b.voicemail_action ?? 'hang_up',
    voicemail_message: b.voicemail_message ?? null,
    max_duration_seconds: b.max_duration_seconds ?? null,
    transfer_number: b.transfer_number ?? null,
    action_status_rules: b.action_status_rules ?? [],
  });
  return toResponse(await guardConnectionGone(() => repo.insertAssistant(input.db, ownerId, values)));
}

/** PUT changes only the fields it names; the merged result is checked as a whole. */
export async function updateAssistant(input: Deps & { principal: Principal; id: number; body: AssistantUpdate }) {
  const ownerId = ownerOnly(input.principal);
  const row = await requireAssistant(input.db, input.principal, input.id);
  const { id: _id, owner_id: _o, created_at: _c, updated_at: _u, ...current } = row;
  const merged = { ...current, action_status_rules: (row.action_status_rules ?? []) as unknown[] } as repo.AssistantValues;
  for (const [key, value] of Object.entries(input.body)) {
    if (value !== undefined && key in merged) (merged as Record<string, unknown>)[key] = value;
  }
  const values = await checkAssistant(input.db, input.config, ownerId, merged);
  return toResponse(await guardConnectionGone(() => repo.updateAssistant(input.db, row.id, values)));
}

/** The connection was deleted between the check and the write: the same 422 as a missing one. */
async function guardConnectionGone<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if ((error as { code?: string }).code === '23503') throw unprocessable(['body', 'voice_connection_id'], 'the voice connection was deleted meanwhile');
    throw error;
  }
}

/** 409 while a campaign uses the assistant, naming those campaigns. Owner only. */
export async function deleteAssistant(input: { db: Db; principal: Principal; id: number }) {
  ownerOnly(input.principal);
  const row = await requireAssistant(input.db, input.principal, input.id);
  const inUse = (ids: number[]) =>
    conflict(`Assistant ${row.id} is used by ${ids.length} campaign(s) (ids ${ids.slice(0, 20).join(', ')}${ids.length > 20 ? ', ...' : ''}); give them another assistant or none first`);
  const campaigns = await repo.campaignsUsing(input.db, row.id);
  if (campaigns.length > 0) throw inUse(campaigns);
  try {
    await repo.deleteAssistant(input.db, row.id);
  } catch (error) {
    if ((error as { code?: string }).code === '23503') throw inUse(await repo.campaignsUsing(input.db, row.id));
    throw error;
  }
  return { message: 'Assistant deleted' };
}
