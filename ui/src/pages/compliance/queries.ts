import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, must } from '../../api/client';
import type { AuditKind, ComplianceSettings, SuppressionSource } from './model';

/** Query hooks named after the resources; components hold no fetch logic. */

export type SuppressionQuery = { skip: number; limit: number; phone_number?: string; source?: SuppressionSource[]; include_expired?: boolean };

export function useSuppressions(query: SuppressionQuery) {
  return useQuery({
    queryKey: ['suppressions', query],
    queryFn: () => must(api.GET('/api/v1/suppressions/', { params: { query } })),
    placeholderData: keepPreviousData,
  });
}

export function useAddSuppression() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: { phone_number: string; reason?: string; expires_at?: string }) => must(api.POST('/api/v1/suppressions/', { body })),
    onSuccess: () => client.invalidateQueries({ queryKey: ['suppressions'] }),
  });
}

export function useRemoveSuppression() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => must(api.DELETE('/api/v1/suppressions/{id}', { params: { path: { id } } })),
    onSuccess: () => client.invalidateQueries({ queryKey: ['suppressions'] }),
  });
}

export function useLookup() {
  return useMutation({
    mutationFn: (phone: string) => must(api.GET('/api/v1/suppressions/lookup', { params: { query: { phone_number: phone } } })),
  });
}

/** The API answers the upload once its task has ended, so the answer is the finished task. */
export function useCsvUpload() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (file: File) => {
      const body = new FormData();
      body.append('file', file, file.name);
      return must(api.POST('/api/v1/suppressions/import/csv', {
        // openapi-fetch sends a FormData body as is (the browser sets the multipart boundary).
        body: body as unknown as { file: string },
        bodySerializer: (b) => b as unknown as FormData,
      }));
    },
    onSuccess: () => client.invalidateQueries({ queryKey: ['suppressions'] }),
  });
}

export function useComplianceSettings() {
  return useQuery({ queryKey: ['compliance-settings'], queryFn: () => must(api.GET('/api/v1/compliance/settings')) });
}

export function useSaveComplianceSettings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: ComplianceSettings) => must(api.PUT('/api/v1/compliance/settings', { body })),
    onSuccess: (saved) => {
      client.setQueryData(['compliance-settings'], saved);
      void client.invalidateQueries({ queryKey: ['audit-events'] });
    },
  });
}

export type AuditQuery = { skip: number; limit: number; kind?: AuditKind[]; actor?: string; since?: string; until?: string };

export function useAuditEvents(query: AuditQuery) {
  return useQuery({
    queryKey: ['audit-events', query],
    queryFn: () => must(api.GET('/api/v1/audit-events/', { params: { query } })),
    placeholderData: keepPreviousData,
  });
}
