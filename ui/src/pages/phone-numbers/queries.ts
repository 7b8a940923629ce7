import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, must } from '../../api/client';
import type { Body } from '../../api/types';

/** Phone numbers' health (GET /api/v1/phone-numbers/health) and the owner's rest / end of rest. */

export const phoneNumberKeys = {
  /** Every page of numbers' health: refreshed after a rest or its end. */
  health: ['phone-numbers', 'health'] as const,
  healthPage: (skip: number, limit: number) => ['phone-numbers', 'health', skip, limit] as const,
  settings: ['phone-numbers', 'health-settings'] as const,
};

/** A page of the numbers with their health; refreshed every minute, as the worker judges every 5. */
export function useNumberHealthPage(skip: number, limit: number) {
  return useQuery({
    queryKey: phoneNumberKeys.healthPage(skip, limit),
    queryFn: () => must(api.GET('/api/v1/phone-numbers/health', { params: { query: { skip, limit } } })),
    refetchInterval: 60_000,
  });
}

export function useNumberHealthSettings() {
  return useQuery({ queryKey: phoneNumberKeys.settings, queryFn: () => must(api.GET('/api/v1/phone-numbers/health-settings')) });
}

/** Rests a number (rest true) or ends its rest (false); owner only (a sub-user's 403 is the mutation's error). */
export function useRestNumber() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, rest }: { id: number; rest: boolean }) => (rest
      ? must(api.POST('/api/v1/phone-numbers/{id}/rest', { params: { path: { id } } }))
      : must(api.POST('/api/v1/phone-numbers/{id}/unrest', { params: { path: { id } } }))),
    onSuccess: () => void client.invalidateQueries({ queryKey: phoneNumberKeys.health }),
  });
}

/** Saves the owner's rule (a partial update; the API answers the whole rule). */
export function useSaveNumberHealthSettings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: Body<'update_phone_number_health_settings'>) => must(api.PUT('/api/v1/phone-numbers/health-settings', { body })),
    onSuccess: (saved) => {
      client.setQueryData(phoneNumberKeys.settings, saved);
      // Switching it off ends every rest.
      void client.invalidateQueries({ queryKey: phoneNumberKeys.health });
    },
  });
}
