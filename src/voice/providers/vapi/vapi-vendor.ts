import { Type } from 'typebox';
import { settingsOf, type VendorDefinition } from '../../vendor-definition.ts';
import { VapiProvider } from './vapi-provider.ts';

/** Its settings (config.ts reads them from here; the README's settings table lists them). */
const env = {
  VAPI_API_KEY: Type.Optional(Type.String({ minLength: 8, secret: true, description: 'Vapi private API key (Bearer); unset = Vapi only through accounts\' voice connections' })),
  VAPI_BASE_URL: Type.String({ default: 'https://api.vapi.ai', httpUrlExample: 'https://api.vapi.ai', description: 'Vapi API base URL (a fake: npm run fake:vapi)' }),
  VAPI_PHONE_NUMBER_ID: Type.Optional(Type.String({ description: 'Vapi phoneNumberId calls go out from when the campaign\'s number has no provider_number_id' })),
  VAPI_WEBHOOK_SECRET: Type.Optional(Type.String({ minLength: 8, secret: true, description: 'the server secret Vapi sends in X-Vapi-Secret (or signs x-signature with); required with VAPI_API_KEY' })),
  VAPI_MAX_CONCURRENT_CALLS: Type.Integer({ minimum: 0, default: 10, description: 'Vapi calls in progress at once for the service\'s key (Vapi\'s default organisation limit: 10); 0 = no cap' }),
  VAPI_CALLS_PER_SECOND: Type.Number({ minimum: 0, default: 5, description: 'Vapi calls started per second for the service\'s key; 0 = no pacing' }),
};
const own = settingsOf(env);

/** Vapi: runs the AI; the account's key, its server secret and the phoneNumberId calls go out from. */
export const vapi: VendorDefinition<'vapi', typeof env> = {
  name: 'vapi',
  env,
  settings: ['VAPI_API_KEY', 'VAPI_WEBHOOK_SECRET'],
  environmentCredentials(settings) {
    const c = own(settings);
    return {
      connectionId: null, apiKey: c.VAPI_API_KEY!, baseUrl: c.VAPI_BASE_URL, webhookSecret: c.VAPI_WEBHOOK_SECRET ?? null,
      phoneNumberId: c.VAPI_PHONE_NUMBER_ID ?? null, agentId: null, fromNumber: null,
      maxConcurrent: c.VAPI_MAX_CONCURRENT_CALLS, callsPerSecond: c.VAPI_CALLS_PER_SECOND,
    };
  },
  defaultPacing: (settings) => ({ maxConcurrent: own(settings).VAPI_MAX_CONCURRENT_CALLS, callsPerSecond: own(settings).VAPI_CALLS_PER_SECOND }),
  baseUrl: (settings) => own(settings).VAPI_BASE_URL,
  connection: {
    required: { webhook_secret: 'the server secret its events are verified with' },
    accepts: ['webhook_secret', 'phone_number_id'],
  },
  createAdapter: ({ credentials, clock }) => new VapiProvider({ credentials, clock }),
};
