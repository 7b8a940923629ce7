import { Type, type Static } from 'typebox';
import { DateTime, Nullable, StringEnum } from '../../http/schemas.ts';
import { VENDOR_NAMES, type VendorName } from '../../voice/vendors.ts';

/** The vendors an account may bring its own credentials for: every vendor (voice/vendors.ts). */
export type VoiceVendor = VendorName;
export const VoiceVendor = StringEnum(VENDOR_NAMES, { description: 'vapi, retell or twilio; fixed once created' });

const Secret = (description: string) => Type.String({ minLength: 8, maxLength: 4096, description });
const VendorId = (description: string) => Type.String({ minLength: 1, maxLength: 200, description });

const settings = {
  name: Type.String({ minLength: 1, maxLength: 200 }),
  api_key: Secret('The vendor\'s private API key (Bearer; Twilio: the auth token). Write-only: stored sealed (AES-256-GCM under SECRET_KEY), answered masked.'),
  account_sid: Nullable(Type.String({ pattern: '^AC[0-9a-fA-F]{32}$', description: 'Twilio only, required there: the account SID (AC…)' })),
  webhook_secret: Nullable(Secret('Vapi only, required there: the server secret Vapi sends in X-Vapi-Secret (or signs x-signature with). Write-only, sealed, masked. Retell signs with the API key: must be null.')),
  phone_number_id: Nullable(VendorId('Vapi only: the phoneNumberId calls go out from when the campaign\'s number has no provider_number_id')),
  agent_id: Nullable(VendorId('Retell only: the agent of calls whose assistant names none')),
  from_number: Nullable(Type.String({ minLength: 1, maxLength: 40, description: 'Retell and Twilio: the number calls go out from when the campaign has none; normalised to E.164' })),
  max_concurrent_calls: Nullable(Type.Integer({ minimum: 0, maximum: 100000, description: 'calls in progress at once on these credentials; 0 = no cap; null = the vendor\'s default (Vapi 10, Retell 20)' })),
  calls_per_second: Nullable(Type.Number({ exclusiveMinimum: 0, maximum: 1000, description: 'calls started per second on these credentials; null = the vendor\'s default (Vapi and Retell 5, Twilio 1)' })),
};

export const VoiceConnectionCreate = Type.Object({
  name: settings.name,
  provider: VoiceVendor,
  api_key: settings.api_key,
  account_sid: Type.Optional(settings.account_sid),
  webhook_secret: Type.Optional(settings.webhook_secret),
  phone_number_id: Type.Optional(settings.phone_number_id),
  agent_id: Type.Optional(settings.agent_id),
  from_number: Type.Optional(settings.from_number),
  max_concurrent_calls: Type.Optional(settings.max_concurrent_calls),
  calls_per_second: Type.Optional(settings.calls_per_second),
});
export type VoiceConnectionCreate = Static<typeof VoiceConnectionCreate>;

export const VoiceConnectionUpdate = Type.Object(
  {
    name: Type.Optional(settings.name),
    api_key: Type.Optional(settings.api_key),
    account_sid: Type.Optional(settings.account_sid),
    webhook_secret: Type.Optional(settings.webhook_secret),
    phone_number_id: Type.Optional(settings.phone_number_id),
    agent_id: Type.Optional(settings.agent_id),
    from_number: Type.Optional(settings.from_number),
    max_concurrent_calls: Type.Optional(settings.max_concurrent_calls),
    calls_per_second: Type.Optional(settings.calls_per_second),
  },
  { description: 'Every field optional; omitted = unchanged (a secret left out keeps its stored value), null clears. The provider is fixed.' },
);
export type VoiceConnectionUpdate = Static<typeof VoiceConnectionUpdate>;

export const VoiceConnection = Type.Object({
  id: Type.Integer(),
  owner_id: Type.Integer(),
  name: Type.String(),
  provider: VoiceVendor,
  api_key: Type.String({ description: 'masked: **** (with the last 4 characters of a key of 16 or more)' }),
  account_sid: Nullable(Type.String()),
  webhook_secret: Nullable(Type.String({ description: 'masked like api_key; null when not set' })),
  phone_number_id: Nullable(Type.String()),
  agent_id: Nullable(Type.String()),
  from_number: Nullable(Type.String()),
  max_concurrent_calls: Nullable(Type.Integer()),
  calls_per_second: Nullable(Type.Number()),
  events_url: Nullable(
    Type.String({
      description:
        'Read-only: set the vendor\'s server URL (Vapi) or webhook URL (Retell) to this, so the vendor posts this connection\'s call events here; ' +
        'Twilio: the Voice URL (POST) of the account\'s numbers, for inbound calls (outbound calls carry their own URLs). ' +
        'Null while the service\'s PUBLIC_BASE_URL is unset.',
    }),
  ),
  created_at: DateTime,
  updated_at: DateTime,
});
export type VoiceConnection = Static<typeof VoiceConnection>;

export const VoiceConnectionList = Type.Object({ data: Type.Array(VoiceConnection), count: Type.Integer({ description: 'total number of the account\'s connections' }) });
