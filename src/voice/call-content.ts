import type { AssistantRow } from '../db/tables/voice.ts';
import { fillTemplate, templateVariables, type TemplateContext } from './call-template.ts';
import type { CallAssistant } from './provider.ts';
import { routeEventsUrl, type Route } from './registry.ts';

/**
 * What is said on a call, outbound or inbound: the campaign's prompt and the assistant's texts with
 * this call's placeholders filled, the placeholder values for vendors that fill them, and where
 * the vendor posts the call's events.
 */
export function spokenContent(publicBaseUrl: string | undefined, input: { context: TemplateContext; prompt: string | null; assistant: AssistantRow | null; route: Route }) {
  const fill = (template: string) => fillTemplate(template, input.context);
  return {
    prompt: input.prompt === null ? null : fill(input.prompt),
    assistant: input.assistant ? callAssistant(input.assistant, fill) : null,
    variables: templateVariables(input.context),
    eventsUrl: routeEventsUrl(publicBaseUrl, input.route),
  };
}

/** The assistant as a provider receives it: its texts filled for this call. */
export function callAssistant(row: AssistantRow, fill: (template: string) => string): CallAssistant {
  const filled = (text: string | null) => (text === null ? null : fill(text));
  return {
    id: row.id, name: row.name, providerAssistantId: row.provider_assistant_id, firstMessage: filled(row.first_message),
    systemPrompt: filled(row.system_prompt), voice: row.voice, language: row.language, model: row.model,
    voicemail: { action: row.voicemail_action === 'leave_message' ? 'leave_message' : 'hang_up', message: filled(row.voicemail_message) },
    maxDurationSec: row.max_duration_seconds, transferNumber: row.transfer_number,
  };
}
