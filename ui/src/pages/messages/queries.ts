import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, must } from '../../api/client';
import type { Answer, Body } from '../../api/types';

/** Text messages: a filtered page, a contact's timeline and queue, sending and drafting, a campaign's text settings. */

export type TextMessage = Answer<'read_message'>;
export type TimelineItem = Answer<'read_contact_timeline'>['data'][number];
export type MessageJob = Answer<'list_message_jobs'>['data'][number];
export type MessagingSettings = Answer<'read_campaign_messaging'>;
export type Draft = Answer<'draft_message'>;

export const messageKeys = {
  /** Every page of texts, whatever its filters: refreshed after a send. */
  lists: ['messages'] as const,
  page: (query: string) => ['messages', query] as const,
  timeline: (contactId: number) => ['contact-timeline', contactId] as const,
  jobs: (contactId: number) => ['message-jobs', contactId] as const,
  settings: (campaignId: number) => ['campaign-messaging', campaignId] as const,
};

/**
 * A page of texts for the URL's filters (`query`: their JSON). Live every 5 s: delivery reports
 * arrive after the send, and a status changing from Sent to Delivered is what a person waits for.
 */
export function useMessagesPage(query: string) {
  return useQuery({
    queryKey: messageKeys.page(query),
    queryFn: () => must(api.GET('/api/v1/messages/', { params: { query: JSON.parse(query) as never } })),
    placeholderData: keepPreviousData,
    refetchInterval: 5000,
  });
}

/** A contact's calls and texts, oldest first; every 3 s while a text of it is on its way. */
export function useContactTimeline(contactId: number) {
  return useQuery({
    queryKey: messageKeys.timeline(contactId),
    queryFn: () => must(api.GET('/api/v1/contacts/{id}/timeline', { params: { path: { id: contactId } } })),
    refetchInterval: (q) => (q.state.data?.data.some((i) => i.message && ['sending', 'queued', 'sent'].includes(i.message.message_data.status)) ? 3000 : 10000),
  });
}

/** The contact's texts waiting in the queue (and why), every 3 s while any waits. */
export function useContactJobs(contactId: number) {
  return useQuery({
    queryKey: messageKeys.jobs(contactId),
    queryFn: () => must(api.GET('/api/v1/message-jobs/', { params: { query: { contact_id: contactId, status: ['pending', 'claimed'], limit: 20 } } })),
    refetchInterval: (q) => ((q.state.data?.data.length ?? 0) > 0 ? 3000 : false),
  });
}

/** An operator's text: queued (202), the contact's timeline and queue refreshed. */
export function useSendText(contactId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (message: string) => must(api.POST('/api/v1/messages/', { body: { contact_id: contactId, message } })),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: messageKeys.jobs(contactId) });
      void client.invalidateQueries({ queryKey: messageKeys.timeline(contactId) });
      void client.invalidateQueries({ queryKey: messageKeys.lists });
    },
  });
}

/** A text written by the service (the LLM or the template), not sent. */
export function useDraftText() {
  return useMutation({ mutationFn: (body: Body<'draft_message'>) => must(api.POST('/api/v1/messages/draft', { body })) });
}

export function useCampaignMessaging(campaignId: number) {
  return useQuery({
    queryKey: messageKeys.settings(campaignId),
    queryFn: () => must(api.GET('/api/v1/campaigns/{id}/messaging', { params: { path: { id: campaignId } } })),
  });
}

export function useSaveCampaignMessaging(campaignId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: Body<'update_campaign_messaging'>) => must(api.PUT('/api/v1/campaigns/{id}/messaging', { params: { path: { id: campaignId } }, body })),
    onSuccess: (saved) => client.setQueryData(messageKeys.settings(campaignId), saved),
  });
}

/** A contact of the campaign to preview its texts with: its newest (none: no preview). */
export async function sampleContactOf(campaignId: number): Promise<number | null> {
  const page = await must(api.GET('/api/v1/contacts/campaign/{campaign_id}', { params: { path: { campaign_id: campaignId }, query: { limit: 1 } } }));
  return page.data[0]?.id ?? null;
}
