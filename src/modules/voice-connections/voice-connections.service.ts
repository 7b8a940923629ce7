import type { Config } from '../../config.ts';
import type { Db } from '../../db/connection.ts';
import type { VoiceConnectionRow } from '../../db/tables/voice.ts';
import { conflict, forbidden, notFound, unprocessable } from '../../http/errors.ts';
import { requirePhone } from '../../shared/phone.ts';
import type { SecretBox } from '../../shared/secret-box.ts';
import { routeEventsUrl } from '../../voice/registry.ts';
import { CONNECTION_FIELDS } from '../../voice/vendor-definition.ts';
import { isVendorName, vendor } from '../../voice/vendors.ts';
import type { Principal } from '../auth/principal.ts';
import { maskSealed } from '../webhooks/sealed-credentials.ts';
import * as repo from './voice-connections.repository.ts';
import type { VoiceConnection, VoiceConnectionCreate, VoiceConnectionUpdate, VoiceVendor } from './voice-connections.schemas.ts';

/** Vendor credentials are the account's bill: only the account owner sees or changes them (a sub-user: 403). */
function ownerOnly(p: Principal): number {
  if (p.kind !== 'user') throw forbidden();
  return p.userId;
}

/** 404 for an unknown id, 403 for another account's connection (docs/api-conventions.md, Tenancy). */
export async function requireVoiceConnection(db: Db, principal: Principal, id: number) {
  ownerOnly(principal);
  const row = await repo.findVoiceConnection(db, id);
  if (!row) throw notFound('Voice connection');
  if (row.owner_id !== principal.ownerId) throw forbidden();
  return row;
}

/** Where the vendor must post this connection's events; null until PUBLIC_BASE_URL is set. */
export const eventsUrl = (config: Pick<Config, 'PUBLIC_BASE_URL'>, provider: string, id: number) => {
  const route = { provider, connectionId: id };
  // A vendor may be reached elsewhere (Twilio: its numbers' Voice URL); else the events route.
  const own = isVendorName(provider) ? vendor(provider).connectionEventsUrl : undefined;
  if (own) return config.PUBLIC_BASE_URL ? own(config.PUBLIC_BASE_URL, route) : null;
  return routeEventsUrl(config.PUBLIC_BASE_URL, route);
};

export function toResponse(row: VoiceConnectionRow, deps: { config: Config; secrets: SecretBox }): VoiceConnection {
  return {
    ...row,
    provider: row.provider as VoiceVendor,
    api_key: maskSealed(deps.secrets, row.api_key) ?? '****',
    webhook_secret: maskSealed(deps.secrets, row.webhook_secret),
    events_url: eventsUrl(deps.config, row.provider, row.id),
  };
}

const bad = (field: string, msg: string) => unprocessable(['body', field], msg);

/** Settings in the clear (create, or a stored row merged with an update) checked against the vendor. */
type Plain = Omit<repo.VoiceConnectionValues, 'provider'> & { provider: VoiceVendor };

/** The fields the vendor's definition asks for (voice/vendors.ts): none of another vendor's, all it requires. */
function checkVendorFields(v: Plain) {
  const { accepts, required } = vendor(v.provider).connection;
  // A field of another vendor would be silently unused: say so instead.
  for (const field of CONNECTION_FIELDS) {
    if (!accepts.includes(field) && v[field] !== null) throw bad(field, `not a ${v.provider} setting; leave it out or null`);
  }
  for (const field of CONNECTION_FIELDS) {
    const why = required[field];
    if (why !== undefined && v[field] === null) throw bad(field, `required for ${v.provider}: ${why}`);
  }
}

interface Deps {
  db: Db;
  secrets: SecretBox;
  config: Config;
}

export async function listVoiceConnectionsPage(input: Deps & { principal: Principal; skip: number; limit: number }) {
  const ownerId = ownerOnly(input.principal);
  const { rows, count } = await repo.listVoiceConnections(input.db, ownerId, input.skip, input.limit);
  return { data: rows.map((r) => toResponse(r, input)), count };
}

export async function readVoiceConnection(input: Deps & { principal: Principal; id: number }) {
  return toResponse(await requireVoiceConnection(input.db, input.principal, input.id), input);
}

export async function createVoiceConnection(input: Deps & { principal: Principal; body: VoiceConnectionCreate }) {
  const ownerId = ownerOnly(input.principal);
  const b = input.body;
  const plain: Plain = {
    name: b.name,
    provider: b.provider,
    api_key: b.api_key,
    account_sid: b.account_sid ?? null,
    webhook_secret: b.webhook_secret ?? null,
    phone_number_id: b.phone_number_id ?? null,
    agent_id: b.agent_id ?? null,
    from_number: b.from_number ? requirePhone(b.from_number, input.config.DEFAULT_COUNTRY, ['body', 'from_number']).e164 : null,
    max_concurrent_calls: b.max_concurrent_calls ?? null,
    calls_per_second: b.calls_per_second ?? null,
  };
  checkVendorFields(plain);
  const row = await repo.insertVoiceConnection(input.db, ownerId, {
    ...plain,
    api_key: input.secrets.seal(plain.api_key),
    webhook_secret: input.secrets.seal(plain.webhook_secret),
  });
  return toResponse(row, input);
}

/** PUT changes only the fields it names; a secret left out keeps its stored (sealed) value. */
export async function updateVoiceConnection(input: Deps & { principal: Principal; id: number; body: VoiceConnectionUpdate }) {
  const row = await requireVoiceConnection(input.db, input.principal, input.id);
  const b = input.body;
  const pick = <K extends keyof VoiceConnectionUpdate & keyof Plain>(k: K, current: Plain[K]) => (b[k] === undefined ? current : (b[k] as Plain[K]));
  const merged: Plain = {
    name: pick('name', row.name),
    provider: row.provider as VoiceVendor,
    // Placeholders for the checks; the stored secrets are carried over sealed below.
    api_key: pick('api_key', row.api_key),
    account_sid: pick('account_sid', row.account_sid),
    webhook_secret: pick('webhook_secret', row.webhook_secret),
    phone_number_id: pick('phone_number_id', row.phone_number_id),
    agent_id: pick('agent_id', row.agent_id),
    from_number: b.from_number === undefined ? row.from_number : b.from_number === null ? null : requirePhone(b.from_number, input.config.DEFAULT_COUNTRY, ['body', 'from_number']).e164,
    max_concurrent_calls: pick('max_concurrent_calls', row.max_concurrent_calls),
    calls_per_second: pick('calls_per_second', row.calls_per_second),
  };
  checkVendorFields(merged);
  const updated = await repo.updateVoiceConnection(input.db, row.id, {
    ...merged,
    api_key: b.api_key === undefined ? row.api_key : input.secrets.seal(b.api_key),
    webhook_secret: b.webhook_secret === undefined ? row.webhook_secret : input.secrets.seal(b.webhook_secret),
  });
  return toResponse(updated, input);
}

/** 409 while an assistant names the connection (the foreign key would refuse it anyway). */
export async function deleteVoiceConnection(input: { db: Db; principal: Principal; id: number }) {
  const row = await requireVoiceConnection(input.db, input.principal, input.id);
  const inUse = () => conflict(`Voice connection ${row.id} is used by assistants; change or delete them first`);
  const users = await repo.assistantsUsing(input.db, row.id);
  if (users.length > 0) {
    throw conflict(`Voice connection ${row.id} is used by ${users.length} assistant(s) (ids ${users.slice(0, 20).join(', ')}); change or delete them first`);
  }
  try {
    await repo.deleteVoiceConnection(input.db, row.id);
  } catch (error) {
    if ((error as { code?: string }).code === '23503') throw inUse(); // an assistant named it meanwhile
    throw error;
  }
  return { message: 'Voice connection deleted' };
}
