import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, must } from '../../api/client';
import type { Body } from '../../api/types';

/** Integrations: post-call webhooks (with their delivery logs) and contact-creation integrations. */

export const integrationKeys = {
  /** Every page of webhooks: refreshed after any change of one. */
  webhooks: ['webhooks'] as const,
  webhooksPage: (page: number) => ['webhooks', page] as const,
  /** Every page of one webhook's delivery log. */
  deliveries: (webhookId: number) => ['deliveries', webhookId] as const,
  deliveriesPage: (webhookId: number, page: number) => ['deliveries', webhookId, page] as const,
  contactIntegrations: ['contact-integrations'] as const,
};

export function useWebhooksPage(page: number, pageSize: number) {
  return useQuery({
    queryKey: integrationKeys.webhooksPage(page),
    queryFn: () => must(api.GET('/api/v1/integrations/webhooks/', { params: { query: { skip: (page - 1) * pageSize, limit: pageSize } } })),
  });
}

/** A new webhook; the answer carries its signing secret, shown once. */
export function useCreateWebhook() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: Body<'create_webhook_integration'>) => must(api.POST('/api/v1/integrations/webhooks/', { body })),
    onSuccess: () => void client.invalidateQueries({ queryKey: integrationKeys.webhooks }),
  });
}

export function useChangeWebhook() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: Body<'change_webhook_integration'> }) => must(api.PUT('/api/v1/integrations/webhooks/{id}', { params: { path: { id } }, body })),
    onSuccess: () => void client.invalidateQueries({ queryKey: integrationKeys.webhooks }),
  });
}

/** Sends a test request to the webhook's receiver; the answer is the delivery it made. */
export function useSendWebhookTest() {
  return useMutation({
    mutationFn: (id: number) => must(api.POST('/api/v1/integrations/webhooks/{id}/test', { params: { path: { id } }, body: {} })),
  });
}

/** A new signing secret, answered once. */
export function useRotateSigningSecret() {
  return useMutation({
    mutationFn: (id: number) => must(api.POST('/api/v1/integrations/webhooks/{id}/signing-secret', { params: { path: { id } } })),
  });
}

export function useDeleteWebhook() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => must(api.DELETE('/api/v1/integrations/webhooks/{id}', { params: { path: { id } } })),
    onSuccess: () => void client.invalidateQueries({ queryKey: integrationKeys.webhooks }),
  });
}

/** A webhook's delivery log, newest first; every 3 s while a delivery on the page is pending. */
export function useDeliveriesPage(webhookId: number, page: number, pageSize: number) {
  return useQuery({
    queryKey: integrationKeys.deliveriesPage(webhookId, page),
    queryFn: () => must(api.GET('/api/v1/integrations/webhooks/{id}/deliveries', { params: { path: { id: webhookId }, query: { skip: (page - 1) * pageSize, limit: pageSize } } })),
    refetchInterval: (q) => (q.state.data?.data.some((d) => d.status === 'pending') ? 3000 : false),
  });
}

export function useRedeliver(webhookId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (deliveryId: number) => must(api.POST('/api/v1/integrations/webhooks/{id}/deliveries/{delivery_id}/redeliver', { params: { path: { id: webhookId, delivery_id: deliveryId } } })),
    onSuccess: () => client.invalidateQueries({ queryKey: integrationKeys.deliveries(webhookId) }),
  });
}

export function useContactIntegrations() {
  return useQuery({ queryKey: integrationKeys.contactIntegrations, queryFn: () => must(api.GET('/api/v1/integrations/contact-creation/')) });
}

/** A new contact-creation integration; the answer carries its token, shown once. */
export function useCreateContactIntegration() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: Body<'create_integration'>) => must(api.POST('/api/v1/integrations/contact-creation/', { body })),
    onSuccess: () => void client.invalidateQueries({ queryKey: integrationKeys.contactIntegrations }),
  });
}
