import { useEffect, useRef } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, multipart, must } from '../../api/client';
import type { Body, Form, Query } from '../../api/types';
import type { ImportTask } from './shared';

/** Contacts: a filtered page, their changes, queueing them for a call, and CSV imports with their tasks. */

export const contactKeys = {
  /** Every page of contacts, whatever its filters: refreshed after any change. */
  lists: ['contacts'] as const,
  page: (query: Query<'list_contacts'>) => ['contacts', query] as const,
  importTasks: ['import-tasks'] as const,
  importTask: (taskId: number) => ['import-task', taskId] as const,
};

export function useContacts(query: Query<'list_contacts'>) {
  return useQuery({
    queryKey: contactKeys.page(query),
    queryFn: () => must(api.GET('/api/v1/contacts/', { params: { query } })),
    placeholderData: keepPreviousData,
  });
}

/**
 * One request for the chosen contacts: the API queues them (due now, the dialer woken) and names
 * those it leaves as they are (in progress, do_not_disturb or paused).
 */
export function useQueueContacts() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (contactIds: number[]) => must(api.POST('/api/v1/contacts/enqueue_calls', { body: { contact_ids: contactIds } })),
    onSuccess: () => void client.invalidateQueries({ queryKey: contactKeys.lists }),
  });
}

/** A new contact (no id) or a change of one. */
export type ContactSave = { id: number; body: Body<'update_contact'> } | { id?: undefined; body: Body<'create_contact'> };

export function useSaveContact() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (save: ContactSave) => (save.id !== undefined
      ? must(api.PUT('/api/v1/contacts/{id}', { params: { path: { id: save.id } }, body: save.body }))
      : must(api.POST('/api/v1/contacts/', { body: save.body }))),
    onSuccess: () => void client.invalidateQueries({ queryKey: contactKeys.lists }),
  });
}

/** Uploads a CSV file as multipart/form-data, the fields before the file, as the API asks. */
export function useCsvImport() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (u: { campaignId: string; file: File; phoneColumn: string; timezoneColumn: string }) => {
      const body = new FormData();
      body.append('campaign_id', u.campaignId);
      body.append('phone_column', u.phoneColumn.trim() || 'phone');
      if (u.timezoneColumn.trim()) body.append('timezone_column', u.timezoneColumn.trim());
      body.append('file', u.file, u.file.name);
      return must(api.POST('/api/v1/contacts/import/csv', multipart<Form<'import_csv'>>(body)));
    },
    onSuccess: () => void client.invalidateQueries({ queryKey: contactKeys.importTasks }),
  });
}

const RUNNING: ImportTask['status'][] = ['pending', 'running'];
export const isRunning = (task: ImportTask) => RUNNING.includes(task.status);

/**
 * An import task, polled every 500 ms while it is pending or running. The contacts' pages are
 * refreshed once when it ends, so the table shows the imported contacts.
 */
export function useImportTask(taskId: number) {
  const client = useQueryClient();
  const task = useQuery({
    queryKey: contactKeys.importTask(taskId),
    queryFn: () => must(api.GET('/api/v1/contacts/bulk/{task_id}', { params: { path: { task_id: taskId } } })),
    refetchInterval: (q) => (!q.state.data || isRunning(q.state.data) ? 500 : false),
  });
  const done = !!task.data && !isRunning(task.data);
  const refreshed = useRef(false);
  useEffect(() => {
    if (done && !refreshed.current) {
      refreshed.current = true;
      void client.invalidateQueries({ queryKey: contactKeys.lists });
    }
  }, [done, client]);
  return task;
}

/** One contact (`enabled` false: the address names no contact). */
export function useContact(id: number, enabled = true) {
  return useQuery({
    enabled,
    queryKey: ['contact', id] as const,
    queryFn: () => must(api.GET('/api/v1/contacts/{id}', { params: { path: { id } } })),
  });
}
