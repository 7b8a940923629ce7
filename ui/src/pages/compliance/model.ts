import type { paths } from '../../api/schema';
import { downloadCsv } from '../../components/csv-download';
import { instantAt } from '../../format/time';

type Json<T> = T extends { content: { 'application/json': infer B } } ? B : never;

export type SuppressionList = Json<paths['/api/v1/suppressions/']['get']['responses'][200]>;
export type Suppression = SuppressionList['data'][number];
export type SuppressionSource = Suppression['source'];
export type SuppressionTask = Json<paths['/api/v1/suppressions/bulk/{task_id}']['get']['responses'][200]>;
export type Lookup = Json<paths['/api/v1/suppressions/lookup']['get']['responses'][200]>;
export type ComplianceSettings = Json<paths['/api/v1/compliance/settings']['get']['responses'][200]>;
export type AuditEvent = Json<paths['/api/v1/audit-events/']['get']['responses'][200]>['data'][number];
export type AuditKind = AuditEvent['kind'];

/** A runtime list must name every member of the generated union: `Missing` stops the build when the OpenAPI enum grows. */
type Exhaustive<All, Listed> = [Exclude<All, Listed>] extends [never] ? true : { missing: Exclude<All, Listed> };

export const SOURCES = ['manual', 'import', 'opt_out', 'integration'] as const satisfies readonly SuppressionSource[];
const sourcesComplete: Exhaustive<SuppressionSource, (typeof SOURCES)[number]> = true;

export const SOURCE_LABEL: Record<SuppressionSource, string> = {
  manual: 'Added by hand', import: 'Imported', opt_out: 'Opted out on a call', integration: 'Integration',
};

export const AUDIT_KINDS = [
  'suppression.added', 'suppression.removed', 'account.quiet_hours_changed', 'account.caps_changed', 'account.capacity_changed',
  'campaign.started', 'campaign.paused', 'campaign.resumed', 'campaign.archived', 'campaign.unarchived',
  'prompt.approved', 'prompt.rejected', 'api_key.created', 'api_key.deleted',
  'sub_user.grant_added', 'sub_user.grant_removed', 'webhook.target_changed', 'campaign.messaging_changed', 'campaign.protection_changed', 'campaign.paused_by_breaker', 'message.manual_queued',
  'call.listened',
  'call.ended_by_operator', 'call.transferred_by_operator', 'call.whispered',
  'privacy.retention_changed', 'privacy.redaction_changed', 'privacy.recording_changed', 'privacy.retention_purged', 'privacy.person_exported', 'privacy.person_erased',
  'experiment.created', 'experiment.started', 'experiment.stopped', 'experiment.promoted',
  'phone_number.rested', 'phone_number.unrested', 'account.number_health_changed',
  'sip_trunk.changed', 'sip_trunk.route_tested',
  'quality.scenario_gate_changed',
  'campaign.scorecard_changed',
] as const satisfies readonly AuditKind[];
const kindsComplete: Exhaustive<AuditKind, (typeof AUDIT_KINDS)[number]> = true;
void sourcesComplete;
void kindsComplete;

/** A datetime-local input's value (a wall clock in the display zone) as an ISO instant the API reads unambiguously. */
export const localToIso = (value: string, zone: string) => (value ? instantAt(value, zone)?.toISOString() ?? value : undefined);

/** Who added a suppression, as the list shows it. */
export const addedBy = (s: Suppression) => {
  if (!s.created_by) return s.source === 'opt_out' ? 'The service (opt-out)' : 'Unknown';
  return s.created_by.email ?? (s.created_by.sub_user_id ? `Sub-user ${s.created_by.sub_user_id}` : `User ${s.created_by.user_id}`);
};

/** The rows a task could not add, as a CSV file the browser downloads (row 1 = the first after the header). */
export function downloadTaskErrors(task: SuppressionTask) {
  downloadCsv(`do-not-call-import-${task.task_id}-errors.csv`, ['row', 'phone_number', 'reason'], task.errors.map((e) => [e.index + 1, e.phone_number, e.reason]));
}

export type PersonExport = Json<paths['/api/v1/privacy/exports']['post']['responses'][200]>;
export type Erasure = Json<paths['/api/v1/privacy/erasures']['post']['responses'][200]>;

/** The export's file name: person-<the day it was exported>.json. */
export const personFileName = (doc: PersonExport) => `person-${String(doc.exported_at ?? new Date().toISOString()).slice(0, 10)}.json`;

/** A person's export as a JSON file the browser downloads. */
export function downloadPersonExport(document_: PersonExport) {
  const url = URL.createObjectURL(new Blob([JSON.stringify(document_, null, 2)], { type: 'application/json' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = personFileName(document_);
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
