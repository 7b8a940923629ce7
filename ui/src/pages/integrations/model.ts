import type { paths } from '../../api/schema';

export type Webhook = paths['/api/v1/integrations/webhooks/']['get']['responses'][200]['content']['application/json']['data'][number];
export type WebhookInput = paths['/api/v1/integrations/webhooks/']['post']['requestBody']['content']['application/json'];
export type Delivery = paths['/api/v1/integrations/webhooks/{id}/deliveries']['get']['responses'][200]['content']['application/json']['data'][number];
export type ContactIntegration = paths['/api/v1/integrations/contact-creation/']['get']['responses'][200]['content']['application/json'][number];

export const webhookName = (w: Pick<Webhook, 'id' | 'name'>) => w.name || `Webhook ${w.id}`;

/** The first characters of a receiver's answer, for an alert or a table cell. */
export const excerpt = (text: string | null | undefined, max = 300) => (!text ? '(empty body)' : text.length > max ? `${text.slice(0, max)}…` : text);
