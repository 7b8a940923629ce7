import { randomBytes } from 'node:crypto';
import type { Db } from '../../db/connection.ts';
import { withStatementTimeout } from '../../db/bounded-list.ts';
import type { WebhookIntegrationRow } from '../../db/tables/webhooks.ts';
import { forbidden, notFound, unprocessable } from '../../http/errors.ts';
import type { SecretBox } from '../../shared/secret-box.ts';
import { blockedHostReason, SSRF_HINT, type Resolver } from '../../shared/ssrf-guard.ts';
import type { Principal } from '../auth/principal.ts';
import { requireCampaign } from '../campaigns/campaign-access.ts';
import { placeholdersIn, unknownPlaceholder } from './placeholders.ts';
import { normaliseRequestSchema, SchemaFormError } from './request-schema.ts';
import type { PayloadSchema } from '../../extraction/extractor.ts';
import * as repo from './webhooks.repository.ts';
import { listDeliveries } from './deliveries.repository.ts';
import type { SkippedBy } from './enqueue-deliveries.ts';
import { CREDENTIAL_FIELDS, maskedCredentials, sealGiven } from './sealed-credentials.ts';
import type { IntegrationCreate, IntegrationUpdate } from './webhooks.schemas.ts';
import type { AuditRequest } from '../audit/audit.service.ts';
import { auditWebhookTarget, changedTargetFields } from './webhook-target-audit.ts';

/** Webhook integrations belong to the account; sub-users may read those of their granted campaigns but never change them. */
export function ownerOnly(p: Principal): number {
  if (p.kind !== 'user') throw forbidden();
  return p.userId;
}

export async function requireIntegration(db: Db, principal: Principal, id: number) {
  const row = await repo.findIntegration(db, id);
  if (!row) throw notFound('Webhook integration');
  if (row.owner_id !== principal.ownerId) throw forbidden();
  if (principal.kind === 'sub_user') {
    const visible = await db
      .selectFrom('webhook_integrations')
      .select('id')
      .where('id', '=', id)
      .where(repo.visibleToSubUser(principal.subUserId))
      .executeTakeFirst();
    if (!visible) throw forbidden();
  }
  return row;
}

export const newSigningSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

/** Secrets are never shown again after creation (see maskedCredentials). */
export function toResponse(row: WebhookIntegrationRow, campaignIds: number[], box: SecretBox) {
  const { signing_secret: _s, request_schema_source: _src, ...rest } = row;
  return {
    ...rest,
    auth_type: row.auth_type as 'none',
    http_method: row.http_method as 'POST',
    ...maskedCredentials(row, box),
    allowed_hosts: row.allowed_hosts.join(','),
    request_schema: row.request_schema as PayloadSchema,
    instructions: (row.instructions ?? {}) as Record<string, string>,
    campaign_ids: campaignIds,
  };
}

const bad = (field: string, msg: string) => unprocessable(['body', field], msg);

/** Parses the URL with its placeholders stood in, so scheme and host can be checked at save time. */
function checkUrl(url: string): { host: string | null } {
  for (const name of placeholdersIn(url)) {
    const why = unknownPlaceholder(name);
    if (why) throw bad('url', why);
  }
  let parsed: URL;
  try {
    parsed = new URL(url.replace(/\{\{[^}]*\}\}/g, 'placeholder'));
  } catch {
    throw bad('url', 'not a valid URL');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw bad('url', 'scheme must be http or https');
  if (parsed.username || parsed.password) throw bad('url', 'credentials in the URL are not allowed; use the authentication setting');
  const hostPart = url.replace(/^[a-z]+:\/\//i, '').split(/[/?#]/)[0] ?? '';
  return { host: /\{\{/.test(hostPart) ? null : parsed.hostname.toLowerCase() };
}

function parseAllowedHosts(value: string): string[] {
  const hosts = value.split(',').map((h) => h.trim().toLowerCase()).filter(Boolean);
  if (hosts.length === 0) throw bad('allowed_hosts', 'list at least one host');
  for (const h of hosts) {
    if (!/^(\*\.)?[a-z0-9_.-]+$|^\[[0-9a-f:.]+\]$/.test(h)) throw bad('allowed_hosts', `"${h}" is not a host name (no scheme, port or path)`);
  }
  return [...new Set(hosts)];
}

type Merged = Omit<IntegrationCreate, 'campaign_ids'>;

/** Validates a full set of settings (create, or stored row merged with an update) into column values. */
function toValues(input: Merged): repo.IntegrationValues {
  const { host } = checkUrl(input.url);
  let schema: PayloadSchema;
  try {
    schema = normaliseRequestSchema(input.request_schema);
  } catch (error) {
    if (error instanceof SchemaFormError) throw bad('request_schema', error.message);
    throw error;
  }
  let allowed: string[];
  if (input.allowed_hosts) allowed = parseAllowedHosts(input.allowed_hosts);
  else if (host) allowed = [host];
  else throw bad('allowed_hosts', 'required when the URL host contains a placeholder');
  if (host && !allowed.some((a) => host === a.replace(/^\*\./, '') || host.endsWith(`.${a.replace(/^\*\./, '')}`))) {
    throw bad('allowed_hosts', `the URL host ${host} does not match the allowed hosts`);
  }
  const auth = input.auth_type ?? 'none';
  if (auth === 'basic' && !input.basic_login) throw bad('basic_login', 'required for Basic authentication');
  if (auth === 'basic' && !input.basic_password) throw bad('basic_password', 'required for Basic authentication');
  if (auth === 'basic' && input.basic_login?.includes(':')) throw bad('basic_login', 'may not contain ":"');
  if (auth === 'bearer' && !input.bearer_token) throw bad('bearer_token', 'required for Bearer authentication');
  if (auth === 'api_key' && !input.api_key_value) throw bad('api_key_value', 'required for API Key authentication');
  const instructions = input.instructions ?? {};
  for (const [field, text] of Object.entries(instructions)) {
    if (!(field in schema.properties)) throw unprocessable(['body', 'instructions', field], `"${field}" is not a field of the request schema`);
    for (const name of placeholdersIn(text)) {
      const why = unknownPlaceholder(name);
      if (why) throw unprocessable(['body', 'instructions', field], why);
    }
  }
  return {
    name: input.name ?? null,
    url: input.url,
    auth_type: auth,
    basic_login: input.basic_login ?? null,
    basic_password: input.basic_password ?? null,
    bearer_token: input.bearer_token ?? null,
    api_key_value: input.api_key_value ?? null,
    api_key_header: input.api_key_header ?? 'X-API-KEY',
    http_method: input.http_method ?? 'POST',
    allowed_hosts: allowed,
    timeout: input.timeout ?? 30,
    save_data_use_url_params: input.save_data_use_url_params ?? false,
    request_schema: schema,
    request_schema_source: input.request_schema,
    instructions,
    only_interested: input.only_interested ?? true,
    call_statuses: input.call_statuses ?? [],
    is_active: input.is_active ?? true,
    send_inbound_texts: input.send_inbound_texts ?? false,
    send_campaign_events: input.send_campaign_events ?? false,
  };
}

/** The settings that decide which hosts a webhook may reach (WEBHOOK_ALLOW_PRIVATE_NETWORKS), and a resolver for tests. */
export interface TargetRules {
  allowPrivateNetworks: boolean;
  resolver?: Resolver;
}

/**
 * A URL the sender would refuse (loopback, private, link-local...) is refused when saved, at the
 * url field with the reason, instead of failing at every send. The connect-time guard stays the
 * guard (DNS may change after saving); with WEBHOOK_ALLOW_PRIVATE_NETWORKS both let it through.
 */
async function checkTarget(url: string, rules: TargetRules | undefined) {
  if (!rules || rules.allowPrivateNetworks) return;
  const { host } = checkUrl(url);
  if (!host) return; // a placeholder in the host: known only when sending, and checked then
  const reason = await blockedHostReason(host, rules.resolver ? { resolver: rules.resolver } : {});
  if (reason) throw bad('url', `blocked: ${reason}; webhooks may not reach this machine or a private network (${SSRF_HINT})`);
}

async function checkCampaigns(db: Db, principal: Principal, ids: number[]) {
  for (const id of ids) await requireCampaign(db, principal, id);
}

export async function createIntegration(input: { db: Db; secrets: SecretBox; principal: Principal; body: IntegrationCreate; request?: AuditRequest; targets?: TargetRules }) {
  const ownerId = ownerOnly(input.principal);
  const { campaign_ids, ...settings } = input.body;
  const values = sealGiven(toValues(settings), new Set(CREDENTIAL_FIELDS), input.secrets);
  await checkTarget(values.url, input.targets);
  await checkCampaigns(input.db, input.principal, campaign_ids);
  const signingSecret = newSigningSecret();
  const row = await input.db.transaction().execute(async (trx) => {
    const created = await repo.insertIntegration(trx, { ownerId, values, signingSecret: input.secrets.seal(signingSecret), campaignIds: campaign_ids });
    await auditWebhookTarget(trx, input, created, 'created');
    return created;
  });
  return { ...toResponse(row, [...campaign_ids].sort((a, b) => a - b), input.secrets), signing_secret: signingSecret };
}

/** PUT replaces only the settings it names; a secret left out keeps its stored value. */
export async function updateIntegration(input: { db: Db; secrets: SecretBox; principal: Principal; id: number; body: IntegrationUpdate; request?: AuditRequest; targets?: TargetRules }) {
  ownerOnly(input.principal);
  const row = await requireIntegration(input.db, input.principal, input.id);
  const { campaign_ids, ...changes } = input.body;
  const defined = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined));
  const current: Merged = {
    name: row.name,
    url: row.url,
    auth_type: row.auth_type as 'none',
    basic_login: row.basic_login,
    basic_password: row.basic_password,
    bearer_token: row.bearer_token,
    api_key_value: row.api_key_value,
    api_key_header: row.api_key_header,
    http_method: row.http_method as 'POST',
    // A changed URL re-derives the default allowed host unless hosts are given too.
    allowed_hosts: 'url' in defined && !('allowed_hosts' in defined) ? null : row.allowed_hosts.join(','),
    timeout: row.timeout,
    save_data_use_url_params: row.save_data_use_url_params,
    request_schema: row.request_schema as Record<string, unknown>,
    instructions: row.instructions as Record<string, string>,
    only_interested: row.only_interested,
    call_statuses: row.call_statuses as IntegrationCreate['call_statuses'],
    is_active: row.is_active,
    send_inbound_texts: row.send_inbound_texts,
    send_campaign_events: row.send_campaign_events,
  };
  // Credentials left out keep their stored, sealed value; given ones are sealed now.
  const values = sealGiven(toValues({ ...current, ...defined } as Merged), new Set(Object.keys(defined)), input.secrets);
  if (!('request_schema' in defined)) values.request_schema_source = row.request_schema_source;
  // Only a URL being changed: a stored one stays editable (to deactivate it, say) whatever it is.
  if ('url' in defined) await checkTarget(values.url, input.targets);
  if (campaign_ids) await checkCampaigns(input.db, input.principal, campaign_ids);
  const changed = changedTargetFields(row, values, new Set(Object.keys(defined)));
  const updated = await input.db.transaction().execute(async (trx) => {
    const after = await repo.updateIntegration(trx, row.id, values, campaign_ids);
    if (changed.length > 0) await auditWebhookTarget(trx, input, after, 'updated', { url_before: row.url, fields: changed });
    return after;
  });
  const ids = await repo.campaignIdsOf(input.db, [row.id]);
  return toResponse(updated, ids.get(row.id) ?? [], input.secrets);
}

/** A new signing secret, sealed in place of the old one; answered in the clear once. Owner only. */
export async function rotateSigningSecret(input: { db: Db; secrets: SecretBox; principal: Principal; id: number; request?: AuditRequest }): Promise<string> {
  ownerOnly(input.principal);
  const row = await requireIntegration(input.db, input.principal, input.id);
  const signingSecret = newSigningSecret();
  await input.db.transaction().execute(async (trx) => {
    await repo.setSigningSecret(trx, row.id, input.secrets.seal(signingSecret));
    await auditWebhookTarget(trx, input, row, 'signing_secret_rotated');
  });
  return signingSecret;
}

/** The integrations the principal may see (a sub-user: those all of whose campaigns are granted to it), newest first. */
export async function listIntegrationsPage(input: { db: Db; secrets: SecretBox; principal: Principal; skip: number; limit: number }) {
  const p = input.principal;
  const { rows, count } = await repo.listIntegrations(input.db, p.ownerId, input.skip, input.limit, p.kind === 'sub_user' ? p.subUserId : undefined);
  const campaigns = await repo.campaignIdsOf(input.db, rows.map((r) => r.id));
  return { data: rows.map((r) => toResponse(r, campaigns.get(r.id) ?? [], input.secrets)), count };
}

export async function readIntegration(input: { db: Db; secrets: SecretBox; principal: Principal; id: number }) {
  const row = await requireIntegration(input.db, input.principal, input.id);
  return toResponse(row, (await repo.campaignIdsOf(input.db, [row.id])).get(row.id) ?? [], input.secrets);
}

/** Deletes the integration and its delivery log. Owner only. */
export async function deleteIntegration(input: { db: Db; principal: Principal; id: number; request?: AuditRequest }) {
  ownerOnly(input.principal);
  const row = await requireIntegration(input.db, input.principal, input.id);
  await input.db.transaction().execute(async (trx) => {
    await repo.deleteIntegration(trx, row.id);
    await auditWebhookTarget(trx, input, row, 'deleted');
  });
  return { message: 'Webhook integration deleted' };
}

/** A delivery row as the API answers it (its payload is a JSON object or null). */
export function toDeliveryResponse<T extends { payload: unknown; status: string; skipped_by: string | null }>(row: T) {
  return { ...row, payload: row.payload as Record<string, unknown> | null, status: row.status as 'sent', skipped_by: row.skipped_by as SkippedBy | null };
}

/**
 * The delivery log of an integration, newest first. Owner only: payloads carry contact data. Its
 * queries run on one connection under the API's statement timeout (a stopped one is a 503).
 */
export async function deliveryLog(input: {
  db: Db;
  principal: Principal;
  id: number;
  query: { status?: string[] | undefined; call_id?: number | undefined; skip: number; limit: number };
  statementTimeoutMs: number;
}) {
  ownerOnly(input.principal);
  const integration = await requireIntegration(input.db, input.principal, input.id);
  const { status, call_id, skip, limit } = input.query;
  const filters = [...(status && status.length > 0 ? ['status'] : []), ...(call_id !== undefined ? ['call_id'] : [])];
  const { rows, count, exact } = await withStatementTimeout(input.db, { timeoutMs: input.statementTimeoutMs, list: 'webhook deliveries', filters }, (db) =>
    listDeliveries(db, { integrationId: integration.id, ...(status ? { status } : {}), ...(call_id !== undefined ? { callId: call_id } : {}), skip, limit }));
  return { data: rows.map(toDeliveryResponse), count, count_exact: exact };
}
