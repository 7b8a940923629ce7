import type { Config } from '../config.ts';
import type { Clock } from '../shared/clock.ts';
import type { DefaultVoiceProvider, VoiceProvider } from './provider.ts';
import { webhookSecret } from './signature.ts';
import { SimProvider } from './providers/sim.ts';
import type { VendorCredentials } from './vendor-credentials.ts';
import { isVendorName, vendor, vendorSettingsMissing, type VendorName } from './vendors.ts';

/** A connection's credentials in the clear (modules/voice-connections opens them; connection-loader.ts adds the vendor's defaults). */
export type ConnectionCredentials = VendorCredentials & { provider: string; ownerId: number };
export type ConnectionLoader = (connectionId: number) => Promise<ConnectionCredentials | null>;

const CONNECTION_TTL_MS = 30_000;

export interface Route {
  provider: string;
  connectionId: number | null;
}

export const routeKey = (route: Route) => (route.connectionId === null ? route.provider : `${route.provider}#${route.connectionId}`);

/**
 * Where a vendor posts a route's events: this service's events route, with the voice connection
 * whose credentials verify them. Null without PUBLIC_BASE_URL (the vendor's own configured URL applies).
 */
export function routeEventsUrl(publicBaseUrl: string | undefined, route: Route): string | null {
  if (!publicBaseUrl) return null;
  const query = route.connectionId === null ? '' : `?connection=${route.connectionId}`;
  return `${publicBaseUrl.replace(/\/+$/, '')}/api/v1/voice/${route.provider}/events${query}`;
}

/** The URL a vendor requested, as it signed it (Twilio does): the public base and the request's own path and query. */
export function requestedUrl(publicBaseUrl: string, pathAndQuery: string): string {
  return publicBaseUrl.replace(/\/+$/, '') + pathAndQuery;
}

export class VoiceNotConfiguredError extends Error {}

export interface VoiceRegistry {
  /** The provider of a route; throws VoiceNotConfiguredError when it cannot be used (no settings, connection gone). */
  forRoute(route: Route): Promise<VoiceProvider>;
  /** Every adapter created so far (closed with the process). */
  created(): VoiceProvider[];
  close(): void;
}

/** The environment's credentials of a vendor, or null when its settings are missing. */
export function environmentCredentials(config: Config, name: VendorName): VendorCredentials | null {
  if (vendorSettingsMissing(config, name).length > 0) return null;
  return vendor(name).environmentCredentials(config);
}

/**
 * Voice providers by route. A route is a provider name and, for an account's own vendor
 * credentials, its voice connection: `vapi` (the environment's Vapi key) or `vapi#12`
 * (connection 12's). Each route has one adapter instance per process, created on first use
 * by its vendor's definition (vendors.ts);
 * a connection's is re-read after CONNECTION_TTL_MS so a rotated key takes effect.
 */
export function createVoiceRegistry(input: {
  config: Config;
  clock: Clock;
  loadConnection: ConnectionLoader;
}): VoiceRegistry {
  const environment = new Map<string, VoiceProvider>();
  const connections = new Map<number, { provider: VoiceProvider; loadedAt: number }>();
  const all = new Set<VoiceProvider>();

  function fromEnvironment(name: string): VoiceProvider {
    let provider = environment.get(name);
    if (provider) return provider;
    if (name === 'sim') {
      provider = createSimProvider(input.config, input.clock);
    } else if (isVendorName(name)) {
      const credentials = environmentCredentials(input.config, name);
      if (!credentials) throw new VoiceNotConfiguredError(`${name} is not configured: set ${vendorSettingsMissing(input.config, name).join(' and ')}, or give the assistant a voice connection`);
      provider = vendor(name).createAdapter({ credentials, clock: input.clock, publicBaseUrl: input.config.PUBLIC_BASE_URL });
    } else {
      throw new VoiceNotConfiguredError(`unknown voice provider '${name}'`);
    }
    environment.set(name, provider);
    all.add(provider);
    return provider;
  }

  async function fromConnection(name: string, id: number): Promise<VoiceProvider> {
    const cached = connections.get(id);
    if (cached && input.clock.now().getTime() - cached.loadedAt < CONNECTION_TTL_MS) return cached.provider;
    const credentials = await input.loadConnection(id);
    if (!credentials || credentials.provider !== name || !isVendorName(name)) throw new VoiceNotConfiguredError(`voice connection ${id} (${name}) does not exist`);
    const provider = vendor(name).createAdapter({ credentials, clock: input.clock, publicBaseUrl: input.config.PUBLIC_BASE_URL });
    cached?.provider.close?.();
    if (cached) all.delete(cached.provider);
    connections.set(id, { provider, loadedAt: input.clock.now().getTime() });
    all.add(provider);
    return provider;
  }

  return {
    forRoute: async (route) => (route.connectionId === null ? fromEnvironment(route.provider) : fromConnection(route.provider, route.connectionId)),
    created: () => [...all],
    close() {
      for (const provider of all) provider.close?.();
      all.clear();
      environment.clear();
      connections.clear();
    },
  };
}

/**
 * The provider of a route: the process's default provider (deps.voice, which tests may swap)
 * for VOICE_PROVIDER with the environment's credentials, else the registry's instance.
 */
export async function providerFor(deps: { voice: DefaultVoiceProvider; voices: VoiceRegistry; config: Config }, route: Route): Promise<VoiceProvider> {
  if (route.connectionId === null && route.provider === deps.config.VOICE_PROVIDER) return deps.voice;
  return deps.voices.forRoute(route);
}

export function createSimProvider(config: Config, clock: Clock): SimProvider {
  return new SimProvider({ secret: webhookSecret(config), clock, timeScale: config.SIM_TIME_SCALE, seed: config.SIM_SEED, publicBaseUrl: config.PUBLIC_BASE_URL });
}

/** The provider VOICE_PROVIDER names, with the environment's credentials (checked at start-up by loadConfig). */
export function createVoiceProvider(config: Config, clock: Clock): DefaultVoiceProvider {
  if (config.VOICE_PROVIDER === 'sim') return createSimProvider(config, clock);
  const credentials = environmentCredentials(config, config.VOICE_PROVIDER);
  if (!credentials) throw new Error(`VOICE_PROVIDER=${config.VOICE_PROVIDER} needs ${vendorSettingsMissing(config, config.VOICE_PROVIDER).join(' and ')}`);
  return vendor(config.VOICE_PROVIDER).createAdapter({ credentials, clock, publicBaseUrl: config.PUBLIC_BASE_URL });
}
