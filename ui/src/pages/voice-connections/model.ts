import { useQuery } from '@tanstack/react-query';
import { api, must } from '../../api/client';
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

/** A page of the account's voice connections (owners only: a sub-user's query is 403, shown by the caller). */
export function useVoiceConnectionsPage(skip: number, limit: number, enabled = true) {
  return useQuery({
    queryKey: ['voice-connections', skip, limit],
    queryFn: () => must(api.GET('/api/v1/voice-connections/', { params: { query: { skip, limit } } })),
    enabled,
    retry: false,
  });
}

/**
 * The connections offered when choosing one for an assistant: the API's largest page (100).
 * An account with more shows the first 100 and says so (see ConnectionSelect).
 */
export const CHOICE_LIMIT = 100;
export const useConnectionChoices = (enabled: boolean) => useVoiceConnectionsPage(0, CHOICE_LIMIT, enabled);
