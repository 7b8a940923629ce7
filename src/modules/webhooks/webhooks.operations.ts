import { LIST_BUDGET_NOTE } from '../../shared/list-budget.ts';
import { Type } from 'typebox';
import { Detail, ErrorResponses, Id, IdParams, Limit, Nullable, Skip } from '../../http/schemas.ts';
import { Delivery, DeliveryList, DeliveryStatus, Integration, IntegrationCreate, IntegrationCreated, IntegrationList, IntegrationUpdate } from './webhooks.schemas.ts';

/**
 * The OpenAPI description of each webhooks operation: the integrations (webhooks.routes.ts)
 * and their delivery log and explicit sends (deliveries.routes.ts).
 */

const tags = ['webhooks'];

const BLOCKED_URL =
  'A URL whose host is, or now resolves to, a loopback, private, link-local, CGNAT, unique-local, multicast or unspecified address (or is `localhost`) ' +
  'is refused when saved: 422 at `["body", "url"]` with the reason, unless WEBHOOK_ALLOW_PRIVATE_NETWORKS is on. A name that does not resolve yet is accepted. ' +
  'Every send checks the address it connects to again (DNS may change after saving), and such a refusal is recorded in the delivery log.';

export const ListWebhookIntegrations = {
  operationId: 'list_webhook_integrations',
  tags,
  summary: 'List webhook integrations',
  description: 'The account\'s integrations, newest first. Secrets are masked. A sub-user sees only integrations all of whose campaigns are granted to it (another is 403); only the account holder may change them.',
  querystring: Type.Object({ skip: Skip, limit: Limit(100) }),
  response: { 200: IntegrationList, ...ErrorResponses },
} as const;

export const CreateWebhookIntegration = {
  operationId: 'create_webhook_integration',
  tags,
  summary: 'Create a post-call webhook integration',
  description:
    'Account holder only (sub-users get 403). Every campaign must be the caller\'s (404 unknown, 403 another account\'s). ' +
    'The answer carries signing_secret once; secrets (basic_password, bearer_token, api_key_value) are masked in every later answer, and stored sealed under the service\'s SECRET_KEY (AES-256-GCM). ' +
    BLOCKED_URL,
  body: IntegrationCreate,
  response: { 200: IntegrationCreated, ...ErrorResponses },
} as const;

export const ReadWebhookIntegration = {
  operationId: 'read_webhook_integration',
  tags,
  summary: 'Read a webhook integration',
  params: IdParams,
  response: { 200: Integration, ...ErrorResponses },
} as const;

export const ChangeWebhookIntegration = {
  operationId: 'change_webhook_integration',
  tags,
  summary: 'Change a webhook integration',
  description: `Only the settings in the body change; a secret left out keeps its value, null clears it. The whole result is validated again. A new url is checked as on create: ${BLOCKED_URL}`,
  params: IdParams,
  body: IntegrationUpdate,
  response: { 200: Integration, ...ErrorResponses },
} as const;

export const DeleteWebhookIntegration = {
  operationId: 'delete_webhook_integration',
  tags,
  summary: 'Delete a webhook integration and its delivery log',
  params: IdParams,
  response: { 200: Type.Object({ message: Type.String() }), ...ErrorResponses, 409: Detail },
} as const;

export const RotateSigningSecret = {
  operationId: 'rotate_signing_secret',
  tags,
  summary: 'Rotate the signing secret',
  description:
    'Replaces the secret deliveries are signed with (Standard Webhooks) and answers the new one, once; the old one stops at once. ' +
    'Also the way back after SECRET_KEY changed, which leaves the stored secret unreadable. Owner only.',
  params: IdParams,
  response: { 200: Type.Object({ signing_secret: Type.String() }), ...ErrorResponses },
} as const;

export const ListDeliveries = {
  operationId: 'list_deliveries',
  tags,
  summary: 'Delivery log of an integration',
  description:
    'Newest first. status: pending (waiting or being sent), sent, failed (with reason: HTTP status, redirect, error field, timeout, SSRF refusal, extraction failure), ' +
    'skipped (a filter of the integration did not pass the call, or it had no transcript: skipped_by names which, reason says it in words; ' +
    'a call skipped by only-interested becomes pending when an interested outcome arrives after its end). Failed deliveries are never retried automatically; use redeliver. ' +
    'A sent delivery lists in missing_required the required fields it had to send as null. ' +
    "count is the number of matching deliveries: exact while at most 1000 match, past that the database's estimate, and count_exact says which. " +
    'A list whose queries take longer than the service\'s statement timeout (API_STATEMENT_TIMEOUT_MS, default 3 s) is stopped and answered 503 naming its filters. ' +
    LIST_BUDGET_NOTE,
  params: IdParams,
  querystring: Type.Object({ status: Type.Optional(Type.Array(DeliveryStatus)), call_id: Type.Optional(Id), skip: Skip, limit: Limit(100) }),
  response: { 200: DeliveryList, ...ErrorResponses, 503: Detail },
} as const;

export const SendTestRequest = {
  operationId: 'send_test_request',
  tags,
  summary: 'Send a test request now',
  description:
    'Builds the payload from one of the caller\'s calls (call_id) or, without call_id, from a synthetic finished call, sends it at once ' +
    'and answers the recorded delivery (kind test). Filters do not apply and the recording wait is skipped. The webhook-id header is msg_test_<delivery id>.',
  params: IdParams,
  body: Type.Object({ call_id: Type.Optional(Nullable(Id)) }),
  response: { 200: Delivery, ...ErrorResponses },
} as const;

export const Redeliver = {
  operationId: 'redeliver_webhook_delivery',
  tags,
  summary: 'Send a delivery again (explicit user request)',
  description:
    'A new delivery row (kind redeliver) is written and sent now with the payload of the original (built afresh if the original never got one), ' +
    'to the integration\'s current URL and credentials. It carries the original webhook-id so receivers can de-duplicate. 409 while the original is pending.',
  params: Type.Object({ id: Id, delivery_id: Id }),
  response: { 200: Delivery, ...ErrorResponses, 409: Detail },
} as const;
