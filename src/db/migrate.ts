import { Migrator, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import * as foundation from './migrations/0001_foundation.ts';
import * as dialer from './migrations/0002_dialer.ts';
import * as intake from './migrations/0003_intake.ts';
import * as webhooks from './migrations/0004_webhooks.ts';
import * as analytics from './migrations/0005_analytics.ts';
import * as analyticsSpeed from './migrations/0006_analytics_speed.ts';
import * as providerRefs from './migrations/0007_call_provider_refs.ts';
import * as loginFailures from './migrations/0008_login_failures.ts';
import * as importStalledClaims from './migrations/0009_import_stalled_claims.ts';
import * as importColumns from './migrations/0010_import_columns.ts';
import * as deliveryMissingRequired from './migrations/0011_delivery_missing_required.ts';
import * as dialerClaimOrder from './migrations/0012_dialer_claim_order.ts';
import * as assistantsAndVendors from './migrations/0013_assistants_and_vendors.ts';
import * as dashboardSessions from './migrations/0014_dashboard_sessions.ts';
import * as twilioAgent from './migrations/0015_twilio_agent.ts';
import * as auditEvents from './migrations/0016_audit_events.ts';
import * as compliance from './migrations/0017_compliance.ts';
import * as suppressionImports from './migrations/0019_suppression_imports.ts';
import * as callRoutes from './migrations/0020_call_routes.ts';
import * as sessionRevocation from './migrations/0022_session_revocation.ts';
import * as callsScale from './migrations/0021_calls_scale.ts';
import * as nextActionCode from './migrations/0023_next_action_code.ts';
import * as suppressionImportLeases from './migrations/0024_suppression_import_leases.ts';
import * as displayPreferences from './migrations/0026_display_preferences.ts';
import * as skippedDeliveries from './migrations/0027_skipped_deliveries.ts';
import * as messaging from './migrations/0028_messaging.ts';
import * as messagesAnalytics from './migrations/0029_messages_analytics.ts';
import * as inboundTextWebhooks from './migrations/0031_inbound_text_webhooks.ts';
import * as messagesTextSearch from './migrations/0032_messages_text_search.ts';
import * as callsStatusOrder from './migrations/0033_calls_status_order.ts';
import * as liveEvents from './migrations/0034_live_events.ts';
import * as campaignBreaker from './migrations/0035_campaign_breaker.ts';
import * as numberHealth from './migrations/0036_number_health.ts';
import * as accountCapacity from './migrations/0037_account_capacity.ts';
import * as privacyRetention from './migrations/0038_privacy_retention.ts';
import * as redactionSettings from './migrations/0039_redaction_settings.ts';
import * as recordingConsent from './migrations/0040_recording_consent.ts';
import * as contactsEmailIndex from './migrations/0041_contacts_email_index.ts';
import * as callPromptVersion from './migrations/0042_call_prompt_version.ts';
import * as sipTrunks from './migrations/0046_sip_trunks.ts';
import * as vendorNumberLease from './migrations/0047_vendor_number_lease.ts';
import * as testCallCaps from './migrations/0048_test_call_caps.ts';
import * as testScenarios from './migrations/0043_test_scenarios.ts';
import * as experiments from './migrations/0045_experiments.ts';
import * as callScores from './migrations/0044_call_scores.ts';

/**
 * Migrations are listed here in order; the same set runs on PGlite and PostgreSQL. A
 * migration's name is recorded in every deployed database, so it never changes even where
 * the code moved on: 0001_foundation created the tables of users, sub-users, api-keys,
 * campaigns, phone-numbers, contacts and calls; 0003_intake those of imports and
 * contact-integrations. ./tables/<module>.ts says which module owns each table.
 */
const migrations: Record<string, Migration> = {
  '0001_foundation': foundation,
  '0002_dialer': dialer,
  '0003_intake': intake,
  '0004_webhooks': webhooks,
  '0005_analytics': analytics,
  '0006_analytics_speed': analyticsSpeed,
  '0007_call_provider_refs': providerRefs,
  '0008_login_failures': loginFailures,
  '0009_import_stalled_claims': importStalledClaims,
  '0010_import_columns': importColumns,
  '0011_delivery_missing_required': deliveryMissingRequired,
  '0012_dialer_claim_order': dialerClaimOrder,
  '0013_assistants_and_vendors': assistantsAndVendors,
  '0014_dashboard_sessions': dashboardSessions,
  '0015_twilio_agent': twilioAgent,
  '0016_audit_events': auditEvents,
  '0017_compliance': compliance,
  '0019_suppression_imports': suppressionImports,
  '0020_call_routes': callRoutes,
  '0022_session_revocation': sessionRevocation,
  '0021_calls_scale': callsScale,
  '0023_next_action_code': nextActionCode,
  '0024_suppression_import_leases': suppressionImportLeases,
  '0026_display_preferences': displayPreferences,
  '0027_skipped_deliveries': skippedDeliveries,
  '0028_messaging': messaging,
  '0029_messages_analytics': messagesAnalytics,
  '0031_inbound_text_webhooks': inboundTextWebhooks,
  '0032_messages_text_search': messagesTextSearch,
  '0033_calls_status_order': callsStatusOrder,
  '0034_live_events': liveEvents,
  '0035_campaign_breaker': campaignBreaker,
  '0036_number_health': numberHealth,
  '0037_account_capacity': accountCapacity,
  '0038_privacy_retention': privacyRetention,
  '0039_redaction_settings': redactionSettings,
  '0040_recording_consent': recordingConsent,
  '0041_contacts_email_index': contactsEmailIndex,
  '0042_call_prompt_version': callPromptVersion,
  '0043_test_scenarios': testScenarios,
  '0044_call_scores': callScores,
  '0045_experiments': experiments,
  '0046_sip_trunks': sipTrunks,
  '0047_vendor_number_lease': vendorNumberLease,
  '0048_test_call_caps': testCallCaps,
};

/** Told before each pending migration runs: its name, its place among the pending ones, and their count. */
export type MigrationProgress = (step: { name: string; index: number; count: number }) => void;

/** Applies pending migrations; Kysely's lock table serialises concurrent starters. */
export async function migrateToLatest(db: Kysely<any>, onMigration?: MigrationProgress): Promise<string[]> {
  let provider: MigrationProvider = { getMigrations: async () => migrations };
  if (onMigration) {
    // Kysely has no progress events: each migration's `up` says it is starting. Counting the
    // pending ones first costs one read of the migrations table.
    const executed = new Set((await new Migrator({ db, provider }).getMigrations()).filter((m) => m.executedAt).map((m) => m.name));
    const pending = Object.keys(migrations).filter((name) => !executed.has(name)).sort(); // Kysely runs them in name order
    const announced = Object.fromEntries(
      Object.entries(migrations).map(([name, migration]) => [
        name,
        { ...migration, up: async (trx: Kysely<any>) => {
          onMigration({ name, index: pending.indexOf(name) + 1, count: pending.length });
          await migration.up(trx);
        } },
      ]),
    );
    provider = { getMigrations: async () => announced };
  }
  const migrator = new Migrator({ db, provider });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
