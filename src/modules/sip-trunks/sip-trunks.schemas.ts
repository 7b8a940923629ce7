import { Type, type Static } from 'typebox';
import { DateTime, Nullable } from '../../http/schemas.ts';

const Gateway = Type.String({
  minLength: 1,
  maxLength: 260,
  description: 'host[:port] of a trunk gateway: a public IPv4 address (vendors accept inbound calls only from addresses) or a name (outbound only)',
});
const CallerId = Type.String({ minLength: 1, maxLength: 40, description: 'a number the trunk owns, normalised to E.164' });

const settings = {
  name: Type.String({ minLength: 1, maxLength: 200 }),
  username: Nullable(Type.String({ minLength: 1, maxLength: 200, description: 'the username the trunk authenticates calls with (digest auth); null when it authenticates by IP' })),
  password: Nullable(Type.String({ minLength: 1, maxLength: 4096, description: 'Write-only: stored sealed (AES-256-GCM under SECRET_KEY), answered masked. Required with a username.' })),
  gateways: Type.Array(Gateway, { maxItems: 20, uniqueItems: true, description: 'the trunk\'s gateways, for vendors that register them (Vapi); empty = the campaign_sip host only' }),
  caller_ids: Type.Array(CallerId, { maxItems: 100, uniqueItems: true, description: 'the numbers the trunk owns: the caller IDs calls through it may show (Vapi and Retell place calls from such a number)' }),
};

export const SipTrunkCreate = Type.Object({
  name: settings.name,
  username: Type.Optional(settings.username),
  password: Type.Optional(settings.password),
  gateways: Type.Optional(settings.gateways),
  caller_ids: Type.Optional(settings.caller_ids),
});
export type SipTrunkCreate = Static<typeof SipTrunkCreate>;

export const SipTrunkUpdate = Type.Object(
  {
    name: Type.Optional(settings.name),
    username: Type.Optional(settings.username),
    password: Type.Optional(settings.password),
    gateways: Type.Optional(settings.gateways),
    caller_ids: Type.Optional(settings.caller_ids),
  },
  { description: 'Every field optional; omitted = unchanged (the password left out keeps its stored value), null clears.' },
);
export type SipTrunkUpdate = Static<typeof SipTrunkUpdate>;

export const SipTrunk = Type.Object({
  id: Type.Integer(),
  owner_id: Type.Integer(),
  name: Type.String(),
  username: Nullable(Type.String()),
  password: Nullable(Type.String({ description: 'masked: **** (with the last 4 characters of a password of 16 or more); null when not set' })),
  gateways: Type.Array(Type.String()),
  caller_ids: Type.Array(Type.String()),
  campaign_ids: Type.Array(Type.Integer(), { description: 'the campaigns that send their calls through this trunk (PUT /api/v1/campaigns/{id}/sip-trunk)' }),
  created_at: DateTime,
  updated_at: DateTime,
});
export type SipTrunk = Static<typeof SipTrunk>;

export const SipTrunkList = Type.Object({ data: Type.Array(SipTrunk), count: Type.Integer({ description: 'total number of the account\'s SIP trunks' }) });

export const CampaignSipTrunk = Type.Object({
  sip_trunk_id: Nullable(Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: 'a SIP trunk of this account (/api/v1/sip-trunks); null = none' })),
});
export type CampaignSipTrunk = Static<typeof CampaignSipTrunk>;
