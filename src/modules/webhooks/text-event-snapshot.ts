import { sql } from 'kysely';

/** What the payload is made of, read by the delivery claim (deliveries.repository.ts). */
export interface TextEventSnapshot {
  id: number;
  body: string;
  owner_id: number;
  campaign_id: number;
  campaign_title: string | null;
  contact_id: number;
  contact_phone: string | null;
  contact_data: Record<string, unknown> | null;
  call_id: number | null;
  role_id: string;
  source: string;
  status: string;
  from_number: string | null;
  to_number: string | null;
  provider: string;
  provider_message_id: string | null;
  created_at: string;
}

/** The SQL expression (over messages m, contacts mc, campaigns mcp) the claim selects as the snapshot. */
export const TEXT_EVENT_JSON = sql<TextEventSnapshot | null>`CASE WHEN m.id IS NULL THEN NULL ELSE json_build_object(
  'id', m.id, 'body', m.body, 'owner_id', m.owner_id, 'campaign_id', m.campaign_id, 'campaign_title', mcp.title,
  'contact_id', m.contact_id, 'contact_phone', mc.phone_number, 'contact_data', mc.contact_data, 'call_id', m.call_id,
  'role_id', m.role_id, 'source', m.source, 'status', m.status, 'from_number', m.from_number, 'to_number', m.to_number,
  'provider', m.provider, 'provider_message_id', m.provider_message_id, 'created_at', m.created_at) END`;
