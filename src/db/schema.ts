import type { AnalyticsTables } from './tables/analytics.ts';
import type { ApiKeysTables } from './tables/api-keys.ts';
import type { AuditTables } from './tables/audit.ts';
import type { BreakerTables } from './tables/breaker.ts';
import type { MessagingTables } from './tables/messaging.ts';
import type { AuthTables } from './tables/auth.ts';
import type { CallsTables } from './tables/calls.ts';
import type { CampaignsTables } from './tables/campaigns.ts';
import type { ComplianceTables } from './tables/compliance.ts';
import type { ContactIntegrationsTables } from './tables/contact-integrations.ts';
import type { ContactsTables } from './tables/contacts.ts';
import type { DashboardSessionsTables } from './tables/dashboard-sessions.ts';
import type { DialerTables } from './tables/dialer.ts';
import type { ImportsTables } from './tables/imports.ts';
import type { PhoneNumbersTables } from './tables/phone-numbers.ts';
import type { SubUsersTables } from './tables/sub-users.ts';
import type { UsersTables } from './tables/users.ts';
import type { VoiceTables } from './tables/voice.ts';
import type { WebhooksTables } from './tables/webhooks.ts';
import type { LiveTables } from './tables/live.ts';
import type { PrivacyTables } from './tables/privacy.ts';
import type { SipTrunksTables } from './tables/sip-trunks.ts';
import type { QualityScenariosTables } from './tables/quality-scenarios.ts';
import type { ExperimentsTables } from './tables/experiments.ts';
import type { QualityTables } from './tables/quality.ts';

export type * from './tables/column-types.ts';
export type * from './tables/calls.ts';
export type * from './tables/campaigns.ts';
export type * from './tables/contacts.ts';
export type * from './tables/phone-numbers.ts';
export type * from './tables/sub-users.ts';
export type * from './tables/users.ts';

/**
 * Kysely's view of every table. Each module's tables live in ./tables/<module>.ts, named as
 * its folder under src/modules (the migrations that create them are history, named by when).
 */
export interface Database
  extends UsersTables, AuthTables, SubUsersTables, ApiKeysTables, CampaignsTables, PhoneNumbersTables, ContactsTables, CallsTables,
    DialerTables, ImportsTables, ContactIntegrationsTables, WebhooksTables, AnalyticsTables, VoiceTables,
    DashboardSessionsTables, AuditTables, ComplianceTables, MessagingTables, LiveTables, BreakerTables, PrivacyTables,
    QualityScenariosTables, SipTrunksTables, ExperimentsTables, QualityTables {}
