import { Type } from 'typebox';
import { Detail, ErrorResponses, IdParams, Limit, Skip } from '../../http/schemas.ts';
import { Assistant, AssistantCreate, AssistantList, AssistantUpdate } from './assistants.schemas.ts';

/** The OpenAPI description of each assistants operation; assistants.routes.ts registers them. */

const tags = ['assistants'];
const ACCESS =
  'The account owner lists, reads, creates, changes and deletes assistants; a sub-user lists and reads only the assistants of campaigns granted to it ' +
  '(another is 403) and may not create, change or delete them (403). Another account\'s assistant is 403, an unknown id 404.';
const CHECKS =
  '422 naming the field: a malformed {{...}} placeholder in first_message, system_prompt or voicemail_message; leave_message without voicemail_message; ' +
  'a voice_connection_id that is not a connection of this account with the same provider; vapi or retell without a connection while the service lacks that vendor\'s settings ' +
  '(the message names them); retell without an agent (provider_assistant_id, the connection\'s agent_id or RETELL_AGENT_ID).';

export const ListAssistants = {
  operationId: 'list_assistants',
  tags,
  summary: 'List assistants',
  description: `Newest first; count is the total. ${ACCESS}`,
  querystring: Type.Object({ skip: Skip, limit: Limit(100) }),
  response: { 200: AssistantList, ...ErrorResponses },
} as const;

export const CreateAssistant = {
  operationId: 'create_assistant',
  tags,
  summary: 'Create an assistant',
  description: `Who talks on a campaign's calls (a campaign names it by assistant_id). ${CHECKS} ${ACCESS}`,
  body: AssistantCreate,
  response: { 200: Assistant, ...ErrorResponses },
} as const;

export const ReadAssistant = {
  operationId: 'read_assistant',
  tags,
  summary: 'Read an assistant',
  description: ACCESS,
  params: IdParams,
  response: { 200: Assistant, ...ErrorResponses },
} as const;

export const ChangeAssistant = {
  operationId: 'change_assistant',
  tags,
  summary: 'Change an assistant',
  description: `Only the fields in the body change; the result is checked as a whole. ${CHECKS} Owner only.`,
  params: IdParams,
  body: AssistantUpdate,
  response: { 200: Assistant, ...ErrorResponses },
} as const;

export const DeleteAssistant = {
  operationId: 'delete_assistant',
  tags,
  summary: 'Delete an assistant',
  description: 'Owner only. 409 while a campaign uses it; the message names those campaigns (give them another assistant or none first).',
  params: IdParams,
  response: { 200: Type.Object({ message: Type.String() }), ...ErrorResponses, 409: Detail },
} as const;
