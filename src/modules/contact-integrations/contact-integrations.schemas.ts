import { Type, type Static } from 'typebox';
import { DateTime, Id } from '../../http/schemas.ts';

export const DEFAULT_RATE_LIMIT_PER_MINUTE = 600;

const CampaignIds = Type.Array(Id, {
  minItems: 1,
  maxItems: 100,
  uniqueItems: true,
  description: 'campaigns of the account this integration may add contacts to; the first is the default',
});

const settings = {
  name: Type.String({ minLength: 1, maxLength: 200 }),
  campaign_ids: CampaignIds,
  auto_start_calls: Type.Boolean({ default: false, description: 'queue a call for each new contact (a POST JSON body\'s start_call overrides it)' }),
  determine_timezone: Type.Boolean({ default: false, description: 'derive the contact\'s time zone from its phone number (left null when the number maps to several zones)' }),
  rate_limit_per_minute: Type.Integer({
    minimum: 1,
    maximum: 100_000,
    default: DEFAULT_RATE_LIMIT_PER_MINUTE,
    description: 'contacts per minute this token may create or update (fixed one-minute windows; each array item counts); above it: 429 with Retry-After',
  }),
};

export const IntegrationCreate = Type.Object({
  name: settings.name,
  campaign_ids: settings.campaign_ids,
  auto_start_calls: Type.Optional(settings.auto_start_calls),
  determine_timezone: Type.Optional(settings.determine_timezone),
  rate_limit_per_minute: Type.Optional(settings.rate_limit_per_minute),
});
export type IntegrationCreate = Static<typeof IntegrationCreate>;

export const IntegrationUpdate = Type.Object({
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  campaign_ids: Type.Optional(CampaignIds),
  auto_start_calls: Type.Optional(Type.Boolean()),
  determine_timezone: Type.Optional(Type.Boolean()),
  rate_limit_per_minute: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000 })),
});
export type IntegrationUpdate = Static<typeof IntegrationUpdate>;

export const Integration = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  campaign_ids: Type.Array(Type.Integer()),
  auto_start_calls: Type.Boolean(),
  determine_timezone: Type.Boolean(),
  rate_limit_per_minute: Type.Integer(),
  masked_token: Type.String({ description: 'the first characters of the token followed by ****' }),
  created_at: DateTime,
  updated_at: DateTime,
});

export const IntegrationWithToken = Type.Object({
  ...Integration.properties,
  token: Type.String({ description: 'shown only in this answer; only its SHA-256 digest is stored' }),
});
