import { StringEnum } from '../../http/schemas.ts';

/**
 * Every kind of audit event, declared once: the TypeScript union, the OpenAPI enum and the
 * documentation below all come from AUDIT_KIND_DOCS. A module that records a new kind adds
 * it here first.
 */
export const AUDIT_KIND_DOCS = {
  'suppression.added': 'a number or contact was added to the account\'s suppression list',
  'suppression.removed': 'a suppression was removed',
  'account.quiet_hours_changed': 'the account\'s quiet hours changed',
  'account.caps_changed': 'the account\'s call frequency caps changed (details: from, to as [per day, per week]), or its text caps (details: channel text, from, to)',
  'account.capacity_changed': 'the account\'s cap on calls in progress or its reserve for inbound calls changed (PUT /api/v1/compliance/capacity); details: from, to as [max_concurrent_calls, reserved_inbound_calls]',
  'campaign.started': 'calls were queued campaign-wide (POST /api/v1/campaigns/enqueue_calls/{campaign_id} or POST /api/v1/contacts/enqueue_calls/{campaign_id}); details: route, status, limit and the answer\'s message, which says how many were queued (0 included)',
  'campaign.paused': 'is_paused went from false to true',
  'campaign.resumed': 'is_paused went from true to false',
  'campaign.archived': 'is_archive went from false to true',
  'campaign.unarchived': 'is_archive went from true to false',
  'prompt.approved': 'the owner approved a pending prompt change; subject: the prompt-history entry; details: campaign_id, comment',
  'prompt.rejected': 'the owner rejected a pending prompt change; subject and details as prompt.approved',
  'api_key.created': 'an API key was generated through the API; details: name, masked_key',
  'api_key.deleted': 'an API key was deleted; details: name, masked_key',
  'sub_user.grant_added': 'campaigns were granted to a sub-user; subject: the sub-user; details: campaign_ids newly granted (a grant already held writes no event)',
  'sub_user.grant_removed': 'campaigns were revoked from a sub-user; subject and details as sub_user.grant_added',
  'webhook.target_changed': 'a webhook integration was created or deleted, or its URL, HTTP method or authentication (auth_type, credentials, api_key_header, signing secret) changed; details: change (created, updated, deleted, signing_secret_rotated), url (and url_before), changed field names; secrets are never recorded',
  'campaign.messaging_changed': 'a campaign\'s text-message settings changed (PUT /api/v1/campaigns/{id}/messaging); subject: the campaign; details: changed (the field names), and from/to for every field except prompt and template, whose words are not recorded (their lengths are)',
  'call.listened': 'an operator started listening to a call in progress (GET /api/v1/live/calls/{id}/audio); subject: the call; details: campaign_id, provider',
  'campaign.protection_changed': 'a campaign\'s circuit-breaker settings changed (PUT /api/v1/campaigns/{id}/protection); subject: the campaign; details: changed (the field names), from, to',
  'campaign.paused_by_breaker': 'a campaign paused itself because too many of its calls failed (the circuit breaker); subject: the campaign; actor: circuit breaker; details: reason (failure_rate), failures, attempts, window_seconds, failure_rate_threshold, min_attempts, at',
  'message.manual_queued': 'an operator queued a text by hand (POST /api/v1/messages/); subject: the message job; details: contact_id, campaign_id and characters (the length; the words are not recorded)',
  'call.ended_by_operator': 'an operator ended a call in progress (POST /api/v1/calls/{id}/end); subject: the call; details: campaign_id, provider',
  'call.transferred_by_operator': 'an operator transferred a call in progress to a person (POST /api/v1/calls/{id}/transfer); subject: the call; details: campaign_id, provider, phone_number',
  'phone_number.rested': 'a caller-ID number was rested: the dialer passes it over until rested_until (number health, GET /api/v1/phone-numbers/health); subject: the phone number; actor: number health for an automatic rest (details: code answer_rate or short_calls, reason, the figures, rested_until), or the owner who rested it by hand (code manual)',
  'phone_number.unrested': 'a caller-ID number\'s rest ended: its time was over (actor: number health, details: code rest_over), the owner ended it by hand (code manual), or number health was switched off (code disabled); subject: the phone number',
  'account.number_health_changed': 'the account\'s number-health rule changed (PUT /api/v1/phone-numbers/health-settings); details: changed (the field names), from, to',
  'call.whispered': 'an operator gave the AI guidance during a call (POST /api/v1/calls/{id}/whisper); subject: the call; details: campaign_id, provider and characters (the length; the words are in the call\'s call_data.whispers, not in the audit trail)',
  'privacy.retention_changed': 'the account\'s retention of personal data changed (PUT /api/v1/privacy/settings), or a campaign\'s (PUT /api/v1/campaigns/{id}/privacy; subject: the campaign); details: from, to (days; null = kept)',
  'privacy.redaction_changed': 'what the account redacts changed (PUT /api/v1/privacy/redaction), or a campaign\'s (PUT /api/v1/campaigns/{id}/redaction; subject: the campaign); details: from, to ({ categories, places }; null on a campaign = the account\'s)',
  'privacy.recording_changed': 'how a campaign\'s calls are recorded changed (PUT /api/v1/campaigns/{id}/recording; subject: the campaign); details: from, to ({ rule, disclosure, consent_prompt })',
  'privacy.retention_purged': 'the retention job emptied the personal fields of rows whose time had come; subject: the account; actor: retention; details: calls, conversations, messages, deliveries (how many rows), at',
  'privacy.person_exported': 'the owner exported everything the account holds about one person (POST /api/v1/privacy/exports); subject: the account; details: counts (the number and e-mail are not recorded)',
  'privacy.person_erased': 'the owner erased one person from the account (POST /api/v1/privacy/erasures); subject: the account; details: erased (the counts) and mark, the salted hash the number became (the number and e-mail are not recorded)',
  'sip_trunk.changed': 'a SIP trunk was created, changed or deleted (/api/v1/sip-trunks; subject: the trunk; details: change (created, updated, deleted) and changed, the field names; the password is never recorded), or a campaign\'s trunk was chosen (PUT /api/v1/campaigns/{id}/sip-trunk; subject: the campaign; details: change campaign_trunk, from, to)',
  'sip_trunk.route_tested': 'the owner placed a test call through a campaign\'s SIP route (POST /api/v1/campaigns/{id}/sip-route/test); subject: the campaign; details: call_id, sip_trunk_id (the number is on the call, not here: erasure and retention reach it there)',
  'quality.scenario_gate_changed': 'the owner changed whether a pending prompt needs its campaign\'s test scenarios to pass before it is approved (PUT /api/v1/quality/scenario-settings); subject: the account; details: from, to (require_scenarios_before_approval)',
  'experiment.created': 'the owner created a campaign\'s experiment (POST /api/v1/campaigns/{id}/experiments); subject: the campaign; details: experiment_id, name, variants ({ kind, label, weight, prompt_history_id, assistant_id })',
  'experiment.started': 'the owner started an experiment (POST .../experiments/{experiment_id}/start); subject: the campaign; details: experiment_id, control_prompt_history_id (the control, the approved prompt then in force)',
  'experiment.stopped': 'the owner stopped an experiment (POST .../experiments/{experiment_id}/stop); subject: the campaign; details: experiment_id',
  'experiment.promoted': 'the owner made an experiment\'s variant live (POST .../experiments/{experiment_id}/promote): a new approved prompt_history entry, or the campaign\'s assistant; subject: the campaign; details: experiment_id, variant_id, label, kind, prompt_history_id, assistant_id, forced (promoted although not the declared winner), state (the stopping rule\'s)',
  'campaign.scorecard_changed': 'a campaign\'s scorecard changed (PUT /api/v1/campaigns/{id}/scorecard); subject: the campaign; details: from (null: the default card), to ({ enabled, criteria (their keys), tags })',
} as const satisfies Record<string, string>;

export type AuditKind = keyof typeof AUDIT_KIND_DOCS;
export const AUDIT_KINDS = Object.keys(AUDIT_KIND_DOCS) as AuditKind[];
export const AuditKindSchema = StringEnum(AUDIT_KINDS as [AuditKind, ...AuditKind[]], { description: 'what happened (see the operation\'s description)' });

/** What an event is about; subject_id is that row's id (the account's own id for account). */
export const SUBJECT_TYPES = ['account', 'campaign', 'prompt_history', 'api_key', 'sub_user', 'webhook_integration', 'suppression', 'message_job', 'call', 'phone_number', 'sip_trunk'] as const;
export type SubjectType = (typeof SUBJECT_TYPES)[number];
export const SubjectTypeSchema = StringEnum(SUBJECT_TYPES);

/** The kinds as a Markdown list, for the OpenAPI description. */
export const AUDIT_KINDS_DOC = AUDIT_KINDS.map((k) => `- \`${k}\`: ${AUDIT_KIND_DOCS[k]}`).join('\n');
