import type { paths } from '../../api/schema';
import type { Webhook, WebhookInput } from './model';

export type WebhookUpdate = paths['/api/v1/integrations/webhooks/{id}']['put']['requestBody']['content']['application/json'];
type AuthType = NonNullable<WebhookInput['auth_type']>;
type CallStatus = NonNullable<WebhookInput['call_statuses']>[number];

/** One AI instruction: the payload field it fills and the rule (placeholders allowed). */
export type Instruction = { field: string; rule: string };

/** What the webhook form edits: text for every input, turned into the API's body on submit. */
export type FormValues = {
  name: string; url: string; campaign_ids: string[]; request_schema: string; instructions: Instruction[];
  only_interested: boolean; call_statuses: string[]; is_active: boolean; send_inbound_texts: boolean; send_campaign_events: boolean;
  auth_type: AuthType; basic_login: string; basic_password: string; bearer_token: string; api_key_header: string; api_key_value: string;
  http_method: 'POST' | 'PUT'; allowed_hosts: string; timeout: string; save_data_use_url_params: boolean;
};

export const SECRETS = ['basic_password', 'bearer_token', 'api_key_value'] as const;
/** The body fields the form has an input for (a 422 on another one is shown whole, under the form). */
export const FIELDS = ['name', 'url', 'campaign_ids', 'request_schema', 'instructions', 'only_interested', 'call_statuses', 'is_active', 'send_inbound_texts', 'send_campaign_events', 'auth_type',
  'basic_login', 'basic_password', 'bearer_token', 'api_key_header', 'api_key_value', 'http_method', 'allowed_hosts', 'timeout', 'save_data_use_url_params'];

/** The placeholder whose use makes a send wait (up to 20 s) for the call's recording. */
export const RECORDING = '{{call.record_url}}';

export const BLANK: FormValues = {
  name: '', url: '', campaign_ids: [], request_schema: '', instructions: [], only_interested: true, call_statuses: [], is_active: true, send_inbound_texts: false, send_campaign_events: false,
  auth_type: 'none', basic_login: '', basic_password: '', bearer_token: '', api_key_header: '', api_key_value: '',
  http_method: 'POST', allowed_hosts: '', timeout: '', save_data_use_url_params: false,
};

/**
 * A stored webhook as the form shows it. Secrets stay blank (the API only answers masks: blank
 * keeps the stored one); the schema is shown as the JSON Schema the API stored (form 4).
 */
export function valuesOf(w: Webhook): FormValues {
  return {
    name: w.name ?? '', url: w.url, campaign_ids: w.campaign_ids.map(String), request_schema: JSON.stringify(w.request_schema, null, 2),
    instructions: Object.entries(w.instructions).map(([field, rule]) => ({ field, rule })),
    only_interested: w.only_interested, call_statuses: w.call_statuses, is_active: w.is_active, send_inbound_texts: w.send_inbound_texts, send_campaign_events: w.send_campaign_events,
    auth_type: w.auth_type, basic_login: w.basic_login ?? '', basic_password: '', bearer_token: '', api_key_header: w.api_key_header, api_key_value: '',
    http_method: w.http_method, allowed_hosts: w.allowed_hosts, timeout: String(w.timeout), save_data_use_url_params: w.save_data_use_url_params,
  };
}

/** A timeout as typed: a number when it reads as one, else the text (the API's 422 says why). */
const timeoutOf = (v: string) => (v.trim() === '' ? undefined : Number.isFinite(Number(v)) ? Number(v) : (v as unknown as number));

const instructionsOf = (rows: Instruction[]) => Object.fromEntries(rows.filter((r) => r.field.trim() || r.rule.trim()).map((r) => [r.field.trim(), r.rule]));

/** The create body: every setting, defaults left to the API when a field is blank. */
export function createBody(v: FormValues): WebhookInput {
  return {
    name: v.name || null, url: v.url, campaign_ids: v.campaign_ids.map(Number), request_schema: v.request_schema,
    instructions: instructionsOf(v.instructions), only_interested: v.only_interested, call_statuses: v.call_statuses as CallStatus[],
    is_active: v.is_active, send_inbound_texts: v.send_inbound_texts, send_campaign_events: v.send_campaign_events, auth_type: v.auth_type, http_method: v.http_method, save_data_use_url_params: v.save_data_use_url_params,
    ...(v.allowed_hosts.trim() ? { allowed_hosts: v.allowed_hosts } : {}),
    ...(timeoutOf(v.timeout) !== undefined ? { timeout: timeoutOf(v.timeout) } : {}),
    ...(v.auth_type === 'basic' ? { basic_login: v.basic_login, basic_password: v.basic_password } : {}),
    ...(v.auth_type === 'bearer' ? { bearer_token: v.bearer_token } : {}),
    ...(v.auth_type === 'api_key' ? { api_key_value: v.api_key_value, ...(v.api_key_header ? { api_key_header: v.api_key_header } : {}) } : {}),
  };
}

const hostOf = (url: string) => {
  try {
    return new URL(url.replace(/\{\{[^}]*\}\}/g, 'placeholder')).hostname.toLowerCase();
  } catch {
    return null;
  }
};

/**
 * The update body: only what changed, since the API's PUT changes only the settings it is given.
 * A secret left blank is left out (the stored one stays). The schema is sent only when edited, so
 * the form the user first wrote it in is kept. When the URL changes and the allowed hosts were
 * just the old URL's host, they are left out too, and the API takes the new URL's host.
 */
export function updateBody(v: FormValues, was: FormValues): WebhookUpdate {
  const body: Record<string, unknown> = {};
  const changed = (k: keyof FormValues) => JSON.stringify(v[k]) !== JSON.stringify(was[k]);
  if (changed('name')) body.name = v.name || null;
  if (changed('url')) body.url = v.url;
  if (changed('campaign_ids')) body.campaign_ids = v.campaign_ids.map(Number);
  if (changed('request_schema')) body.request_schema = v.request_schema;
  if (changed('instructions')) body.instructions = instructionsOf(v.instructions);
  for (const k of ['only_interested', 'call_statuses', 'is_active', 'send_inbound_texts', 'send_campaign_events', 'auth_type', 'http_method', 'save_data_use_url_params', 'basic_login', 'api_key_header'] as const) {
    if (changed(k)) body[k] = v[k];
  }
  if (changed('timeout')) body.timeout = timeoutOf(v.timeout) ?? 30;
  const defaultHosts = was.allowed_hosts === hostOf(was.url);
  if (changed('allowed_hosts')) body.allowed_hosts = v.allowed_hosts.trim() || null;
  else if (changed('url') && !defaultHosts) body.allowed_hosts = v.allowed_hosts;
  for (const k of SECRETS) if (v[k]) body[k] = v[k];
  return body as WebhookUpdate;
}
