import { Type } from 'typebox';
import { Detail, ErrorResponses, IdParams, Limit, Skip } from '../../http/schemas.ts';
import { CampaignSipTrunk, SipTrunk, SipTrunkCreate, SipTrunkList, SipTrunkUpdate } from './sip-trunks.schemas.ts';

/** The OpenAPI description of each SIP-trunk operation; sip-trunks.routes.ts registers them. */

const tags = ['sip-trunks'];
export const SIP_TRUNK_RULES =
  'A SIP trunk is a voice connection of kind SIP trunk: the credentials a voice vendor authenticates with when it sends a campaign\'s calls through the customer\'s own carrier or PBX. ' +
  'The trunk\'s address is the campaign\'s campaign_sip; a campaign names its trunk with PUT /api/v1/campaigns/{id}/sip-trunk. ' +
  'Account owner only: a sub-user gets 403 on every operation. Another account\'s trunk is 403, an unknown id 404. ' +
  'The password is write-only: stored sealed (AES-256-GCM under SECRET_KEY), answered masked, never logged or sent anywhere but to the vendor placing the call. ' +
  'Every change is audited (sip_trunk.changed, the names of the changed fields, never the password).';

export const ListSipTrunks = {
  operationId: 'list_sip_trunks', tags, summary: 'List SIP trunks',
  description: `Newest first; passwords masked. ${SIP_TRUNK_RULES}`,
  querystring: Type.Object({ skip: Skip, limit: Limit(100) }),
  response: { 200: SipTrunkList, ...ErrorResponses },
} as const;

export const CreateSipTrunk = {
  operationId: 'create_sip_trunk', tags, summary: 'Store a SIP trunk\'s credentials',
  description: `${SIP_TRUNK_RULES} username and password go together (a trunk that authenticates by IP has neither); gateways are public hosts; caller_ids are normalised to E.164.`,
  body: SipTrunkCreate,
  response: { 200: SipTrunk, ...ErrorResponses },
} as const;

export const ReadSipTrunk = {
  operationId: 'read_sip_trunk', tags, summary: 'Read a SIP trunk', description: SIP_TRUNK_RULES,
  params: IdParams, response: { 200: SipTrunk, ...ErrorResponses },
} as const;

export const ChangeSipTrunk = {
  operationId: 'change_sip_trunk', tags, summary: 'Change a SIP trunk',
  description: `Only the fields in the body change; the password left out keeps its value. ${SIP_TRUNK_RULES}`,
  params: IdParams, body: SipTrunkUpdate, response: { 200: SipTrunk, ...ErrorResponses },
} as const;

export const DeleteSipTrunk = {
  operationId: 'delete_sip_trunk', tags, summary: 'Delete a SIP trunk',
  description: `409 while a campaign names it (set those campaigns' SIP trunk to null first). ${SIP_TRUNK_RULES}`,
  params: IdParams, response: { 200: Type.Object({ message: Type.String() }), ...ErrorResponses, 409: Detail },
} as const;

const CampaignSipTrunkAnswer = Type.Object({ campaign_id: Type.Integer(), ...CampaignSipTrunk.properties });
const CAMPAIGN_ACCESS = 'The campaign must be visible: the owner\'s, or granted to the sub-user (another account\'s is 403, an unknown id 404).';

export const ReadCampaignSipTrunk = {
  operationId: 'read_campaign_sip_trunk', tags: ['campaigns'], summary: 'Read the SIP trunk a campaign\'s calls use',
  description: `The trunk whose credentials the campaign's calls through its campaign_sip use; null = none (the trunk authenticates by IP, or the campaign has no campaign_sip). ${CAMPAIGN_ACCESS}`,
  params: IdParams, response: { 200: CampaignSipTrunkAnswer, ...ErrorResponses },
} as const;

export const UpdateCampaignSipTrunk = {
  operationId: 'update_campaign_sip_trunk', tags: ['campaigns'], summary: 'Choose the SIP trunk a campaign\'s calls use (owner only, audited)',
  description: `Only the account owner changes it (a sub-user: 403); a trunk of another account or none is a 422 naming sip_trunk_id. Audited (sip_trunk.changed, subject the campaign, details from and to). ${CAMPAIGN_ACCESS}`,
  params: IdParams, body: CampaignSipTrunk, response: { 200: CampaignSipTrunkAnswer, ...ErrorResponses },
} as const;
