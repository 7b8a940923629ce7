import type { Vapi } from '@vapi-ai/server-sdk';
import type { CallAssistant, StartCallRequest } from '../../provider.ts';
import type { VendorCredentials } from '../../vendor-credentials.ts';
import { VAPI_SECRET_HEADER } from './vapi-signature.ts';

/**
 * Pure builders of what we send Vapi: the POST /call body and the assistant-request answer.
 * Our call id rides in the assistant's `metadata` (overrides for a Vapi assistant, the inline
 * assistant otherwise): Vapi echoes it in every server message and in GET /call, which is how
 * events find their call and how findCall recognises a call already placed.
 */

/** Used when neither the assistant nor the campaign names a model (Vapi requires one inline). */
export const VAPI_DEFAULT_MODEL = { provider: 'openai', model: 'gpt-4o-mini' } as const;
/** Our maximum when the assistant sets none: also what capabilities.reconcileAfterMs waits for. */
export const VAPI_DEFAULT_MAX_DURATION_SEC = 600;

export interface VapiCallMetadata {
  call_id: number;
  campaign_id: number;
  connection_id: number | null;
}

/** `provider:id` picks the vendor (`11labs:21m00Tcm4TlvDq8ikWAM`, `anthropic:claude-3-5-haiku`); a bare id is Vapi's own / OpenAI. */
function split(value: string, fallbackProvider: string): { provider: string; id: string } {
  const at = value.indexOf(':');
  return at > 0 ? { provider: value.slice(0, at), id: value.slice(at + 1) } : { provider: fallbackProvider, id: value };
}

/**
 * The events URL and the secret Vapi must send with it. Vapi adds its stored credentials only to
 * server URLs saved in its dashboard, never to one given per call, so a per-call URL carries the
 * secret as a header of its own (sent as is, and checked by verifyWebhook like the org secret).
 */
function server(req: StartCallRequest, credentials: VendorCredentials): Vapi.Server | undefined {
  if (!req.eventsUrl) return undefined;
  return { url: req.eventsUrl, ...(credentials.webhookSecret ? { headers: { [VAPI_SECRET_HEADER]: credentials.webhookSecret } } : {}) };
}

/**
 * What Vapi posts to our server URL: the call's progress, each final transcript turn (the live
 * stream), the report. Only set with our server URL, so a customer's own server keeps its list.
 */
const SERVER_MESSAGES = ['status-update', 'transcript[transcriptType="final"]', 'end-of-call-report'] as const satisfies readonly Vapi.AssistantOverridesServerMessagesItem[];

/**
 * Every call gets a control URL (monitor.controlUrl), through which an operator ends, transfers
 * or whispers to it (VapiProvider.controls); the listen URL comes with it (a live audio stream).
 */
export const VAPI_MONITOR_PLAN: Vapi.MonitorPlan = { listenEnabled: true, controlEnabled: true };

function metadata(req: StartCallRequest, credentials: VendorCredentials): VapiCallMetadata {
  return { call_id: req.callId, campaign_id: req.campaignId, connection_id: credentials.connectionId };
}

function voicemailFields(a: CallAssistant | null | undefined): { voicemailMessage?: string } {
  return a?.voicemail.action === 'leave_message' && a.voicemail.message ? { voicemailMessage: a.voicemail.message } : {};
}

/**
 * The recording rule as Vapi's recording-consent plan: after a disclosure, the person staying on
 * the line is consent (stay-on-line); after consent, they must say so (verbal). Vapi records
 * only once consent is given and reports it on the call (compliance.recordingConsent).
 */
function compliancePlan(req: StartCallRequest): { compliancePlan?: Vapi.CompliancePlan } {
  const r = req.recording;
  if (r?.rule === 'after_disclosure' && r.disclosure) {
    return { compliancePlan: { recordingConsentPlan: { type: 'stay-on-line', message: r.disclosure, firstMessageMode: 'assistant-waits-for-user', waitSeconds: 1 } } };
  }
  if (r?.rule === 'after_consent' && r.consent_prompt) {
    return { compliancePlan: { recordingConsentPlan: { type: 'verbal', message: r.consent_prompt, firstMessageMode: 'assistant-waits-for-user' } } };
  }
  return {};
}

/** For a Vapi assistant (assistantId): only what we must change per call. */
export function buildOverrides(req: StartCallRequest, credentials: VendorCredentials): Vapi.AssistantOverrides {
  const a = req.assistant;
  const url = server(req, credentials);
  return {
    ...(a?.firstMessage ? { firstMessage: a.firstMessage } : {}),
    ...(a?.maxDurationSec ? { maxDurationSeconds: a.maxDurationSec } : {}),
    ...voicemailFields(a),
    variableValues: { ...(req.variables ?? {}) },
    metadata: { ...metadata(req, credentials) },
    monitorPlan: { ...VAPI_MONITOR_PLAN },
    ...compliancePlan(req),
    ...(url ? { server: url, serverMessages: [...SERVER_MESSAGES] } : {}),
  };
}

/** A transient assistant: everything from ours, the campaign's prompt when ours has none. */
export function buildAssistant(req: StartCallRequest, credentials: VendorCredentials): Vapi.CreateAssistantDto {
  const a = req.assistant;
  const model = a?.model ? split(a.model, 'openai') : { provider: VAPI_DEFAULT_MODEL.provider, id: VAPI_DEFAULT_MODEL.model };
  const systemPrompt = a?.systemPrompt ?? req.prompt;
  const tools = a?.transferNumber ? [{ type: 'transferCall', destinations: [{ type: 'number', number: a.transferNumber }] }] : undefined;
  const voice = a?.voice ? split(a.voice, 'vapi') : null;
  const url = server(req, credentials);
  const assistant = {
    ...(a?.name ? { name: a.name.slice(0, 40) } : {}),
    model: {
      provider: model.provider,
      model: model.id,
      ...(systemPrompt ? { messages: [{ role: 'system', content: systemPrompt }] } : {}),
      ...(tools ? { tools } : {}),
    },
    ...(voice ? { voice: { provider: voice.provider, voiceId: voice.id } } : {}),
    ...(a?.language ? { transcriber: { provider: 'deepgram', language: a.language } } : {}),
    ...(a?.firstMessage ? { firstMessage: a.firstMessage } : {}),
    ...voicemailFields(a),
    maxDurationSeconds: a?.maxDurationSec ?? VAPI_DEFAULT_MAX_DURATION_SEC,
    metadata: { ...metadata(req, credentials) },
    monitorPlan: { ...VAPI_MONITOR_PLAN },
    ...compliancePlan(req),
    ...(url ? { server: url, serverMessages: [...SERVER_MESSAGES] } : {}),
  };
  // Provider names are open-ended strings on our side; Vapi validates them (a 400 names the field).
  return assistant as unknown as Vapi.CreateAssistantDto;
}

/** The assistant part of a call: Vapi's own assistant with overrides, or an inline one. */
export function buildCallAssistant(req: StartCallRequest, credentials: VendorCredentials): Pick<Vapi.CreateCallDto, 'assistantId' | 'assistant' | 'assistantOverrides'> {
  const assistantId = req.assistant?.providerAssistantId;
  if (assistantId) return { assistantId, assistantOverrides: buildOverrides(req, credentials) };
  // Variables still go as overrides: Vapi fills {{contact.name}} in an inline assistant from them too.
  return { assistant: buildAssistant(req, credentials), assistantOverrides: { variableValues: { ...(req.variables ?? {}) } } };
}

export function buildCreateCall(req: StartCallRequest, credentials: VendorCredentials, phoneNumberId: string): Vapi.CreateCallDto {
  return {
    name: `call ${req.callId}`,
    phoneNumberId,
    customer: { number: req.to },
    ...buildCallAssistant(req, credentials),
  };
}
