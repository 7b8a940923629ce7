import { Type } from 'typebox';
import type { VoiceProvider } from '../../provider.ts';
import { settingsOf, type VendorDefinition } from '../../vendor-definition.ts';
import { isMachine } from './twilio-events.ts';
import { formOf, TwilioProvider } from './twilio-provider.ts';
import { verifyTwilioSignature } from './twilio-signature.ts';
import { dialTwiml, hangupTwiml, relayTwiml, sayTwiml } from './twilio-twiml.ts';
import { TWILIO_PATH, twilioCallUrls } from './twilio-urls.ts';

/** Its settings (config.ts reads them from here; the README's settings table lists them). */
const env = {
  TWILIO_ACCOUNT_SID: Type.Optional(Type.String({ pattern: '^AC[0-9a-fA-F]{32}$', description: 'Twilio account SID (AC…): calls through Twilio with this service\'s own agent; needs TWILIO_AUTH_TOKEN and PUBLIC_BASE_URL' })),
  TWILIO_AUTH_TOKEN: Type.Optional(Type.String({ minLength: 8, secret: true, description: 'Twilio auth token (Basic auth, and the key Twilio signs its requests with)' })),
  TWILIO_BASE_URL: Type.String({ default: 'https://api.twilio.com', httpUrlExample: 'https://api.twilio.com', description: 'Twilio API base URL (a fake: npm run fake:twilio)' }),
  TWILIO_FROM_NUMBER: Type.Optional(Type.String({ description: 'Twilio number (E.164) calls go out from when the campaign has none' })),
  TWILIO_MAX_CONCURRENT_CALLS: Type.Integer({ minimum: 0, default: 0, description: 'Twilio calls in progress at once for the service\'s account; 0 = no cap (Twilio sets none)' }),
  TWILIO_CALLS_PER_SECOND: Type.Number({ minimum: 0, default: 1, description: 'Twilio calls started per second for the service\'s account (Twilio\'s default: 1); 0 = no pacing' }),
};
const own = settingsOf(env);

const SETTINGS = ['TWILIO_ACCOUNT_SID', 'TWILIO_AUTH_TOKEN'] as const;

/** A Twilio route's adapter as the agent's entry points use it: its URLs, its live-call control, its handshake check. */
export type TwilioCallControl = VoiceProvider & Pick<TwilioProvider, 'route' | 'urls' | 'updateCall' | 'hangup' | 'parseInbound' | 'verifyHandshake' | 'startStream' | 'stopStream'>;

/**
 * What our own agent on Twilio (modules/agent: the TwiML, action and AMD routes, the relay
 * socket, the saved conversation) needs of Twilio. It lives here so that the agent, which is a
 * module, never reaches into this folder.
 */
export interface TwilioAgentPort {
  /** Where Twilio reaches this service: the TwiML, callbacks and the relay socket are under it. */
  path: string;
  /** The provider as a Twilio route's adapter, or null when the route's provider is not Twilio's. */
  adapterOf(provider: VoiceProvider | null): TwilioCallControl | null;
  /** A Twilio request's form parameters. */
  formOf: typeof formOf;
  /** Whether answering-machine detection's AnsweredBy means a machine took the call. */
  isMachine: typeof isMachine;
  /** X-Twilio-Signature's check, for Twilio's other products on the same credentials (Messaging: src/messaging/twilio). */
  verifySignature: typeof verifyTwilioSignature;
  twiml: { relay: typeof relayTwiml; dial: typeof dialTwiml; hangup: typeof hangupTwiml; say: typeof sayTwiml };
}

// Declared with its interface: inferred, its type would reach the registry's and config's through
// TwilioProvider, and config's type is built from every definition's (a circular inference).
const agent: TwilioAgentPort = {
  path: TWILIO_PATH,
  adapterOf: (provider) => (provider instanceof TwilioProvider ? provider : null),
  formOf,
  isMachine,
  verifySignature: verifyTwilioSignature,
  twiml: { relay: relayTwiml, dial: dialTwiml, hangup: hangupTwiml, say: sayTwiml },
};

/**
 * Twilio: the customer's Twilio account dials, this service runs the conversation (our agent
 * over ConversationRelay), so Twilio must reach PUBLIC_BASE_URL for every call.
 */
export const twilio: VendorDefinition<'twilio', typeof env> & { agent: TwilioAgentPort } = {
  name: 'twilio',
  env,
  settings: SETTINGS,
  // Twilio fetches the call's TwiML and opens the conversation socket here: it must reach this service.
  startupProblem: (settings) => (SETTINGS.every((key) => own(settings)[key] !== undefined) && settings.PUBLIC_BASE_URL === undefined
    ? 'twilio needs PUBLIC_BASE_URL: Twilio fetches each call\'s instructions and opens its conversation socket at this service\'s public address (e.g. https://calls.example.com)'
    : null),
  environmentCredentials(settings) {
    const c = own(settings);
    return {
      connectionId: null, apiKey: c.TWILIO_AUTH_TOKEN!, accountSid: c.TWILIO_ACCOUNT_SID!, baseUrl: c.TWILIO_BASE_URL, webhookSecret: null,
      phoneNumberId: null, agentId: null, fromNumber: c.TWILIO_FROM_NUMBER ?? null,
      maxConcurrent: c.TWILIO_MAX_CONCURRENT_CALLS, callsPerSecond: c.TWILIO_CALLS_PER_SECOND,
    };
  },
  defaultPacing: (settings) => ({ maxConcurrent: own(settings).TWILIO_MAX_CONCURRENT_CALLS, callsPerSecond: own(settings).TWILIO_CALLS_PER_SECOND }),
  baseUrl: (settings) => own(settings).TWILIO_BASE_URL,
  connection: {
    required: { account_sid: 'the account SID (AC…) its calls are placed under' },
    accepts: ['from_number', 'account_sid'],
  },
  // Outbound calls carry their own callback URLs; a connection's URL is its numbers' Voice URL (the TwiML).
  connectionEventsUrl: (publicBaseUrl, route) => twilioCallUrls(publicBaseUrl, route, null).twiml,
  assistantProblem: ({ config }) => (config.PUBLIC_BASE_URL
    ? null
    : { field: 'provider', message: 'twilio needs the service\'s PUBLIC_BASE_URL (Twilio fetches each call\'s instructions and opens its conversation socket there); it is unset' }),
  createAdapter: ({ credentials, clock, publicBaseUrl }) => new TwilioProvider({ credentials, clock, publicBaseUrl: publicBaseUrl ?? null }),
  agent,
};
