import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, multipart, must } from '../../api/client';
import type { Body, Form, Query } from '../../api/types';

/** Compliance: the do-not-call list (with lookups and CSV uploads), the quiet hours and caps, and the audit log. */

export const complianceKeys = {
  /** Every page of the do-not-call list: refreshed after any change of it. */
  suppressions: ['suppressions'] as const,
  suppressionsPage: (query: Query<'list_suppressions'>) => ['suppressions', query] as const,
  settings: ['compliance-settings'] as const,
  capacity: ['call-capacity'] as const,
  /** Every page of the audit log: a change of the settings is a new event in it. */
  auditEvents: ['audit-events'] as const,
  auditEventsPage: (query: Query<'list_audit_events'>) => ['audit-events', query] as const,
};

export function useSuppressions(query: Query<'list_suppressions'>) {
  return useQuery({
    queryKey: complianceKeys.suppressionsPage(query),
    queryFn: () => must(api.GET('/api/v1/suppressions/', { params: { query } })),
    placeholderData: keepPreviousData,
  });
}

export function useAddSuppression() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: Body<'add_suppression'>) => must(api.POST('/api/v1/suppressions/', { body })),
    onSuccess: () => client.invalidateQueries({ queryKey: complianceKeys.suppressions }),
  });
}

export function useRemoveSuppression() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => must(api.DELETE('/api/v1/suppressions/{id}', { params: { path: { id } } })),
    onSuccess: () => client.invalidateQueries({ queryKey: complianceKeys.suppressions }),
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
      return must(api.POST('/api/v1/suppressions/import/csv', multipart<Form<'import_suppressions_csv'>>(body)));
    },
    onSuccess: () => client.invalidateQueries({ queryKey: complianceKeys.suppressions }),
  });
}

export function useComplianceSettings() {
  return useQuery({ queryKey: complianceKeys.settings, queryFn: () => must(api.GET('/api/v1/compliance/settings')) });
}

export function useSaveComplianceSettings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: Body<'update_compliance_settings'>) => must(api.PUT('/api/v1/compliance/settings', { body })),
    onSuccess: (saved) => {
      client.setQueryData(complianceKeys.settings, saved);
      void client.invalidateQueries({ queryKey: complianceKeys.auditEvents });
    },
  });
}

export function useCallCapacity() {
  return useQuery({ queryKey: complianceKeys.capacity, queryFn: () => must(api.GET('/api/v1/compliance/capacity')) });
}

export function useSaveCallCapacity() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: Body<'update_call_capacity'>) => must(api.PUT('/api/v1/compliance/capacity', { body })),
    onSuccess: (saved) => {
      client.setQueryData(complianceKeys.capacity, saved);
      void client.invalidateQueries({ queryKey: complianceKeys.auditEvents });
    },
  });
}

export function useAuditEvents(query: Query<'list_audit_events'>) {
  return useQuery({
    queryKey: complianceKeys.auditEventsPage(query),
    queryFn: () => must(api.GET('/api/v1/audit-events/', { params: { query } })),
    placeholderData: keepPreviousData,
  });
}

/** Privacy: the account's retention of personal data, and one person's export and erasure (owner only). */
export const privacyKeys = { settings: ['privacy-settings'] as const, redaction: ['privacy-redaction'] as const };

export function usePrivacySettings() {
  return useQuery({ queryKey: privacyKeys.settings, queryFn: () => must(api.GET('/api/v1/privacy/settings')) });
}

export function useSavePrivacySettings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: Body<'update_privacy_settings'>) => must(api.PUT('/api/v1/privacy/settings', { body })),
    onSuccess: (saved) => {
      client.setQueryData(privacyKeys.settings, saved);
      void client.invalidateQueries({ queryKey: complianceKeys.auditEvents });
    },
  });
}

export function useRedactionSettings() {
  return useQuery({ queryKey: privacyKeys.redaction, queryFn: () => must(api.GET('/api/v1/privacy/redaction')) });
}

export function useSaveRedactionSettings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: Body<'update_redaction_settings'>) => must(api.PUT('/api/v1/privacy/redaction', { body })),
    onSuccess: (saved) => {
      client.setQueryData(privacyKeys.redaction, saved);
      void client.invalidateQueries({ queryKey: complianceKeys.auditEvents });
    },
  });
}

export function useExportPerson() {
  return useMutation({ mutationFn: (body: Body<'export_person'>) => must(api.POST('/api/v1/privacy/exports', { body })) });
}

/** An erasure changes the do-not-call list (the number stays as its hash) and the audit log. */
export function useErasePerson() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: Body<'erase_person'>) => must(api.POST('/api/v1/privacy/erasures', { body })),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: complianceKeys.suppressions });
      void client.invalidateQueries({ queryKey: complianceKeys.auditEvents });
    },
  });
}
