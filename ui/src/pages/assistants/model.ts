import type { paths } from '../../api/schema';

export type Assistant = paths['/api/v1/assistants/']['get']['responses'][200]['content']['application/json']['data'][number];
export type AssistantInput = paths['/api/v1/assistants/']['post']['requestBody']['content']['application/json'];
export type Rule = Assistant['action_status_rules'][number];
export type Provider = Assistant['provider'];

export const PROVIDERS: { value: Provider; label: string }[] = [
  { value: 'sim', label: 'Simulator (sim)' },
  { value: 'vapi', label: 'Vapi' },
  { value: 'retell', label: 'Retell' },
  { value: 'twilio', label: 'Twilio (our own agent)' },
];
export const providerLabel = (p: string) => PROVIDERS.find((x) => x.value === p)?.label ?? p;

export const ACTION_STATUSES: Rule['action_status'][] = ['interested', 'scheduled', 'transferred'];

/** The API's `equals` is optional and typed: left out means "any truthy value"; the editor names the four cases. */
export type Match = 'truthy' | 'text' | 'number' | 'boolean';
export const MATCHES: { value: Match; label: string }[] = [
  { value: 'truthy', label: 'is truthy (any yes-like value)' },
  { value: 'text', label: 'equals text' },
  { value: 'number', label: 'equals number' },
  { value: 'boolean', label: 'equals true/false' },
];

export interface RuleValues {
  path: string;
  match: Match;
  value: string;
  action_status: Rule['action_status'];
}

export const PLACEHOLDER_HELP =
  'May use {{contact.<field>}} (id, phone_number, status, or any contact_data key) and {{campaign.<field>}} ' +
  '(id, title, description, campaign_type, campaign_phone, or any campaign_data key); unknown ones are empty at call time.';

export const emptyRule = (): RuleValues => ({ path: '', match: 'truthy', value: '', action_status: 'interested' });

export function ruleToValues(r: Rule): RuleValues {
  const e = r.equals;
  if (e === undefined) return { path: r.path, match: 'truthy', value: '', action_status: r.action_status };
  const match: Match = typeof e === 'number' ? 'number' : typeof e === 'boolean' ? 'boolean' : 'text';
  return { path: r.path, match, value: String(e), action_status: r.action_status };
}

export function valuesToRule(v: RuleValues): Rule {
  const base = { path: v.path.trim(), action_status: v.action_status };
  // A number the person typed badly is sent as text: the API's 422 names the row rather than us guessing.
  if (v.match === 'number') return { ...base, equals: v.value.trim() !== '' && Number.isFinite(Number(v.value)) ? Number(v.value) : v.value };
  if (v.match === 'boolean') return { ...base, equals: v.value === 'true' };
  if (v.match === 'text') return { ...base, equals: v.value };
  return base;
}

export interface FormValues {
  name: string;
  provider: Provider;
  provider_assistant_id: string;
  voice_connection_id: string | null;
  first_message: string;
  system_prompt: string;
  voice: string;
  language: string;
  model: string;
  voicemail_action: Assistant['voicemail_action'];
  voicemail_message: string;
  max_duration_seconds: number | string;
  transfer_number: string;
  rules: RuleValues[];
}

export function toValues(a: Assistant | null): FormValues {
  return {
    name: a?.name ?? '',
    provider: a?.provider ?? 'sim',
    provider_assistant_id: a?.provider_assistant_id ?? '',
    voice_connection_id: a?.voice_connection_id != null ? String(a.voice_connection_id) : null,
    first_message: a?.first_message ?? '',
    system_prompt: a?.system_prompt ?? '',
    voice: a?.voice ?? '',
    language: a?.language ?? '',
    model: a?.model ?? '',
    voicemail_action: a?.voicemail_action ?? 'hang_up',
    voicemail_message: a?.voicemail_message ?? '',
    max_duration_seconds: a?.max_duration_seconds ?? '',
    transfer_number: a?.transfer_number ?? '',
    rules: (a?.action_status_rules ?? []).map(ruleToValues),
  };
}

const orNull = (s: string) => (s.trim() === '' ? null : s);

/** The whole assistant as a body: empty inputs are null (cleared), so create and change send the same shape. */
export function toBody(v: FormValues): AssistantInput {
  return {
    name: v.name,
    provider: v.provider,
    provider_assistant_id: orNull(v.provider_assistant_id),
    voice_connection_id: v.provider === 'sim' || !v.voice_connection_id ? null : Number(v.voice_connection_id),
    first_message: orNull(v.first_message),
    system_prompt: orNull(v.system_prompt),
    voice: orNull(v.voice),
    language: orNull(v.language),
    model: orNull(v.model),
    voicemail_action: v.voicemail_action,
    // hang_up never speaks a message: none is kept, so a later switch to leave_message asks for one afresh.
    voicemail_message: v.voicemail_action === 'leave_message' ? orNull(v.voicemail_message) : null,
    max_duration_seconds: v.max_duration_seconds === '' ? null : Number(v.max_duration_seconds),
    transfer_number: orNull(v.transfer_number),
    action_status_rules: v.rules.map(valuesToRule),
  };
}

/** Body fields the form shows an input for; a 422 on another location is shown above the submit button. */
export const FIELDS = [
  'name', 'provider', 'provider_assistant_id', 'voice_connection_id', 'first_message', 'system_prompt', 'voice', 'language', 'model',
  'voicemail_action', 'voicemail_message', 'max_duration_seconds', 'transfer_number', 'action_status_rules',
];
