import { Type } from 'typebox';
import { settingsOf, type VendorDefinition } from '../../vendor-definition.ts';
import { RetellProvider } from './retell-provider.ts';

/** Its settings (config.ts reads them from here; the README's settings table lists them). */
const env = {
  RETELL_API_KEY: Type.Optional(Type.String({ minLength: 8, secret: true, description: 'Retell API key (Bearer; also the key Retell signs its webhooks with)' })),
  RETELL_BASE_URL: Type.String({ default: 'https://api.retellai.com', httpUrlExample: 'https://api.retellai.com', description: 'Retell API base URL (a fake: npm run fake:retell)' }),
  RETELL_AGENT_ID: Type.Optional(Type.String({ description: 'Retell agent of campaigns whose assistant names none' })),
  RETELL_FROM_NUMBER: Type.Optional(Type.String({ description: 'Retell number (E.164) calls go out from when the campaign has none' })),
  RETELL_MAX_CONCURRENT_CALLS: Type.Integer({ minimum: 0, default: 20, description: 'Retell calls in progress at once for the service\'s key (Retell\'s default concurrency: 20); 0 = no cap' }),
  RETELL_CALLS_PER_SECOND: Type.Number({ minimum: 0, default: 5, description: 'Retell calls started per second for the service\'s key; 0 = no pacing' }),
};
const own = settingsOf(env);

/** Retell: runs the AI; signs its webhooks with the API key, so a connection has no separate secret. */
export const retell: VendorDefinition<'retell', typeof env> = {
  name: 'retell',
  env,
  settings: ['RETELL_API_KEY'],
  startupProblem: (settings) => (settings.VOICE_PROVIDER === 'retell' && own(settings).RETELL_AGENT_ID === undefined
    ? 'VOICE_PROVIDER=retell needs RETELL_AGENT_ID (the agent of campaigns without an assistant)'
    : null),
  environmentCredentials(settings) {
    const c = own(settings);
    return {
      connectionId: null, apiKey: c.RETELL_API_KEY!, baseUrl: c.RETELL_BASE_URL, webhookSecret: null,
      phoneNumberId: null, agentId: c.RETELL_AGENT_ID ?? null, fromNumber: c.RETELL_FROM_NUMBER ?? null,
      maxConcurrent: c.RETELL_MAX_CONCURRENT_CALLS, callsPerSecond: c.RETELL_CALLS_PER_SECOND,
    };
  },
  defaultPacing: (settings) => ({ maxConcurrent: own(settings).RETELL_MAX_CONCURRENT_CALLS, callsPerSecond: own(settings).RETELL_CALLS_PER_SECOND }),
  baseUrl: (settings) => own(settings).RETELL_BASE_URL,
  connection: { required: {}, accepts: ['agent_id', 'from_number'] },
  // Every Retell call needs an agent; saying so when the assistant is saved beats a failed first call.
  assistantProblem: ({ config, providerAssistantId, connectionAgentId }) => (!providerAssistantId && !connectionAgentId && !own(config).RETELL_AGENT_ID
    ? { field: 'provider_assistant_id', message: 'retell needs an agent: set provider_assistant_id, or the voice connection\'s agent_id (the service has no RETELL_AGENT_ID)' }
    : null),
  createAdapter: ({ credentials, clock }) => new RetellProvider({ credentials, clock }),
};
