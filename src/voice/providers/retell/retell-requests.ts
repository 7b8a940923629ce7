import type { CallRecording } from '../../call-recording.ts';
import type { CallAssistant, InboundCallRequest, StartCallRequest, VendorAnswer } from '../../provider.ts';
import { VoiceProviderError } from '../../provider.ts';
import type { VendorCredentials } from '../../vendor-credentials.ts';
import type { CallCreatePhoneCallParams, RetellAgentOverride, RetellInboundAnswer } from './retell-types.ts';

type AgentFields = NonNullable<RetellAgentOverride['agent']>;
type LlmFields = NonNullable<RetellAgentOverride['retell_llm']>;

// Retell's bounds on max_call_duration_ms (CallCreatePhoneCallParams.AgentOverride.Agent).
const MIN_CALL_MS = 60_000;
const MAX_CALL_MS = 7_200_000;

/**
 * Retell's dynamic variables are `{{name}}` placeholders in the agent's prompt; our
 * placeholders are dotted (`contact.name`), which Retell's variable names do not use,
 * so every character outside [A-Za-z0-9_] becomes `_`: `contact.name` -> `contact_name`.
 */
export function retellVariableName(name: string): string {
  return name.replace(/[^A-Za-z0-9_]/g, '_');
}

export function retellVariables(vars: Record<string, string> | undefined, assistant: CallAssistant | null | undefined, prompt: string | null): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(vars ?? {})) out[retellVariableName(k)] = String(v);
  // The agent's prompt cannot be replaced per call (not in agent_override): it is passed as
  // variables the agent's prompt may use ({{system_prompt}}, {{campaign_prompt}}).
  if (assistant?.systemPrompt) out.system_prompt = assistant.systemPrompt;
  if (prompt) out.campaign_prompt = prompt;
  if (assistant?.transferNumber) out.transfer_number = assistant.transferNumber;
  return out;
}

/**
 * What Retell posts to our events URL: the call's progress and end, and each turn as it is
 * taken (transcript_updated, the live stream's turns); only asked with our URL, so an agent
 * posting to the customer's own server keeps its list.
 */
export const RETELL_WEBHOOK_EVENTS = ['call_started', 'call_ended', 'call_analyzed', 'transcript_updated'] as const;

/** What of our assistant the per-call agent override can carry; undefined when nothing. */
export function retellAgentOverride(assistant: CallAssistant | null | undefined, eventsUrl: string | null | undefined, recording?: CallRecording | null): RetellAgentOverride | undefined {
  const agent: AgentFields = {};
  const llm: LlmFields = {};
  if (assistant?.voice) agent.voice_id = assistant.voice;
  // Retell checks the locale and model against its own lists; a value it does not know is its 400 (rejected).
  if (assistant?.language) agent.language = assistant.language as AgentFields['language'];
  if (assistant?.maxDurationSec) agent.max_call_duration_ms = Math.min(MAX_CALL_MS, Math.max(MIN_CALL_MS, assistant.maxDurationSec * 1000));
  if (assistant) {
    agent.voicemail_option = assistant.voicemail.action === 'leave_message' && assistant.voicemail.message
      ? { action: { type: 'static_text', text: assistant.voicemail.message } }
      : { action: { type: 'hangup' } };
  }
  if (eventsUrl) {
    agent.webhook_url = eventsUrl;
    agent.webhook_events = [...RETELL_WEBHOOK_EVENTS];
  }
  if (assistant?.firstMessage) llm.begin_message = assistant.firstMessage;
  // Recording rules (call-recording.ts): the disclosure is the agent's first words. Retell cannot
  // start a recording mid-call, so a call that may be recorded only after consent keeps nothing
  // Retell would record (basic attributes only) rather than record without it.
  if (recording?.rule === 'after_disclosure' && recording.disclosure) llm.begin_message = [recording.disclosure, assistant?.firstMessage].filter(Boolean).join(' ');
  if (recording?.rule === 'after_consent') agent.data_storage_setting = 'basic_attributes_only';
  if (assistant?.model) llm.model = assistant.model as LlmFields['model'];
  const override: RetellAgentOverride = {};
  if (Object.keys(agent).length) override.agent = agent;
  if (Object.keys(llm).length) override.retell_llm = llm;
  return Object.keys(override).length ? override : undefined;
}

/** The body of POST /v2/create-phone-call for one of our calls. */
export function createPhoneCallBody(req: StartCallRequest, credentials: VendorCredentials): CallCreatePhoneCallParams {
  const from = req.from ?? credentials.fromNumber;
  if (!from) throw new VoiceProviderError('rejected', 'Retell needs a from number: the campaign has no phone number and RETELL_FROM_NUMBER (or the connection\'s from number) is not set', false);
  const agentId = req.assistant?.providerAssistantId ?? credentials.agentId;
  if (!agentId) throw new VoiceProviderError('rejected', 'Retell needs an agent: the assistant names no Retell agent id and RETELL_AGENT_ID (or the connection\'s agent id) is not set', false);
  const body: CallCreatePhoneCallParams = {
    from_number: from,
    to_number: req.to,
    override_agent_id: agentId,
    metadata: { call_id: req.callId, campaign_id: req.campaignId },
    retell_llm_dynamic_variables: retellVariables(req.variables, req.assistant, req.prompt),
  };
  const override = retellAgentOverride(req.assistant, req.eventsUrl, req.recording);
  if (override) body.agent_override = override;
  return body;
}

/**
 * The answer to call_inbound: the agent, variables and our call id for the call's events.
 * With no call for it (no campaign on the number), `{ call_inbound: {} }` overrides nothing:
 * the number's own inbound agent answers if it has one, else Retell hangs up (Retell's
 * documented way to decline is an inbound webhook with no inbound agent on the number).
 */
export function inboundAnswer(_request: InboundCallRequest, call: StartCallRequest | null, credentials: VendorCredentials): VendorAnswer {
  if (!call) return { statusCode: 200, body: { call_inbound: {} } satisfies RetellInboundAnswer };
  const answer: RetellInboundAnswer['call_inbound'] = {
    dynamic_variables: retellVariables(call.variables, call.assistant, call.prompt),
    metadata: { call_id: call.callId, campaign_id: call.campaignId },
  };
  const agentId = call.assistant?.providerAssistantId ?? credentials.agentId;
  if (agentId) answer.override_agent_id = agentId;
  const override = retellAgentOverride(call.assistant, call.eventsUrl, call.recording);
  if (override) answer.agent_override = override;
  return { statusCode: 200, body: { call_inbound: answer } satisfies RetellInboundAnswer };
}
