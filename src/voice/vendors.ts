import type { Clock } from '../shared/clock.ts';
import type { VoiceProvider } from './provider.ts';
import { RetellProvider } from './providers/retell/retell-provider.ts';
import { TwilioProvider } from './providers/twilio/twilio-provider.ts';
import { VapiProvider } from './providers/vapi/vapi-provider.ts';
import type { VendorCredentials } from './vendor-credentials.ts';

/** The vendor adapters, by the name their events route and settings use. */
export type VendorName = 'vapi' | 'retell' | 'twilio';
/** `publicBaseUrl`: where a vendor reaches this service (PUBLIC_BASE_URL); Twilio needs it for every call. */
type VendorFactory = (input: { credentials: VendorCredentials; clock: Clock; publicBaseUrl?: string }) => VoiceProvider;

export const vendorAdapters: Record<VendorName, VendorFactory> = {
  vapi: ({ credentials, clock }) => new VapiProvider({ credentials, clock }),
  retell: ({ credentials, clock }) => new RetellProvider({ credentials, clock }),
  twilio: ({ credentials, clock, publicBaseUrl }) => new TwilioProvider({ credentials, clock, publicBaseUrl: publicBaseUrl ?? null }),
};
