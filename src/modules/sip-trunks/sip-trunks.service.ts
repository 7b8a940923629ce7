import type { Config } from '../../config.ts';
import type { Db } from '../../db/connection.ts';
import { conflict, forbidden, HttpError, notFound, unprocessable } from '../../http/errors.ts';
import { requirePhone } from '../../shared/phone.ts';
import type { SecretBox } from '../../shared/secret-box.ts';
import { sipHostProblem } from '../../voice/sip-uri.ts';
import type { Principal } from '../auth/principal.ts';
import { recordAudit, type AuditRequest } from '../audit/audit.service.ts';
import { requireCampaign } from '../campaigns/campaign-access.ts';
import { maskSealed } from '../webhooks/sealed-credentials.ts';
import * as repo from './sip-trunks.repository.ts';
import type { CampaignSipTrunk, SipTrunk, SipTrunkCreate, SipTrunkUpdate } from './sip-trunks.schemas.ts';

/**
 * An account's SIP trunks: credentials, so the account owner's alone (a sub-user: 403), like
 * voice connections. Every change is audited (sip_trunk.changed) with the names of the fields
 * that changed, never the password.
 */
interface Deps {
  db: Db;
  secrets: SecretBox;
  config: Pick<Config, 'DEFAULT_COUNTRY'>;
}

/** Credentials are the account's bill, as voice connections are: a sub-user gets the plain 403. */
function ownerOnly(p: Principal): number {
  if (p.kind !== 'user') throw forbidden();
  return p.userId;
}

export async function requireSipTrunk(db: Db, principal: Principal, id: number) {
  ownerOnly(principal);
  const row = await repo.findSipTrunk(db, id);
  if (!row) throw notFound('SIP trunk');
  if (row.owner_id !== principal.ownerId) throw forbidden();
  return row;
}

function toResponse(row: repo.SipTrunkWithCampaigns, box: SecretBox): SipTrunk {
  return { ...row, password: maskSealed(box, row.password) };
}

/** host[:port] with a public host, as the trunk's gateways are written. */
function checkGateways(gateways: string[]) {
  gateways.forEach((g, i) => {
    const m = /^(\[[0-9a-fA-F:.]+\]|[^:[\]]+)(?::(\d{1,5}))?$/.exec(g.trim());
    const port = m?.[2] === undefined ? null : Number(m[2]);
    const problem = !m ? `"${g}" is not host[:port]` : port !== null && (port < 1 || port > 65535) ? `port ${port} is out of range (1-65535)` : sipHostProblem(m[1]!.toLowerCase());
    if (problem) throw unprocessable(['body', 'gateways', i], problem.replace('the trunk\'s host', 'a gateway'));
  });
  return gateways.map((g) => g.trim().toLowerCase());
}

function plainValues(config: Deps['config'], v: { name: string; username: string | null; password: string | null; gateways: string[]; caller_ids: string[] }) {
  if (v.username !== null && v.password === null) throw unprocessable(['body', 'password'], 'required with a username: the trunk authenticates calls with both');
  if (v.username === null && v.password !== null) throw unprocessable(['body', 'username'], 'required with a password');
  const callerIds = v.caller_ids.map((n, i) => requirePhone(n, config.DEFAULT_COUNTRY, ['body', 'caller_ids', i]).e164);
  return { ...v, gateways: checkGateways(v.gateways), caller_ids: [...new Set(callerIds)] };
}

const audit = (db: Db, principal: Principal, request: AuditRequest | undefined, id: number, change: string, changed: string[]) =>
  recordAudit(db, { principal, request, kind: 'sip_trunk.changed', subject: { type: 'sip_trunk', id }, details: { change, changed } });

export async function listSipTrunksPage(deps: Deps & { principal: Principal; skip: number; limit: number }) {
  const { rows, count } = await repo.listSipTrunks(deps.db, ownerOnly(deps.principal), deps.skip, deps.limit);
  return { data: rows.map((r) => toResponse(r, deps.secrets)), count };
}

export async function readSipTrunk(deps: Deps & { principal: Principal; id: number }) {
  return toResponse(await requireSipTrunk(deps.db, deps.principal, deps.id), deps.secrets);
}

export async function createSipTrunk(deps: Deps & { principal: Principal; body: SipTrunkCreate; request?: AuditRequest }) {
  const ownerId = ownerOnly(deps.principal);
  const b = deps.body;
  const plain = plainValues(deps.config, { name: b.name, username: b.username ?? null, password: b.password ?? null, gateways: b.gateways ?? [], caller_ids: b.caller_ids ?? [] });
  const id = await deps.db.transaction().execute(async (trx) => {
    const { id } = await repo.insertSipTrunk(trx, ownerId, { ...plain, password: deps.secrets.seal(plain.password) });
    await audit(trx, deps.principal, deps.request, id, 'created', Object.keys(b).sort());
    return id;
  });
  return readSipTrunk({ ...deps, id });
}

/** PUT changes only the fields it names; the password left out keeps its stored (sealed) value. */
export async function updateSipTrunk(deps: Deps & { principal: Principal; id: number; body: SipTrunkUpdate; request?: AuditRequest }) {
  const row = await requireSipTrunk(deps.db, deps.principal, deps.id);
  const b = deps.body;
  const stored = { name: row.name, username: row.username, gateways: row.gateways, caller_ids: row.caller_ids };
  const plain = plainValues(deps.config, {
    name: b.name ?? row.name,
    username: b.username === undefined ? row.username : b.username,
    // The stored password stands in for the checks; it is carried over sealed below.
    password: b.password === undefined ? row.password : b.password,
    gateways: b.gateways ?? row.gateways,
    caller_ids: b.caller_ids ?? row.caller_ids,
  });
  const changed: string[] = (Object.keys(stored) as (keyof typeof stored)[]).filter((k) => JSON.stringify(stored[k]) !== JSON.stringify(plain[k]));
  if (b.password !== undefined) changed.push('password');
  await deps.db.transaction().execute(async (trx) => {
    await repo.updateSipTrunk(trx, row.id, { ...plain, password: b.password === undefined ? row.password : deps.secrets.seal(b.password) });
    if (changed.length > 0) await audit(trx, deps.principal, deps.request, row.id, 'updated', changed.sort());
  });
  return readSipTrunk(deps);
}

/** 409 while a campaign sends its calls through it (the foreign key would refuse it anyway). */
export async function deleteSipTrunk(deps: { db: Db; principal: Principal; id: number; request?: AuditRequest }) {
  const row = await requireSipTrunk(deps.db, deps.principal, deps.id);
  const inUse = (ids: number[]) => conflict(`SIP trunk ${row.id} is used by campaign(s) ${ids.slice(0, 20).join(', ')}; set their SIP trunk to null first (PUT /api/v1/campaigns/{id}/sip-trunk)`);
  if (row.campaign_ids.length > 0) throw inUse(row.campaign_ids);
  try {
    await deps.db.transaction().execute(async (trx) => {
      await repo.deleteSipTrunk(trx, row.id);
      await audit(trx, deps.principal, deps.request, row.id, 'deleted', []);
    });
  } catch (error) {
    if ((error as { code?: string }).code === '23503') throw inUse([]); // a campaign named it meanwhile
    throw error;
  }
  return { message: 'SIP trunk deleted' };
}

export async function readCampaignSipTrunk(db: Db, principal: Principal, campaignId: number): Promise<CampaignSipTrunk & { campaign_id: number }> {
  const campaign = await requireCampaign(db, principal, campaignId);
  return { campaign_id: campaign.id, sip_trunk_id: campaign.sip_trunk_id === null ? null : Number(campaign.sip_trunk_id) };
}

/** The owner names the trunk a campaign's calls use (a sub-user: 403); another account's trunk is 422, as an assistant id is. */
export async function updateCampaignSipTrunk(db: Db, principal: Principal, campaignId: number, body: CampaignSipTrunk, request?: AuditRequest) {
  return db.transaction().execute(async (trx) => {
    const campaign = await requireCampaign(trx, principal, campaignId);
    if (principal.kind !== 'user') throw new HttpError(403, 'Only the account owner chooses the SIP trunk a campaign\'s calls use');
    if (body.sip_trunk_id !== null) {
      const trunk = await repo.findSipTrunk(trx, body.sip_trunk_id);
      if (!trunk || trunk.owner_id !== principal.ownerId) throw unprocessable(['body', 'sip_trunk_id'], `no SIP trunk ${body.sip_trunk_id} in this account (see /api/v1/sip-trunks)`);
    }
    const before = campaign.sip_trunk_id === null ? null : Number(campaign.sip_trunk_id);
    if (before !== body.sip_trunk_id) {
      await repo.setCampaignSipTrunk(trx, campaign.id, body.sip_trunk_id);
      await recordAudit(trx, { principal, request, kind: 'sip_trunk.changed', subject: { type: 'campaign', id: campaign.id }, details: { change: 'campaign_trunk', from: before, to: body.sip_trunk_id } });
    }
    return { campaign_id: campaign.id, sip_trunk_id: body.sip_trunk_id };
  });
}
