import { Type } from 'typebox';
import { DateTime, Detail, ErrorResponses, IdParams, Nullable } from '../../http/schemas.ts';
import { MAX_API_KEYS_PER_ACCOUNT } from './api-keys.service.ts';

/** The OpenAPI description of each api-keys operation; api-keys.routes.ts registers them. */

const tags = ['api-keys'];

const ApiKey = Type.Object({
  id: Type.Integer(),
  name: Nullable(Type.String()),
  masked_key: Type.String({ description: 'the first characters of the key followed by ****' }),
  created_at: DateTime,
  last_used_at: Nullable(DateTime),
});
const ApiKeyCreated = Type.Object({ ...ApiKey.properties, key: Type.String({ description: 'shown once; only its hash is stored' }) });

export const ListApiKeys = {
  operationId: 'list_api_keys',
  tags,
  summary: 'List API keys (masked)',
  response: { 200: Type.Array(ApiKey), 401: Detail, 403: Detail },
} as const;

export const GenerateApiKey = {
  operationId: 'generate_api_key',
  tags,
  summary: 'Generate an API key',
  description: `The key is in the answer once; only a SHA-256 digest is stored. Send it as the X-API-Key header. An account holds at most ${MAX_API_KEYS_PER_ACCOUNT} keys: 409 beyond.`,
  body: Type.Object({ name: Type.Optional(Nullable(Type.String({ maxLength: 100 }))) }, { description: 'optional; may be left out' }),
  response: { 200: ApiKeyCreated, ...ErrorResponses },
} as const;

export const DeleteApiKey = {
  operationId: 'delete_api_key',
  tags,
  summary: 'Delete an API key (it stops working at once)',
  params: IdParams,
  response: { 200: Type.Object({ message: Type.String() }), ...ErrorResponses },
} as const;
