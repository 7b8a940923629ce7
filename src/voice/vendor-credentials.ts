/**
 * One set of a vendor's credentials: the service's (from the environment, connectionId null) or
 * an account's voice connection (modules/voice-connections, opened from its sealed columns).
 * A vendor adapter instance holds exactly one; the registry keeps one instance per set.
 */
export interface VendorCredentials {
  /** The account's voice connection these came from; null = the service's own (environment). */
  connectionId: number | null;
  apiKey: string;
  baseUrl: string;
  /** Vapi: the server secret its requests carry (X-Vapi-Secret) or sign with (x-signature). Retell signs with the API key. */
  webhookSecret: string | null;
  /** Vapi: the phoneNumberId calls go out from when the campaign's number has none. */
  phoneNumberId: string | null;
  /** Retell: the agent of calls whose assistant names none. */
  agentId: string | null;
  /** Twilio: the account SID (the auth token is apiKey). */
  accountSid?: string | null;
  /** Retell and Twilio: the number calls go out from when the campaign has none. */
  fromNumber: string | null;
  /** Calls in progress at once on these credentials (0 = no cap). */
  maxConcurrent: number;
  /** Calls started per second on these credentials (0 = no pacing). */
  callsPerSecond: number;
}
