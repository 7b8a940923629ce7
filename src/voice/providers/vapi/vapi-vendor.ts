import type { VendorDefinition } from '../../vendor-definition.ts';
import { VapiProvider } from './vapi-provider.ts';

/** Vapi: runs the AI; the account's key, its server secret and the phoneNumberId calls go out from. */
export const vapi: VendorDefinition<'vapi'> = {
  name: 'vapi',
  settings: ['VAPI_API_KEY', 'VAPI_WEBHOOK_SECRET'],
  environmentCredentials: (config) => ({
    connectionId: null, apiKey: config.VAPI_API_KEY!, baseUrl: config.VAPI_BASE_URL, webhookSecret: config.VAPI_WEBHOOK_SECRET ?? null,
    phoneNumberId: config.VAPI_PHONE_NUMBER_ID ?? null, agentId: null, fromNumber: null,
    maxConcurrent: config.VAPI_MAX_CONCURRENT_CALLS, callsPerSecond: config.VAPI_CALLS_PER_SECOND,
  }),
  defaultPacing: (config) => ({ maxConcurrent: config.VAPI_MAX_CONCURRENT_CALLS, callsPerSecond: config.VAPI_CALLS_PER_SECOND }),
  baseUrl: (config) => config.VAPI_BASE_URL,
  connection: {
    required: { webhook_secret: 'the server secret its events are verified with' },
    accepts: ['webhook_secret', 'phone_number_id'],
  },
  createAdapter: ({ credentials, clock }) => new VapiProvider({ credentials, clock }),
};
