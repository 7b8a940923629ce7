import type { paths } from '../../api/schema';

export type VoiceConnection = paths['/api/v1/voice-connections/']['get']['responses'][200]['content']['application/json']['data'][number];
export type ConnectionInput = paths['/api/v1/voice-connections/']['post']['requestBody']['content']['application/json'];
export type ConnectionUpdate = paths['/api/v1/voice-connections/{id}']['put']['requestBody']['content']['application/json'];
export type Vendor = VoiceConnection['provider'];

export const VENDORS: { value: Vendor; label: string }[] = [
  { value: 'vapi', label: 'Vapi' },
  { value: 'retell', label: 'Retell' },
  { value: 'twilio', label: 'Twilio (our own agent)' },
];
