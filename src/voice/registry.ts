import type { Config } from '../config.ts';
import type { Clock } from '../shared/clock.ts';
import type { VoiceProvider } from './provider.ts';
import { webhookSecret } from './signature.ts';
import { SimProvider } from './providers/sim.ts';

type Factory = (input: { config: Config; clock: Clock }) => VoiceProvider;

/** Voice drivers by VOICE_PROVIDER name; vendor adapters are added here. */
export const voiceProviders = {
  sim: ({ config, clock }) => new SimProvider({ secret: webhookSecret(config), clock, timeScale: config.SIM_TIME_SCALE, seed: config.SIM_SEED }),
} satisfies Record<string, Factory>;

export function createVoiceProvider(config: Config, clock: Clock): VoiceProvider {
  const factory = (voiceProviders as Record<string, Factory>)[config.VOICE_PROVIDER];
  if (!factory) throw new Error(`Unknown VOICE_PROVIDER '${config.VOICE_PROVIDER}' (known: ${Object.keys(voiceProviders).join(', ')})`);
  return factory({ config, clock });
}
