import { CONTACT_DATA_LIMIT_NOTE } from '../../shared/contact-data-limit.ts';
import { Type } from 'typebox';
import { Detail, ErrorResponses, Id, IdParams, ValidationDetail } from '../../http/schemas.ts';
import { Contact } from '../contacts/contacts.schemas.ts';
import { Integration, IntegrationCreate, IntegrationUpdate, IntegrationWithToken } from './contact-integrations.schemas.ts';
import { MAX_ARRAY_ITEMS } from './create-contact.service.ts';

/**
 * The OpenAPI description of each contact-creation-integration operation: managing the
 * integrations (contact-integrations.routes.ts) and creating contacts with an integration
 * token (create-contact.routes.ts).
 */

const TAGS = ['contact-creation-integration'];
const OWNER_ONLY = 'Only the account holder manages integrations (a sub-user gets 403). Each campaign must be the account\'s (unknown: 404, another account\'s: 403).';

export const ListIntegrations = {
  operationId: 'list_integrations',
  tags: TAGS,
  summary: 'List contact-creation integrations',
  description: `Tokens are masked. ${OWNER_ONLY}`,
  response: { 200: Type.Array(Integration), 401: Detail, 403: Detail },
} as const;

export const CreateIntegration = {
  operationId: 'create_integration',
  tags: TAGS,
  summary: 'Create a contact-creation integration',
  description: `Answers the integration with its token, shown this once (stored as a SHA-256 digest). Use it on
/api/v1/contact-creation-integration/create-contact as Authorization: Bearer <token>. ${OWNER_ONLY}`,
  body: IntegrationCreate,
  response: { 200: IntegrationWithToken, ...ErrorResponses },
} as const;

export const ReadIntegration = {
  operationId: 'read_integration',
  tags: TAGS,
  summary: 'Read a contact-creation integration',
  params: IdParams,
  response: { 200: Integration, ...ErrorResponses },
} as const;

export const UpdateIntegration = {
  operationId: 'update_integration',
  tags: TAGS,
  summary: 'Update a contact-creation integration',
  description: `Every field optional; campaign_ids replaces the list (the first is the default). The token is unchanged. ${OWNER_ONLY}`,
  params: IdParams,
  body: IntegrationUpdate,
  response: { 200: Integration, ...ErrorResponses },
} as const;

export const RegenerateToken = {
  operationId: 'regenerate_token',
  tags: TAGS,
  summary: 'Replace the integration\'s token',
  description: 'Answers the new token, shown this once; the old token stops working at once.',
  params: IdParams,
  response: { 200: IntegrationWithToken, ...ErrorResponses },
} as const;

export const DeleteIntegration = {
  operationId: 'delete_integration',
  tags: TAGS,
  summary: 'Delete a contact-creation integration (revokes its token)',
  params: IdParams,
  response: { 200: Type.Object({ message: Type.String() }), ...ErrorResponses },
} as const;

// The create-contact endpoint, authenticated by the integration token.

const params = {
  campaign_id: Type.Optional(Type.Unsafe<number>({ ...Id, description: 'one of the integration\'s campaigns (else 403); default: its first campaign' })),
  name: Type.Optional(Type.String({ description: 'stored as contact_data.name; when omitted, contact_data\'s name, fio, FIO or famili is used' })),
  phone: Type.Optional(Type.String({ description: 'the contact\'s phone (or msisdn); one of the two is required (422); stored as E.164' })),
  msisdn: Type.Optional(Type.String({ description: 'another name for phone' })),
  timezone: Type.Optional(Type.String({ description: 'IANA zone name stored in the contact\'s timezone (422 when unknown)' })),
  determine_timezone: Type.Optional(Type.Boolean({ description: 'overrides the integration setting: derive the zone from the phone number; null when the number maps to several zones' })),
};
const Query = Type.Object({
  token: Type.Optional(Type.String({ description: 'LEGACY, for simple forms: the integration token; prefer the Authorization header' })),
  ...params,
  contact_data: Type.Optional(Type.String({ description: `JSON text of an object; ${CONTACT_DATA_LIMIT_NOTE}` })),
});
const BodyItem = Type.Object({
  token: Type.Optional(Type.String({ description: 'the integration token, used when there is no Authorization header' })),
  ...params,
  contact_data: Type.Optional(Type.Object({}, { additionalProperties: true, description: CONTACT_DATA_LIMIT_NOTE })),
  start_call: Type.Optional(Type.Boolean({ description: 'queue a call for a new contact; honoured only here (JSON body of POST), never from the query; default: the integration\'s auto_start_calls (or the campaign\'s auto_calls)' })),
});
const Result = Type.Object({ ...Contact.properties, call_enqueued: Type.Boolean({ description: 'true when a call was queued by this request' }) });
const ItemError = Type.Object({ error: Type.Object({ status: Type.Integer(), detail: Type.Union([Type.String(), ValidationDetail.properties.detail]) }) });
const responses = { 401: Detail, 403: Detail, 413: Detail, 422: ValidationDetail, 429: Detail };

const DESCRIPTION = `Creates a contact, or updates the contact its campaign already has for this phone (contact_data merged,
timezone set when given; no call is queued again). contact_data, merged or not, is at most 64 KiB as JSON text: a request that would pass
it is a 422 naming contact_data and changes nothing. The answer is the contact plus call_enqueued.
Token: the first present of the Authorization: Bearer header, the body's token (in array mode: the first item carrying one),
the query's token (legacy). Missing or unknown token: 401. POST accepts a JSON object, a JSON array (at most ${MAX_ARRAY_ITEMS} items,
else 413) or a form; for a POST object, a parameter missing from the body is taken from the query. Array mode answers an array
with, per item, the contact or {error: {status, detail}}; one bad item does not fail the others. Body at most 256 KiB (413).
Rate limit per integration (its rate_limit_per_minute, default 600 contacts per minute, each array item counts): 429 with Retry-After.`;

export const CreateContactFromQuery = {
  operationId: 'create_contact_from_query',
  tags: ['contact-creation-integration'],
  summary: 'Create or update a contact with an integration token (query parameters)',
  description: `${DESCRIPTION}\nGET reads the query only; start_call is never read from the query.`,
  querystring: Query,
  response: { 200: Result, ...responses },
} as const;

export const CreateContactsFromBody = {
  operationId: 'create_contacts_from_body',
  tags: ['contact-creation-integration'],
  summary: 'Create or update one or several contacts with an integration token',
  description: DESCRIPTION,
  querystring: Query,
  // Web forms post urlencoded; CRMs post JSON.
  consumes: ['application/json', 'application/x-www-form-urlencoded'],
  body: Type.Union([BodyItem, Type.Array(BodyItem, { maxItems: MAX_ARRAY_ITEMS })]),
  response: { 200: Type.Union([Result, Type.Array(Type.Union([Result, ItemError]))]), ...responses },
} as const;
