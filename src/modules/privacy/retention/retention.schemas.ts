import { Type, type Static } from 'typebox';
import { DateTime, Nullable } from '../../../http/schemas.ts';

/** The retention settings as GET/PUT /api/v1/privacy/settings and /api/v1/campaigns/{id}/privacy read and write them. */

export const RETENTION_DOC =
  'Retention: personal data is kept retention_days after a call ends (a text is sent, a webhook delivery is made), then a background job ' +
  '(every PRIVACY_PURGE_EVERY_MS, an hour by default) empties it: a call\'s transcript, summary, analysis, extracted data, whispers, its copy of the contact\'s data ' +
  'and its recording link; our agent\'s conversation; a text\'s words; a webhook delivery\'s payload and the receiver\'s answer. What analytics and the law need ' +
  'stays: statuses, times, durations, costs, outcomes, numbers, the provider and why a call ended (call_data keeps provider, assistant_id, caller_id, recording (the rule and the consent), ' +
  'ended_reason, provider_call_id, ref, and the opt-out\'s and operator\'s acts without their words). An emptied row carries personal_data_purged_at; ' +
  'each run that emptied anything writes privacy.retention_purged to the audit trail with the counts. Calls in progress and texts being sent are never ' +
  'touched; rows inside their retention are never touched. The contacts stay (erasing a person is its own operation). null: kept until deleted (the default).';

const RetentionDays = Nullable(Type.Integer({ minimum: 1, maximum: 36500 }), {
  description: 'days personal data is kept, from 1 to 36500; null: kept until deleted',
});

export const PrivacySettings = Type.Object({
  retention_days: RetentionDays,
  updated_at: Nullable(DateTime, { description: 'when the settings were last saved; null: never' }),
});
export type PrivacySettings = Static<typeof PrivacySettings>;

export const PrivacySettingsUpdate = Type.Object({ retention_days: RetentionDays }, { additionalProperties: false });
export type PrivacySettingsUpdate = Static<typeof PrivacySettingsUpdate>;

export const CampaignPrivacy = Type.Object({
  campaign_id: Type.Integer(),
  retention_days: Nullable(Type.Integer({ minimum: 1, maximum: 36500 }), { description: 'the campaign\'s own retention; null: the account\'s applies' }),
  account_retention_days: Nullable(Type.Integer(), { description: 'the account\'s retention (GET /api/v1/privacy/settings)' }),
  effective_retention_days: Nullable(Type.Integer(), { description: 'what applies to the campaign\'s data: the shorter of its own and the account\'s; null: kept' }),
  updated_at: Nullable(DateTime, { description: 'when the campaign\'s setting was last saved; null: never' }),
});
export type CampaignPrivacy = Static<typeof CampaignPrivacy>;

export const CampaignPrivacyUpdate = Type.Object({
  retention_days: Nullable(Type.Integer({ minimum: 1, maximum: 36500 }), { description: 'the campaign\'s own retention, from 1 to 36500 days; null: the account\'s applies' }),
}, { additionalProperties: false });
export type CampaignPrivacyUpdate = Static<typeof CampaignPrivacyUpdate>;
