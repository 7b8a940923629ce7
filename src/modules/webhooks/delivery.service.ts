import type { Dispatcher } from 'undici';
import type { Db } from '../../db/connection.ts';
import type { WebhookIntegrationRow } from '../../db/tables/webhooks.ts';
import { ExtractionError, type CallContext, type CallFacts, type Extractor, type PayloadSchema, type TranscriptTurn } from '../../extraction/extractor.ts';
import { SecretBoxError, type SecretBox } from '../../shared/secret-box.ts';
import { hostAllowed } from '../../shared/ssrf-guard.ts';
import { recordUrlOf, type CallSnapshot, type DeliveryOutcome } from './deliveries.repository.ts';
import { substitute, usesRecordUrl, type PlaceholderContext } from './placeholders.ts';
import { openForSending } from './sealed-credentials.ts';
import { sendWebhook, type SigningKeys } from './webhook-sender.ts';
import type { Metrics } from '../metrics/metrics.ts';
import { redactionAt } from '../privacy/redaction-policy/call-redaction.ts';
import type { Redactor } from '../privacy/redaction/redaction.ts';

/** What building and sending needs from the outside world; the worker and the API each hold one. */
export interface WebhookRuntime {
  db: Db;
  dispatcher: Dispatcher;
  extractor: Extractor;
  now(): Date;
  /** How long to wait for the recording when an instruction uses {{call.record_url}} (docs/webhooks.md: 20 s). */
  recordingWaitMs: number;
  recordingPollMs: number;
  sleep(ms: number): Promise<void>;
  /** Opens the integration's sealed credentials for the send. */
  secrets: SecretBox;
  /** Signing secrets decoded once per runtime. */
  signingKeys: SigningKeys;
  /** Counts deliveries by outcome and their HTTP latency (the app's metrics). */
  metrics?: Pick<Metrics, 'webhookDelivered'>;
}

export const RECORDING_FIELDS = ['record_url', 'call_link', 'recording_url'];

export interface DeliveryJob {
  deliveryId: number;
  webhookId: string;
  integration: WebhookIntegrationRow;
  call: CallSnapshot;
  /** Redelivery resends the payload that was built the first time. */
  payload?: Record<string, unknown> | null;
  /** The test endpoint does not wait for a recording. */
  waitForRecording: boolean;
}

export function transcriptOf(callData: Record<string, unknown> | null): TranscriptTurn[] {
  const raw = callData?.transcript;
  if (typeof raw === 'string') return raw.trim() ? [{ role: 'transcript', text: raw }] : [];
  if (!Array.isArray(raw)) return [];
  return raw
    .filter((t): t is Record<string, unknown> => !!t && typeof t === 'object')
    .map((t) => ({ role: String(t.role ?? 'user'), text: String(t.text ?? t.content ?? '') }));
}

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);

/** The call fields given to the extractor, and nothing else (docs/webhooks.md, "Building the payload"). */
export function callContextOf(call: CallSnapshot): CallContext {
  const context: CallContext = {
    from_number: call.from_number,
    to_number: call.to_number,
    call_duration: call.call_duration,
    start_time: iso(call.start_time),
    end_time: iso(call.end_time),
    call_type: call.call_type,
    action_status: call.action_status,
    status: call.status,
  };
  if (call.record_url) context.record_url = call.record_url;
  // The call's data without the transcript (given separately); a plain loop, as an
  // object rest spread per delivery showed in the webhook benchmark's profile.
  let rest: Record<string, unknown> | null = null;
  for (const key in call.call_data) {
    if (key === 'transcript' || !Object.hasOwn(call.call_data, key)) continue;
    (rest ??= {})[key] = call.call_data[key];
  }
  if (rest) context.call_data = rest;
  return context;
}

/** The call row's facts outside the AI context, for rule-based extraction. */
export const callFactsOf = (call: CallSnapshot): CallFacts => ({
  action_status_reason: call.action_status_reason,
  call_ended_by: call.call_ended_by,
  call_ended_by_reason: call.call_ended_by_reason,
  contact_phone: call.contact_phone,
});

export function placeholderContextOf(call: CallSnapshot): PlaceholderContext {
  return {
    contact: { id: call.contact_id, phone_number: call.contact_phone, contact_data: call.contact_data ?? {} },
    call,
  };
}

async function waitForRecording(rt: WebhookRuntime, call: CallSnapshot): Promise<void> {
  if (call.record_url || call.id === null) return;
  const deadline = Date.now() + rt.recordingWaitMs;
  while (Date.now() < deadline) {
    await rt.sleep(Math.min(rt.recordingPollMs, Math.max(0, deadline - Date.now())));
    const url = await recordUrlOf(rt.db, call.id);
    if (url) {
      call.record_url = url;
      return;
    }
  }
}

/** Builds the payload and sends the one request. Never throws: every failure becomes the outcome's reason. */
export async function processDelivery(rt: WebhookRuntime, job: DeliveryJob): Promise<DeliveryOutcome> {
  const outcome = await buildAndSend(rt, job);
  rt.metrics?.webhookDelivered(outcome.status, outcome.duration_ms);
  return outcome;
}

/** A failed outcome of the delivery, to be filled in as building and sending go. */
export const failedOutcome = (id: number, integration: WebhookIntegrationRow): DeliveryOutcome => ({
  id, status: 'failed', reason: null, request_method: integration.http_method, request_url: null, payload: null,
  extraction_method: null, null_fields: null, missing_required: null, http_status: null, duration_ms: null, response_body: null,
});

/** The integration's URL with its placeholders filled in, or why it is not sent there. */
export function targetOf(integration: WebhookIntegrationRow, ctx: PlaceholderContext): { url: string; refused: string | null } {
  const url = substitute(integration.url, ctx, encodeURIComponent);
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return { url, refused: 'the URL with its placeholders filled in is not a valid URL' };
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:') return { url, refused: 'only http and https URLs are sent' };
  if (!hostAllowed(target.hostname, integration.allowed_hosts)) return { url, refused: `blocked: the URL host ${target.hostname} is not in the allowed hosts` };
  return { url, refused: null };
}

/** Opens the integration's credentials and sends the one signed request; the outcome says how it went. */
export async function sendPayload(rt: WebhookRuntime, args: {
  integration: WebhookIntegrationRow; url: string; payload: Record<string, unknown>; webhookId: string; outcome: DeliveryOutcome;
  /** The call's rule for payloads: the receiver's answer is kept redacted too (it may echo the payload). */
  redactor?: Redactor | null;
}): Promise<DeliveryOutcome> {
  const { integration, outcome } = args;
  let secrets: ReturnType<typeof openForSending>;
  try {
    secrets = openForSending(integration, rt.secrets);
  } catch (error) {
    if (error instanceof SecretBoxError) return { ...outcome, payload: args.payload, reason: `not sent: ${error.message}` };
    throw error;
  }
  const result = await sendWebhook({
    method: integration.http_method as 'POST' | 'PUT',
    url: args.url,
    payload: args.payload,
    urlParams: integration.save_data_use_url_params,
    auth: {
      type: integration.auth_type, login: integration.basic_login, password: secrets.password,
      token: secrets.token, apiKey: secrets.apiKey, apiKeyHeader: integration.api_key_header,
    },
    timeoutMs: integration.timeout * 1000,
    signingSecret: secrets.signingSecret,
    signingKeys: rt.signingKeys,
    webhookId: args.webhookId,
    timestamp: Math.floor(rt.now().getTime() / 1000),
    dispatcher: rt.dispatcher,
  });
  return {
    ...outcome,
    payload: args.payload,
    status: result.ok ? 'sent' : 'failed',
    reason: result.reason,
    request_url: result.requestUrl,
    http_status: result.httpStatus,
    duration_ms: result.durationMs,
    response_body: args.redactor && result.responseBody ? args.redactor.redact(result.responseBody).text : result.responseBody,
  };
}

async function buildAndSend(rt: WebhookRuntime, job: DeliveryJob): Promise<DeliveryOutcome> {
  const { integration, call } = job;
  const outcome = failedOutcome(job.deliveryId, integration);
  try {
    const instructions = (integration.instructions ?? {}) as Record<string, string>;
    if (job.waitForRecording && !job.payload && usesRecordUrl(Object.values(instructions))) await waitForRecording(rt, call);
    const ctx = placeholderContextOf(call);
    const { url, refused } = targetOf(integration, ctx);
    outcome.request_url = url;
    if (refused) return { ...outcome, reason: refused };
    let payload = job.payload ?? null;
    const redactor = await redactionAt(rt.db, call.id, 'payload');
    if (!payload) {
      const schema = integration.request_schema as PayloadSchema;
      try {
        const result = await rt.extractor.extract({
          schema,
          instructions: Object.fromEntries(Object.entries(instructions).map(([k, v]) => [k, substitute(v, ctx)])),
          transcript: transcriptOf(call.call_data),
          contact: call.contact_data ?? {},
          call: callContextOf(call),
          facts: callFactsOf(call),
        });
        // Redacted by the call's rule before it is stored or sent (a redelivery resends this copy).
        payload = redactor ? redactor.redactDeep(result.payload).value : result.payload;
        outcome.extraction_method = result.method;
        // The link comes from the call, after extraction: the model never writes it.
        for (const field of RECORDING_FIELDS) if (field in schema.properties) payload[field] = call.record_url ?? null;
        outcome.null_fields = Object.keys(payload).filter((k) => payload![k] === null);
        // The payload still carries them (as null): the receiver is told by the value, the user by the log.
        outcome.missing_required = (schema.required ?? []).filter((k) => (payload![k] ?? null) === null);
      } catch (error) {
        const why = error instanceof ExtractionError ? error.message : `extraction failed: ${(error as Error).message}`;
        return { ...outcome, reason: why };
      }
    }
    return await sendPayload(rt, { integration, url, payload, webhookId: job.webhookId, outcome, redactor });
  } catch (error) {
    return { ...outcome, reason: `internal error: ${(error as Error).message}` };
  }
}

/** The Standard Webhooks message id: stable per call and integration, so a redelivery carries the same id. */
export const webhookIdFor = (kind: string, integrationId: number, callId: number | null, deliveryId: number) =>
  kind === 'test' || callId === null ? `msg_test_${deliveryId}` : `msg_${integrationId}_${callId}`;
