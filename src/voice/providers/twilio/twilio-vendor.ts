import type { VoiceProvider } from '../../provider.ts';
import type { VendorDefinition } from '../../vendor-definition.ts';
import { isMachine } from './twilio-events.ts';
import { formOf, TwilioProvider } from './twilio-provider.ts';
import { dialTwiml, hangupTwiml, relayTwiml, sayTwiml } from './twilio-twiml.ts';
import { TWILIO_PATH, twilioCallUrls } from './twilio-urls.ts';

const SETTINGS = ['TWILIO_ACCOUNT_SID', 'TWILIO_AUTH_TOKEN'] as const;

/** A Twilio route's adapter as the agent's entry points use it: its URLs, its live-call control, its handshake check. */
export type TwilioCallControl = VoiceProvider & Pick<TwilioProvider, 'route' | 'urls' | 'updateCall' | 'hangup' | 'parseInbound' | 'verifyHandshake'>;

/**
 * What our own agent on Twilio (modules/agent: the TwiML, action and AMD routes, the relay
 * socket, the saved conversation) needs of Twilio. It lives here so that the agent, which is a
 * module, never reaches into this folder.
 */
const agent = {
  /** Where Twilio reaches this service: the TwiML, callbacks and the relay socket are under it. */
  path: TWILIO_PATH,
  /** The provider as a Twilio route's adapter, or null when the route's provider is not Twilio's. */
  adapterOf: (provider: VoiceProvider | null): TwilioCallControl | null => (provider instanceof TwilioProvider ? provider : null),
  /** A Twilio request's form parameters. */
  formOf,
  /** Whether answering-machine detection's AnsweredBy means a machine took the call. */
  isMachine,
  twiml: { relay: relayTwiml, dial: dialTwiml, hangup: hangupTwiml, say: sayTwiml },
};

/**
 * Twilio: the customer's Twilio account dials, this service runs the conversation (our agent
 * over ConversationRelay), so Twilio must reach PUBLIC_BASE_URL for every call.
 */
export const twilio: VendorDefinition<'twilio'> & { agent: typeof agent } = {
  name: 'twilio',
  settings: SETTINGS,
  // Twilio fetches the call's TwiML and opens the conversation socket here: it must reach this service.
  startupProblem: (config) => (SETTINGS.every((key) => config[key] !== undefined) && config.PUBLIC_BASE_URL === undefined
    ? 'twilio needs PUBLIC_BASE_URL: Twilio fetches each call\'s instructions and opens its conversation socket at this service\'s public address (e.g. https://calls.example.com)'
    : null),
  environmentCredentials: (config) => ({
    connectionId: null, apiKey: config.TWILIO_AUTH_TOKEN!, accountSid: config.TWILIO_ACCOUNT_SID!, baseUrl: config.TWILIO_BASE_URL, webhookSecret: null,
    phoneNumberId: null, agentId: null, fromNumber: config.TWILIO_FROM_NUMBER ?? null,
    maxConcurrent: config.TWILIO_MAX_CONCURRENT_CALLS, callsPerSecond: config.TWILIO_CALLS_PER_SECOND,
  }),
  defaultPacing: (config) => ({ maxConcurrent: config.TWILIO_MAX_CONCURRENT_CALLS, callsPerSecond: config.TWILIO_CALLS_PER_SECOND }),
  baseUrl: (config) => config.TWILIO_BASE_URL,
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
