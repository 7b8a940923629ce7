import { Type } from 'typebox';
import { Detail, ErrorResponses, IdParams } from '../../http/schemas.ts';
import { PhoneNumber, PhoneNumberCreate, PhoneNumberList, PhoneNumberListQuery, PhoneNumberUpdate } from './phone-numbers.schemas.ts';

/** The OpenAPI description of each phone-numbers operation; phone-numbers.routes.ts registers them. */

const tags = ['phone-numbers'];
const WRITE_RULES =
  'Only the account owner may create, change or delete numbers (a sub-user gets 403). A number is unique within an account (409). ' +
  'campaign_id must be a campaign of the account (unknown: 404; another account\'s: 403).';

export const ListPhoneNumbers = {
  operationId: 'list_phone_numbers',
  tags,
  summary: 'List phone numbers',
  description: 'Newest first. The owner sees every number of the account; a sub-user sees the numbers assigned to campaigns granted to it. count is the total number of matches.',
  querystring: PhoneNumberListQuery,
  response: { 200: PhoneNumberList, ...ErrorResponses },
} as const;

export const AddPhoneNumber = {
  operationId: 'add_phone_number',
  tags,
  summary: 'Add a phone number',
  description: WRITE_RULES,
  body: PhoneNumberCreate,
  response: { 200: PhoneNumber, ...ErrorResponses, 409: Detail },
} as const;

export const ReadPhoneNumber = {
  operationId: 'read_phone_number',
  tags,
  summary: 'Read a phone number',
  params: IdParams,
  response: { 200: PhoneNumber, ...ErrorResponses },
} as const;

export const UpdatePhoneNumber = {
  operationId: 'update_phone_number',
  tags,
  summary: 'Update a phone number',
  description: WRITE_RULES,
  params: IdParams,
  body: PhoneNumberUpdate,
  response: { 200: PhoneNumber, ...ErrorResponses, 409: Detail },
} as const;

export const DeletePhoneNumber = {
  operationId: 'delete_phone_number',
  tags,
  summary: 'Delete a phone number',
  description: 'Owner only. Campaigns that used it simply lose it from phone_numbers.',
  params: IdParams,
  response: { 200: Type.Object({ message: Type.String() }), ...ErrorResponses },
} as const;
