import type { VendorDefinition } from '../../vendor-definition.ts';
import { RetellProvider } from './retell-provider.ts';

/** Retell: runs the AI; signs its webhooks with the API key, so a connection has no separate secret. */
export const retell: VendorDefinition<'retell'> = {
  name: 'retell',
  settings: ['RETELL_API_KEY'],
  startupProblem: (config) => (config.VOICE_PROVIDER === 'retell' && config.RETELL_AGENT_ID === undefined
    ? 'VOICE_PROVIDER=retell needs RETELL_AGENT_ID (the agent of campaigns without an assistant)'
    : null),
  environmentCredentials: (config) => ({
    connectionId: null, apiKey: config.RETELL_API_KEY!, baseUrl: config.RETELL_BASE_URL, webhookSecret: null,
    phoneNumberId: null, agentId: config.RETELL_AGENT_ID ?? null, fromNumber: config.RETELL_FROM_NUMBER ?? null,
    maxConcurrent: config.RETELL_MAX_CONCURRENT_CALLS, callsPerSecond: config.RETELL_CALLS_PER_SECOND,
  }),
  defaultPacing: (config) => ({ maxConcurrent: config.RETELL_MAX_CONCURRENT_CALLS, callsPerSecond: config.RETELL_CALLS_PER_SECOND }),
  baseUrl: (config) => config.RETELL_BASE_URL,
  connection: { required: {}, accepts: ['agent_id', 'from_number'] },
  // Every Retell call needs an agent; saying so when the assistant is saved beats a failed first call.
  assistantProblem: ({ config, providerAssistantId, connectionAgentId }) => (!providerAssistantId && !connectionAgentId && !config.RETELL_AGENT_ID
    ? { field: 'provider_assistant_id', message: 'retell needs an agent: set provider_assistant_id, or the voice connection\'s agent_id (the service has no RETELL_AGENT_ID)' }
    : null),
  createAdapter: ({ credentials, clock }) => new RetellProvider({ credentials, clock }),
};
