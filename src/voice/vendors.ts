import type { Clock } from '../shared/clock.ts';
import type { VoiceProvider } from './provider.ts';
import type { VendorCredentials } from './vendor-credentials.ts';

/** The vendor adapters, by the name their events route and settings use. */
export type VendorName = 'vapi' | 'retell';
type VendorFactory = (input: { credentials: VendorCredentials; clock: Clock }) => VoiceProvider;

export const vendorAdapters: Record<VendorName, VendorFactory> = {
  vapi: () => {
    throw new Error('the Vapi adapter is not built yet');
  },
  retell: () => {
    throw new Error('the Retell adapter is not built yet');
  },
};
