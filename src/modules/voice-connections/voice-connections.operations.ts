import { Type } from 'typebox';
import { Detail, ErrorResponses, IdParams, Limit, Skip } from '../../http/schemas.ts';
import { VoiceConnection, VoiceConnectionCreate, VoiceConnectionList, VoiceConnectionUpdate } from './voice-connections.schemas.ts';

/** The OpenAPI description of each voice-connections operation; voice-connections.routes.ts registers them. */

const tags = ['voice-connections'];
const RULES =
  'An account\'s own Vapi or Retell credentials, used instead of the service\'s (VAPI_*/RETELL_* settings) by the assistants that name the connection. ' +
  'Account owner only: a sub-user gets 403 on every operation. Another account\'s connection is 403, an unknown id 404. ' +
  'api_key and webhook_secret are write-only: stored sealed (AES-256-GCM under SECRET_KEY) and answered masked. ' +
  'Set the vendor\'s server URL (Vapi) or webhook URL (Retell) to the connection\'s events_url.';

export const ListVoiceConnections = {
  operationId: 'list_voice_connections',
  tags,
  summary: 'List voice connections',
  description: `Newest first; secrets masked. ${RULES}`,
  querystring: Type.Object({ skip: Skip, limit: Limit(100) }),
  response: { 200: VoiceConnectionList, ...ErrorResponses },
} as const;

export const CreateVoiceConnection = {
  operationId: 'create_voice_connection',
  tags,
  summary: 'Store vendor credentials (a voice connection)',
  description:
    `${RULES} vapi needs webhook_secret and takes phone_number_id; retell takes agent_id and from_number (E.164); ` +
    'a setting of the other vendor is a 422 naming it.',
  body: VoiceConnectionCreate,
  response: { 200: VoiceConnection, ...ErrorResponses },
} as const;

export const ReadVoiceConnection = {
  operationId: 'read_voice_connection',
  tags,
  summary: 'Read a voice connection',
  description: RULES,
  params: IdParams,
  response: { 200: VoiceConnection, ...ErrorResponses },
} as const;

export const ChangeVoiceConnection = {
  operationId: 'change_voice_connection',
  tags,
  summary: 'Change a voice connection',
  description: `Only the fields in the body change; a secret left out keeps its value. The provider is fixed. ${RULES}`,
  params: IdParams,
  body: VoiceConnectionUpdate,
  response: { 200: VoiceConnection, ...ErrorResponses },
} as const;

export const DeleteVoiceConnection = {
  operationId: 'delete_voice_connection',
  tags,
  summary: 'Delete a voice connection',
  description: `409 while an assistant names it (change or delete those assistants first). ${RULES}`,
  params: IdParams,
  response: { 200: Type.Object({ message: Type.String() }), ...ErrorResponses, 409: Detail },
} as const;
