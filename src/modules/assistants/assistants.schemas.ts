import { Type, type Static } from 'typebox';
import { DateTime, Id, Nullable, StringEnum } from '../../http/schemas.ts';
import { VOICE_PROVIDER_NAMES, type VoiceProviderName } from '../../voice/vendors.ts';
import { ACTION_STATUSES } from './action-status-rules.ts';

/** The simulator and every vendor (voice/vendors.ts). */
export const ASSISTANT_PROVIDERS = VOICE_PROVIDER_NAMES;
export type AssistantProvider = VoiceProviderName;

const PLACEHOLDERS = 'May use {{contact.<field>}} and {{campaign.<field>}} placeholders, filled per call (unknown ones stay empty); a malformed template is a 422.';

const ActionStatusRule = Type.Object(
  {
    action_status: StringEnum(ACTION_STATUSES),
    path: Type.String({
      minLength: 1,
      maxLength: 200,
      pattern: '^[A-Za-z0-9_-]+(\\.[A-Za-z0-9_-]+)*$',
      description: 'dotted path into the vendor\'s post-call analysis, e.g. structuredData.interested (Vapi) or custom_analysis_data.appointment (Retell)',
    }),
    equals: Type.Optional(
      Type.Union([Type.String({ maxLength: 500 }), Type.Number(), Type.Boolean()], {
        description: 'the value the path must hold (same type, strictly equal); left out: any truthy value matches (text "no", "false", "0" and "" count as false)',
      }),
    ),
  },
  { additionalProperties: false },
);

const fields = {
  name: Type.String({ minLength: 1, maxLength: 200 }),
  provider: StringEnum(ASSISTANT_PROVIDERS, {
    description:
      'sim (simulated calls), vapi or retell. vapi and retell need a voice_connection_id or the service\'s settings for that vendor (VAPI_API_KEY and VAPI_WEBHOOK_SECRET; RETELL_API_KEY): 422 naming what is missing. ' +
      'retell also needs an agent: provider_assistant_id, the connection\'s agent_id or RETELL_AGENT_ID.',
  }),
  provider_assistant_id: Nullable(Type.String({ minLength: 1, maxLength: 200, description: 'the vendor\'s own assistant (Vapi) or agent (Retell) id; null = an inline assistant built from the fields below (Vapi)' })),
  voice_connection_id: Nullable({ ...Id, description: 'an account\'s voice connection of the same provider (422 otherwise, another account\'s included); null = the service\'s credentials' }),
  first_message: Nullable(Type.String({ maxLength: 2000, description: `what the assistant says first. ${PLACEHOLDERS}` })),
  system_prompt: Nullable(Type.String({ maxLength: 20000, description: `the assistant's instructions. ${PLACEHOLDERS}` })),
  voice: Nullable(Type.String({ maxLength: 200, description: 'the vendor\'s voice id' })),
  language: Nullable(Type.String({ maxLength: 35, pattern: '^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$', description: 'BCP 47 tag, e.g. en-US' })),
  model: Nullable(Type.String({ maxLength: 200, description: 'the language model, e.g. gpt-4o' })),
  voicemail_action: StringEnum(['hang_up', 'leave_message'] as const, { description: 'on reaching voicemail: hang_up (default) or leave_message (voicemail_message is then required)' }),
  voicemail_message: Nullable(Type.String({ minLength: 1, maxLength: 2000, description: `left on voicemail when voicemail_action is leave_message. ${PLACEHOLDERS}` })),
  max_duration_seconds: Nullable(Type.Integer({ minimum: 10, maximum: 7200, description: 'the call ends after this many seconds; null = the vendor\'s default' })),
  transfer_number: Nullable(Type.String({ minLength: 1, maxLength: 40, description: 'where the assistant may transfer the call; normalised to E.164' })),
  action_status_rules: Type.Array(ActionStatusRule, {
    maxItems: 20,
    description:
      'How the call\'s outcome becomes its action_status: after the call, the rules are tried in order against the vendor\'s post-call analysis; ' +
      'the first that matches sets action_status (interested, scheduled or transferred), none leaves it null. Default [].',
  }),
};

const opt = Type.Optional;

export const AssistantCreate = Type.Object({
  name: fields.name,
  provider: fields.provider,
  provider_assistant_id: opt(fields.provider_assistant_id),
  voice_connection_id: opt(fields.voice_connection_id),
  first_message: opt(fields.first_message),
  system_prompt: opt(fields.system_prompt),
  voice: opt(fields.voice),
  language: opt(fields.language),
  model: opt(fields.model),
  voicemail_action: opt(fields.voicemail_action),
  voicemail_message: opt(fields.voicemail_message),
  max_duration_seconds: opt(fields.max_duration_seconds),
  transfer_number: opt(fields.transfer_number),
  action_status_rules: opt(fields.action_status_rules),
});
export type AssistantCreate = Static<typeof AssistantCreate>;

export const AssistantUpdate = Type.Object(
  { ...AssistantCreate.properties, name: opt(fields.name), provider: opt(fields.provider) },
  { description: 'Every field optional; omitted = unchanged, null clears. The result is validated as a whole again.' },
);
export type AssistantUpdate = Static<typeof AssistantUpdate>;

export const Assistant = Type.Object({
  id: Type.Integer(),
  owner_id: Type.Integer(),
  name: Type.String(),
  provider: fields.provider,
  provider_assistant_id: Nullable(Type.String()),
  voice_connection_id: Nullable(Type.Integer()),
  first_message: Nullable(Type.String()),
  system_prompt: Nullable(Type.String()),
  voice: Nullable(Type.String()),
  language: Nullable(Type.String()),
  model: Nullable(Type.String()),
  voicemail_action: fields.voicemail_action,
  voicemail_message: Nullable(Type.String()),
  max_duration_seconds: Nullable(Type.Integer()),
  transfer_number: Nullable(Type.String()),
  action_status_rules: fields.action_status_rules,
  created_at: DateTime,
  updated_at: DateTime,
});
export type Assistant = Static<typeof Assistant>;

export const AssistantList = Type.Object({ data: Type.Array(Assistant), count: Type.Integer({ description: 'total number of matches, not the page size' }) });
