import type { Static, TObject, TProperties } from 'typebox';
import type { Clock } from '../shared/clock.ts';
import type { VoiceProvider } from './provider.ts';
import type { Route } from './registry.ts';
import type { VendorCredentials } from './vendor-credentials.ts';

/**
 * Everything the service knows about one voice vendor, in the vendor's own folder
 * (`providers/<vendor>/<vendor>-vendor.ts`) and registered once in vendors.ts. Nothing outside
 * src/voice asks "which vendor is this": it asks the definition. The adapter it creates carries
 * the per-request hooks (signature check, event parsing, inbound answers: VoiceProvider).
 *
 * A definition knows its own settings only (`env`, plus the few every vendor may read,
 * SharedSettings): config.ts builds the service's settings from every definition's `env`, so a
 * definition never imports config.ts.
 */
export interface VendorDefinition<Name extends string = string, Env extends TProperties = TProperties> {
  /** The name of its events route (`/api/v1/voice/<name>/events`), settings and assistants. */
  readonly name: Name;
  /**
   * Its environment settings, each with its schema, default and description (the README's settings
   * table). Options config.ts reads: `secret: true` (never shown in an error), `httpUrlExample` (must
   * be an http(s) URL; the example an error gives).
   */
  readonly env: Env;
  /**
   * The settings the service's own credentials need, all of them: none set = the vendor only
   * through accounts' voice connections; some = a start-up error, as is none for VOICE_PROVIDER.
   */
  readonly settings: readonly string[];
  /** A start-up problem beyond missing settings (a sentence for the config error), or null. */
  startupProblem?(config: ServiceSettings): string | null;
  /** The service's credentials from its settings (called only when `settings` are all set). */
  environmentCredentials(config: ServiceSettings): VendorCredentials;
  /** The service's pacing settings: also the default of a voice connection that leaves its own empty. */
  defaultPacing(config: ServiceSettings): Pacing;
  /** The vendor's API: a voice connection never names a host, so no request of ours goes where an account says. */
  baseUrl(config: ServiceSettings): string;
  /** What a voice connection of this vendor holds besides its name, key and pacing. */
  readonly connection: {
    /** Fields it must have, each with why (the 422's message after "required for <name>: "). */
    readonly required: Partial<Record<ConnectionField, string>>;
    /** Every field it may have (a field of another vendor would be silently unused: a 422 says so). */
    readonly accepts: readonly ConnectionField[];
  };
  /**
   * Where the vendor must send a voice connection's requests (its events_url), when it is not the
   * events route every vendor posts to (registry.routeEventsUrl).
   */
  connectionEventsUrl?(publicBaseUrl: string, route: Route): string;
  /** What an assistant of this vendor lacks, once its connection (if any) is known; null = nothing. */
  assistantProblem?(input: AssistantFacts): { field: string; message: string } | null;
  /** One adapter per set of credentials (the registry keeps one per route). */
  createAdapter(input: AdapterInput): VoiceProvider;
}

export interface Pacing {
  /** Calls in progress at once (0 = no cap). */
  maxConcurrent: number;
  /** Calls started per second (0 = no pacing). */
  callsPerSecond: number;
}

/** `publicBaseUrl`: where a vendor reaches this service (PUBLIC_BASE_URL); Twilio needs it for every call. */
export interface AdapterInput {
  credentials: VendorCredentials;
  clock: Clock;
  publicBaseUrl?: string | undefined;
}

/** The service's settings a vendor may read besides its own `env`. */
export interface SharedSettings {
  VOICE_PROVIDER: string;
  PUBLIC_BASE_URL?: string | undefined;
}

/** The service's settings as a definition's functions are given them: every setting, the vendor's own among them. */
export type ServiceSettings = SharedSettings & Record<string, unknown>;

/** A definition's own settings (`env`, defaults applied) and the shared ones. */
export type VendorConfig<Env extends TProperties> = Static<TObject<Env>> & SharedSettings;

/**
 * Reads a definition's own settings out of the service's: config.ts validated the whole config
 * against a schema that includes `env`, so they are there with their schema's types.
 */
export const settingsOf = <Env extends TProperties>(_env: Env) => (config: ServiceSettings): VendorConfig<Env> => config as VendorConfig<Env>;

export interface AssistantFacts {
  config: ServiceSettings;
  providerAssistantId: string | null;
  /** The agent id of the assistant's voice connection, when it has one. */
  connectionAgentId: string | null;
}

/** The vendor-specific fields of a voice connection, in the order their checks run. */
export const CONNECTION_FIELDS = ['webhook_secret', 'phone_number_id', 'agent_id', 'from_number', 'account_sid'] as const;
export type ConnectionField = (typeof CONNECTION_FIELDS)[number];
