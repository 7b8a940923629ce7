import { LIST_BUDGET_NOTE } from '../../shared/list-budget.ts';
import { CampaignIdParams, Detail, ErrorResponses, IdParams, Message } from '../../http/schemas.ts';
import {
  CampaignContactsQuery,
  Contact,
  ContactCreate,
  ContactsList,
  ContactsQuery,
  ContactUpdate,
} from './contacts.schemas.ts';

/** The OpenAPI description of each contacts operation; contacts.routes.ts registers them. */

const tags = ['contacts'];

const ACCESS =
  'Contacts follow their campaign: an account sees the contacts of its campaigns, a sub-user those of the campaigns granted to it. ' +
  'Another account\'s contact is 403, an unknown id 404.';
const PHONE =
  'phone_number is stored in E.164; a number written without + is read in the service\'s DEFAULT_COUNTRY; text that is not a phone number is a 422.';
const LIST =
  'Newest first (id descending). count is the total number of matches, not the page size: exact when the list is filtered by campaign ' +
  '(campaign_id, or the campaign list) while at most 100000 contacts match, otherwise while at most 1000 match; past that the database\'s estimate, ' +
  'and count_exact says which. Ranges (*_from, *_to) include both bounds. ' +
  'phone_number is an exact match on the normalised number (text that does not parse as a number is matched as written). ' +
  'A list whose queries take longer than the service\'s statement timeout (API_STATEMENT_TIMEOUT_MS, default 3 s) is stopped and answered 503 naming its filters. ' +
  `Arrays: repeated keys or a comma list. limit is at most 1000. ${LIST_BUDGET_NOTE}`;

export const ListContacts = {
  operationId: 'list_contacts',
  tags,
  summary: 'List contacts',
  description: `${LIST} ${ACCESS} A campaign_id the caller cannot see matches nothing.`,
  querystring: ContactsQuery,
  response: { 200: ContactsList, ...ErrorResponses, 503: Detail },
} as const;

export const CreateContact = {
  operationId: 'create_contact',
  tags,
  summary: 'Create a contact',
  description:
    `${PHONE} One contact per (campaign, phone number): a second one is 409. creation_method defaults to external_api. ` +
    'timezone must be an IANA zone name (422 otherwise); when omitted or null it is set from the number when its prefix maps to exactly one zone, else null. ' +
    'created_at and updated_at default to now. When the campaign has auto_calls, the contact is queued for calling at once (status added_to_queue). ' +
    'The campaign must be the caller\'s: another account\'s campaign is 403, an unknown one 404.',
  body: ContactCreate,
  response: { 200: Contact, ...ErrorResponses, 409: Detail },
} as const;

export const ListCampaignContacts = {
  operationId: 'list_campaign_contacts',
  tags,
  summary: 'List the contacts of one campaign',
  description: `${LIST} The campaign must be visible to the caller: 404 when unknown, 403 when another account's (or not granted to a sub-user).`,
  params: CampaignIdParams,
  querystring: CampaignContactsQuery,
  response: { 200: ContactsList, ...ErrorResponses, 503: Detail },
} as const;

export const ReadContact = {
  operationId: 'read_contact',
  tags,
  summary: 'Read a contact',
  description: ACCESS,
  params: IdParams,
  response: { 200: Contact, ...ErrorResponses },
} as const;

export const UpdateContact = {
  operationId: 'update_contact',
  tags,
  summary: 'Update a contact',
  description:
    `Partial update: only the fields present change (null clears a nullable field). ${PHONE} ` +
    'A new phone number that another contact of the same campaign has is 409. timezone must be an IANA zone name. ' +
    `The campaign cannot be changed. ${ACCESS}`,
  params: IdParams,
  body: ContactUpdate,
  response: { 200: Contact, ...ErrorResponses, 409: Detail },
} as const;

export const DeleteContact = {
  operationId: 'delete_contact',
  tags,
  summary: 'Delete a contact',
  description:
    'Deletes the contact and its calls. Answers the Message object: message "Contact deleted", user_id the account owner\'s id ' +
    '(also when a sub-user deletes), campaign_id and contact_id of the deleted contact, call_id null, role_id "user" or "sub_user" ' +
    `(who deleted it), source "api", id null, create_datetime the time of deletion, message_data null. ${ACCESS}`,
  params: IdParams,
  response: { 200: Message, ...ErrorResponses },
} as const;
