import type { TestApp } from './test-app.ts';
import { login, bearer, type Account } from './factories.ts';

/**
 * Every operation of the OpenAPI document that creates or updates a row from a JSON body, with
 * what a test needs to call it validly and find the row it wrote. test/mass-assignment.test.ts
 * fails for an operation with a body that is neither here nor in NOT_ROW_WRITES, so a new
 * operation cannot go unchecked.
 */
export interface WriteOperation {
  table: string;
  kind: 'create' | 'update';
  /** A valid call: its URL, body and headers; for an update, the id of the row it changes. */
  prepare(n: number): Promise<{ url: string; body: Record<string, unknown>; headers?: Record<string, string>; rowId?: number }>;
  /** The id of the row a create wrote, from its answer. */
  createdId?(answer: Record<string, unknown>): number;
  /** Columns the operation changes although its body does not name them (derived values). */
  derived?: string[];
}

/** Operations with a body that write no row from it, and why they need no mass-assignment check. */
export const NOT_ROW_WRITES: Record<string, string> = {
  'post /api/v1/login/access-token': 'a form read field by field; writes only the failed-login count',
  'post /api/v1/setup': 'the first owner: email, password and full_name read field by field (is_superuser is always true, set by the service); 409 once any account exists (src/modules/setup/setup.test.ts)',
  'put /api/v1/users/me/password': 'the caller\'s own password: current_password and new_password read field by field; writes only hashed_password and credential_version (password-change.service.ts)',
  'post /api/v1/session': 'the dashboard sign-in: username and password read field by field; writes the failed-login count and a session row whose columns session.repository.ts names',
  'put /api/v1/compliance/settings': 'upserts the caller\'s own account_compliance row from its six named fields (the two text caps optional) (owner_id from the principal, updated_at by the service); the table is keyed by the account, with no row id for the row check',
  'put /api/v1/compliance/capacity': 'sets max_concurrent_calls and reserved_inbound_calls by name on the caller\'s own account_compliance row (owner_id from the principal, updated_at by the service); keyed by the account, with no row id for the row check',
  'put /api/v1/users/me/preferences': 'updates the caller\'s own account row (the principal\'s owner id), setting only display_timezone and display_currency by name; no row id for the row check',
  'post /api/v1/voice/{provider}/events': 'a provider event, verified by signature and read field by field by the provider adapter',
  'post /api/v1/voice/twilio/twiml': 'Twilio\'s voice request, verified by X-Twilio-Signature; reads CallSid, From and To by name (an inbound caller becomes a contact through the inbound rules)',
  'post /api/v1/voice/twilio/action': 'Twilio\'s end of a relay session, verified by signature; reads HandoffData by name, writes nothing',
  'post /api/v1/voice/twilio/amd': 'Twilio\'s answering-machine result, verified by signature; reads AnsweredBy and CallSid by name',
  'post /api/v1/voice/twilio/events': 'Twilio\'s status and recording callbacks, verified by signature and read field by field by the Twilio adapter',
  'post /api/v1/messaging/twilio/status/{route}/{messageId}': 'Twilio\'s status callback of a text, verified by signature; reads MessageSid, MessageStatus and ErrorCode by name (messaging/twilio/twilio-text-webhooks.ts)',
  'post /api/v1/messaging/twilio/inbound/{route}': 'Twilio\'s inbound text, verified by signature; reads From, To, Body, MessageSid and OptOutType by name (the message row is built field by field)',
  'post /api/v1/contacts/import/csv': 'multipart fields are read by name (campaign_id, phone_column, timezone_column) and nothing else',
  'post /api/v1/contacts/enqueue_calls': 'queues the contacts it names (contact_ids): the status and due time are set by the queue, nothing from the body',
  'post /api/v1/integrations/webhooks/{id}/test': 'sends a test delivery; the delivery row is built by the service (the body names a call only)',
  'post /api/v1/suppressions/bulk': 'an array of {phone_number, reason, expires_at} read item by item into the task; the suppression columns are named in suppressions.repository.ts',
  'post /api/v1/messages/draft': 'writes nothing: composes a text and answers it (message-draft.service.ts)',
  'post /api/v1/calls/{id}/transfer': 'an operator\'s transfer of a live call: phone_number read by name; writes only call_data.operator, built by the service (call-controls.repository.ts markOperatorAct)',
  'post /api/v1/calls/{id}/whisper': 'an operator\'s whisper: message read by name; appends one element to call_data.whispers, built by the service (call-controls.repository.ts addWhisper)',
  'put /api/v1/phone-numbers/health-settings': 'upserts the caller\'s own number_health_settings row (keyed by the account, no row id for the row check) from its seven named fields (number-health.repository.ts saveHealthSettings); owner_id from the principal',
  'put /api/v1/campaigns/{id}/protection': 'upserts the campaign\'s campaign_protection row (keyed by campaign_id, no row id for the row check) from its four named fields, owner_id from the campaign; planted columns are checked in src/modules/breaker/protection.test.ts',
  'put /api/v1/campaigns/{id}/messaging': 'upserts the campaign\'s campaign_messaging row (keyed by campaign_id, no row id for the row check) from its thirteen named fields, owner_id from the campaign; planted columns are checked in src/modules/messaging/messaging-settings.test.ts',
  'post /api/v1/suppressions/import/csv': 'multipart: only the file is read (its phone_number, reason and expires_at columns)',
  'post /api/v1/privacy/exports': 'writes nothing but its audit event: reads phone_number and email by name and answers the person\'s rows',
  'post /api/v1/privacy/erasures': 'erases the person phone_number and email name (read by name); every write is built by the service (privacy/erasure/person-erasure.ts)',
  'put /api/v1/privacy/settings': 'upserts the caller\'s own privacy_settings row (keyed by the account, no row id for the row check) from retention_days alone; the body allows no other property',
  'put /api/v1/privacy/redaction': 'upserts the caller\'s own privacy_settings row (keyed by the account, no row id for the row check) from categories and places alone; the body allows no other property',
  'put /api/v1/campaigns/{id}/redaction': 'upserts the campaign\'s campaign_privacy row (keyed by campaign_id, no row id for the row check) from categories and places alone, owner_id from the campaign; the body allows no other property',
  'post /api/v1/campaigns/{id}/sip-route/test': 'places a test call: reads phone_number alone; the call row is built by the service (route-test-call.ts names its columns; call_type null, the rest from the campaign)',
  'put /api/v1/campaigns/{id}/sip-trunk': 'sets the one column campaigns.sip_trunk_id from sip_trunk_id alone, after checking the trunk is the account\'s (422 otherwise); the body allows no other property',
  'put /api/v1/campaigns/{id}/recording': 'upserts the campaign\'s campaign_privacy row (keyed by campaign_id, no row id for the row check) from rule, disclosure and consent_prompt alone, owner_id from the campaign; the body allows no other property',
  'put /api/v1/campaigns/{id}/privacy': 'upserts the campaign\'s campaign_privacy row (keyed by campaign_id, no row id for the row check) from retention_days alone, owner_id from the campaign; the body allows no other property',
  'put /api/v1/quality/scenario-settings': 'upserts the caller\'s own test_scenario_settings row (keyed by the account, no row id for the row check) from require_scenarios_before_approval alone; the body allows no other property',
  'post /api/v1/campaigns/{id}/experiments/{experiment_id}/promote': 'reads variant_id and force by name; the prompt_history entry, the campaign\'s assistant and the experiment\'s promoted_* columns are built by the service (quality/experiments/promote.ts)',
  'put /api/v1/campaigns/{id}/scorecard': 'upserts the campaign\'s campaign_scorecards row (keyed by campaign_id, no row id for the row check) from enabled, criteria and tags alone (each criterion rebuilt field by field in scorecards.service.ts checkCriteria), owner_id from the campaign; the body allows no other property',
};

export interface WriteFixture {
  t: TestApp;
  owner: Account;
  admin: Account;
  campaignId: number;
  secondCampaignId: number;
}

const phone = (n: number) => `+1212555${String(1000 + n).slice(-4)}`;
const post = async (f: WriteFixture, url: string, payload: unknown, headers = f.owner.headers) => {
  const res = await f.t.request({ method: 'POST', url, headers, payload: payload as Record<string, unknown> });
  if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
  return res.json();
};

const WEBHOOK = (f: WriteFixture, n: number) => ({
  name: `hook ${n}`,
  url: `https://crm${n}.example.com/hook`,
  request_schema: { type: 'object', properties: { interested: { type: 'boolean' } } },
  campaign_ids: [f.campaignId],
});

const VOICE_CONNECTION = (n: number) => ({ name: `connection ${n}`, provider: 'retell', api_key: `retell-key-${n}-0123456789` });

export function writeOperations(f: WriteFixture): Record<string, WriteOperation> {
  const id = (a: Record<string, unknown>) => a.id as number;
  let runScenario: number | undefined;
  let subUser: { id: number; token: string } | null = null;
  const ensureSubUser = async () => {
    if (subUser) return subUser;
    const created = await post(f, '/api/v1/sub-users', { username: 'prompt-writer', password: 'correct horse battery' });
    await post(f, `/api/v1/sub-users/${created.id}/campaigns/${f.campaignId}`, undefined);
    subUser = { id: created.id, token: await login(f.t, 'prompt-writer', 'correct horse battery') };
    return subUser;
  };
  /** A pending prompt change by the sub-user: the row approve and reject update. */
  const pendingHistory = async (n: number) => {
    const sub = await ensureSubUser();
    const res = await f.t.request({ method: 'PUT', url: `/api/v1/campaigns/${f.campaignId}`, headers: bearer(sub.token), payload: { campaign_data: { prompt: `prompt ${n}` } } });
    if (res.statusCode !== 200) throw new Error(res.body);
    const row = await f.t.deps.db.selectFrom('prompt_history').select('id').where('campaign_id', '=', f.campaignId).where('status', '=', 'pending').orderBy('id', 'desc').executeTakeFirstOrThrow();
    return row.id;
  };
  const decision = (verb: 'approve' | 'reject'): WriteOperation => ({
    table: 'prompt_history',
    kind: 'update',
    derived: ['status', 'approved_by_user_id', 'approved_at', 'approval_comment'],
    async prepare(n) {
      const rowId = await pendingHistory(n);
      return { url: `/api/v1/campaigns/${f.campaignId}/prompt-history/${rowId}/${verb}`, body: { comment: `decided ${n}` }, rowId };
    },
  });

  return {
    'post /api/v1/users/': {
      table: 'users', kind: 'create', createdId: id,
      prepare: async (n) => ({ url: '/api/v1/users/', headers: f.admin.headers, body: { email: `planted-${n}@example.com`, password: 'correct horse battery', is_superuser: false, is_active: true } }),
    },
    'post /api/v1/api-keys/': { table: 'api_keys', kind: 'create', createdId: id, prepare: async (n) => ({ url: '/api/v1/api-keys/', body: { name: `key ${n}` } }) },
    'post /api/v1/sub-users/': {
      table: 'sub_users', kind: 'create', createdId: id,
      prepare: async (n) => ({ url: '/api/v1/sub-users/', body: { username: `sub-${n}`, password: 'correct horse battery' } }),
    },
    'put /api/v1/sub-users/{id}': {
      table: 'sub_users', kind: 'update',
      async prepare(n) {
        const created = await post(f, '/api/v1/sub-users/', { username: `upd-${n}`, password: 'correct horse battery' });
        return { url: `/api/v1/sub-users/${created.id}`, body: { full_name: `Name ${n}` }, rowId: created.id };
      },
    },
    'put /api/v1/sub-users/{id}/campaigns': {
      table: 'sub_users', kind: 'update',
      async prepare(n) {
        const created = await post(f, '/api/v1/sub-users/', { username: `grant-${n}`, password: 'correct horse battery' });
        return { url: `/api/v1/sub-users/${created.id}/campaigns`, body: { campaign_ids: [f.campaignId] }, rowId: created.id };
      },
    },
    'post /api/v1/campaigns/': { table: 'campaigns', kind: 'create', createdId: id, prepare: async (n) => ({ url: '/api/v1/campaigns/', body: { title: `Campaign ${n}`, campaign_type: 'Outbound' } }) },
    'put /api/v1/campaigns/{id}': {
      table: 'campaigns', kind: 'update',
      async prepare(n) {
        const created = await post(f, '/api/v1/campaigns/', { title: `Target ${n}`, campaign_type: 'Outbound' });
        return { url: `/api/v1/campaigns/${created.id}`, body: { title: `Renamed ${n}` }, rowId: created.id };
      },
    },
    'post /api/v1/campaigns/{id}/prompt-history/{history_id}/approve': decision('approve'),
    'post /api/v1/campaigns/{id}/prompt-history/{history_id}/reject': decision('reject'),
    'post /api/v1/phone-numbers/': { table: 'phone_numbers', kind: 'create', createdId: id, prepare: async (n) => ({ url: '/api/v1/phone-numbers/', body: { phone_number: phone(100 + n) } }) },
    'put /api/v1/phone-numbers/{id}': {
      table: 'phone_numbers', kind: 'update',
      async prepare(n) {
        const created = await post(f, '/api/v1/phone-numbers/', { phone_number: phone(200 + n) });
        return { url: `/api/v1/phone-numbers/${created.id}`, body: { campaign_id: f.campaignId }, rowId: created.id };
      },
    },
    'post /api/v1/contacts/': {
      table: 'contacts', kind: 'create', createdId: id,
      prepare: async (n) => ({ url: '/api/v1/contacts/', body: { status: 'new', campaign_id: f.campaignId, phone_number: phone(300 + n) } }),
    },
    'put /api/v1/contacts/{id}': {
      table: 'contacts', kind: 'update',
      async prepare(n) {
        const created = await post(f, '/api/v1/contacts/', { status: 'new', campaign_id: f.campaignId, phone_number: phone(400 + n) });
        return { url: `/api/v1/contacts/${created.id}`, body: { source: `source ${n}` }, rowId: created.id };
      },
    },
    'post /api/v1/contacts/bulk': {
      table: 'import_tasks', kind: 'create', createdId: (a) => a.task_id as number,
      // The task's counters are its own; a body is an array, so the planted fields go into its item.
      prepare: async (n) => ({ url: '/api/v1/contacts/bulk', body: { phone_number: phone(500 + n), campaign_id: f.campaignId } }),
    },
    'post /api/v1/contact-creation-integration/create-contact': {
      table: 'contacts', kind: 'create', createdId: id, derived: ['phone_number', 'contact_data', 'source'],
      async prepare(n) {
        const integration = await post(f, '/api/v1/integrations/contact-creation/', { name: `form ${n}`, campaign_ids: [f.campaignId] });
        return { url: '/api/v1/contact-creation-integration/create-contact', headers: { authorization: `Bearer ${integration.token}` }, body: { phone: phone(600 + n), name: 'Ann' } };
      },
    },
    'post /api/v1/voice/sim/inbound': {
      table: 'calls', kind: 'create', createdId: (a) => a.call_id as number, derived: ['contact_id', 'from_number', 'to_number', 'start_time', 'external_session_id', 'call_data'],
      async prepare(n) {
        const number = await post(f, '/api/v1/phone-numbers/', { phone_number: phone(700 + n), campaign_id: f.secondCampaignId });
        return { url: '/api/v1/voice/sim/inbound', body: { from: phone(800 + n), to: number.phone_number } };
      },
    },
    'post /api/v1/integrations/contact-creation/': {
      table: 'contact_integrations', kind: 'create', createdId: id,
      prepare: async (n) => ({ url: '/api/v1/integrations/contact-creation/', body: { name: `integration ${n}`, campaign_ids: [f.campaignId] } }),
    },
    'put /api/v1/integrations/contact-creation/{id}': {
      table: 'contact_integrations', kind: 'update',
      async prepare(n) {
        const created = await post(f, '/api/v1/integrations/contact-creation/', { name: `target ${n}`, campaign_ids: [f.campaignId] });
        return { url: `/api/v1/integrations/contact-creation/${created.id}`, body: { name: `renamed ${n}` }, rowId: created.id };
      },
    },
    'post /api/v1/assistants/': { table: 'assistants', kind: 'create', createdId: id, prepare: async (n) => ({ url: '/api/v1/assistants/', body: { name: `assistant ${n}`, provider: 'sim' } }) },
    'put /api/v1/assistants/{id}': {
      table: 'assistants', kind: 'update',
      async prepare(n) {
        const created = await post(f, '/api/v1/assistants/', { name: `target ${n}`, provider: 'sim' });
        return { url: `/api/v1/assistants/${created.id}`, body: { name: `renamed ${n}` }, rowId: created.id };
      },
    },
    'post /api/v1/voice-connections/': { table: 'voice_connections', kind: 'create', createdId: id, prepare: async (n) => ({ url: '/api/v1/voice-connections/', body: VOICE_CONNECTION(n) }) },
    'put /api/v1/voice-connections/{id}': {
      table: 'voice_connections', kind: 'update',
      async prepare(n) {
        const created = await post(f, '/api/v1/voice-connections/', VOICE_CONNECTION(1000 + n));
        return { url: `/api/v1/voice-connections/${created.id}`, body: { name: `renamed ${n}` }, rowId: created.id };
      },
    },
    'post /api/v1/sip-trunks/': { table: 'sip_trunks', kind: 'create', createdId: id, prepare: async (n) => ({ url: '/api/v1/sip-trunks/', body: { name: `trunk ${n}`, username: `user${n}`, password: `trunk password ${n}` } }) },
    'put /api/v1/sip-trunks/{id}': {
      table: 'sip_trunks', kind: 'update',
      async prepare(n) {
        const created = await post(f, '/api/v1/sip-trunks/', { name: `trunk ${1000 + n}` });
        return { url: `/api/v1/sip-trunks/${created.id}`, body: { name: `renamed ${n}` }, rowId: created.id };
      },
    },
    'post /api/v1/suppressions/': { table: 'suppressions', kind: 'create', createdId: id, prepare: async (n) => ({ url: '/api/v1/suppressions/', body: { phone_number: phone(n), reason: `reason ${n}` } }) },
    'post /api/v1/messages/': {
      // The job an operator's text becomes (answered 202 with it); its body is the text, its sender the principal.
      table: 'message_jobs', kind: 'create', createdId: id,
      async prepare(n) {
        const contact = await post(f, '/api/v1/contacts/', { status: 'new', campaign_id: f.campaignId, phone_number: phone(900 + n) });
        return { url: '/api/v1/messages/', body: { contact_id: contact.id, message: 'A text written by hand' } };
      },
    },
    'post /api/v1/integrations/webhooks/': { table: 'webhook_integrations', kind: 'create', createdId: id, prepare: async (n) => ({ url: '/api/v1/integrations/webhooks/', body: WEBHOOK(f, n) }) },
    'post /api/v1/campaigns/{id}/test-scenarios': {
      table: 'test_scenarios', kind: 'create', createdId: id,
      prepare: async (n) => ({ url: `/api/v1/campaigns/${f.campaignId}/test-scenarios`, body: { name: `scenario ${n}`, template: 'busy_person', criteria: [`criterion ${n}`] } }),
    },
    'put /api/v1/campaigns/{id}/test-scenarios/{scenario_id}': {
      table: 'test_scenarios', kind: 'update',
      async prepare(n) {
        const created = await post(f, `/api/v1/campaigns/${f.campaignId}/test-scenarios`, { template: 'hostile' });
        return { url: `/api/v1/campaigns/${f.campaignId}/test-scenarios/${created.id}`, body: { name: `renamed ${n}` }, rowId: created.id };
      },
    },
    'post /api/v1/campaigns/{id}/test-scenarios/{scenario_id}/runs': {
      // A queued run (answered 202); everything but the sample contact is the service's.
      table: 'test_scenario_runs', kind: 'create', createdId: id,
      async prepare(n) {
        // One scenario for the attacked and the plain call, so their runs differ only by what was planted.
        runScenario ??= (await post(f, `/api/v1/campaigns/${f.campaignId}/test-scenarios`, { template: 'interested' })).id as number;
        return { url: `/api/v1/campaigns/${f.campaignId}/test-scenarios/${runScenario}/runs`, body: { contact_data: { name: 'sample' } } };
      },
    },
    'post /api/v1/campaigns/{id}/experiments': {
      // The experiment row; its variants and any new prompt entry are written by name (experiments.service.ts).
      table: 'experiments', kind: 'create', createdId: id,
      prepare: async (n) => ({ url: `/api/v1/campaigns/${f.campaignId}/experiments`, body: { name: `experiment ${n}`, control_weight: 1, min_calls_per_variant: 10, variants: [{ prompt: `variant ${n}`, weight: 1 }] } }),
    },
    'put /api/v1/integrations/webhooks/{id}': {
      table: 'webhook_integrations', kind: 'update',
      async prepare(n) {
        const created = await post(f, '/api/v1/integrations/webhooks/', WEBHOOK(f, 1000 + n));
        return { url: `/api/v1/integrations/webhooks/${created.id}`, body: { name: `renamed ${n}` }, rowId: created.id };
      },
    },
  };
}
