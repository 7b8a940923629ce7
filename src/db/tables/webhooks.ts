// Tables added by the webhooks migration. Column types follow ./foundation.ts (Json columns take JSON text on write).
export interface WebhooksTables {}
