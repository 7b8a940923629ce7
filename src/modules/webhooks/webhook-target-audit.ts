import type { Db } from '../../db/connection.ts';
import type { WebhookIntegrationRow } from '../../db/tables/webhooks.ts';
import type { Principal } from '../auth/principal.ts';
import { recordAudit, type AuditRequest } from '../audit/audit.service.ts';
import { CREDENTIAL_FIELDS } from './sealed-credentials.ts';
import type { IntegrationValues } from './webhooks.repository.ts';

/**
 * Where deliveries go and how they authenticate: a change to any of these is a
 * webhook.target_changed event. Secrets are named, never recorded; a secret the request gave
 * counts as changed (stored sealed, it is not compared).
 */
const TARGET_FIELDS = ['url', 'http_method', 'auth_type', 'basic_login', 'api_key_header', ...CREDENTIAL_FIELDS] as const;
const SECRET = new Set<string>(CREDENTIAL_FIELDS);

/** The target fields an update changes: `given` names the fields its body set. */
export function changedTargetFields(row: WebhookIntegrationRow, values: IntegrationValues, given: Set<string>): string[] {
  return TARGET_FIELDS.filter((f) => (SECRET.has(f) ? given.has(f) : values[f] !== row[f]));
}

export interface TargetAudit {
  principal: Principal;
  request?: AuditRequest | undefined;
}

/** One webhook.target_changed event; `change` says which. Call inside the change's transaction. */
export function auditWebhookTarget(
  trx: Db,
  audit: TargetAudit,
  integration: { id: number; url: string; auth_type: string },
  change: 'created' | 'updated' | 'deleted' | 'signing_secret_rotated',
  extra: Record<string, unknown> = {},
) {
  return recordAudit(trx, {
    principal: audit.principal,
    request: audit.request,
    kind: 'webhook.target_changed',
    subject: { type: 'webhook_integration', id: integration.id },
    details: { change, url: integration.url, auth_type: integration.auth_type, ...extra },
  });
}
