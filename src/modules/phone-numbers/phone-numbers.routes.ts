import { Type } from 'typebox';
import type { App } from '../../app.ts';
import { Detail, ErrorResponses, IdParams } from '../../shared/schemas.ts';
import { PhoneNumber, PhoneNumberCreate, PhoneNumberList, PhoneNumberListQuery, PhoneNumberUpdate } from './phone-numbers.schemas.ts';
import { createPhoneNumber, deletePhoneNumber, getPhoneNumber, listPhoneNumbers, updatePhoneNumber } from './phone-numbers.service.ts';

const tags = ['phone-numbers'];
const WRITE_RULES =
  'Only the account owner may create, change or delete numbers (a sub-user gets 403). A number is unique within an account (409). ' +
  'campaign_id must be a campaign of the account (unknown: 404; another account\'s: 403).';

export async function phoneNumbersRoutes(app: App) {
  const { db, config } = app.deps;
  const defaultCountry = config.DEFAULT_COUNTRY;

  app.get(
    '/',
    {
      schema: {
        tags,
        summary: 'List phone numbers',
        description: 'Newest first. The owner sees every number of the account; a sub-user sees the numbers assigned to campaigns granted to it. count is the total number of matches.',
        querystring: PhoneNumberListQuery,
        response: { 200: PhoneNumberList, ...ErrorResponses },
      },
    },
    async (request) => listPhoneNumbers({ db, principal: request.principal, query: request.query }),
  );

  app.post(
    '/',
    { schema: { tags, summary: 'Add a phone number', description: WRITE_RULES, body: PhoneNumberCreate, response: { 200: PhoneNumber, ...ErrorResponses, 409: Detail } } },
    async (request) => createPhoneNumber({ db, principal: request.principal, input: request.body, defaultCountry }),
  );

  app.get(
    '/:id',
    { schema: { tags, summary: 'Read a phone number', params: IdParams, response: { 200: PhoneNumber, ...ErrorResponses } } },
    async (request) => getPhoneNumber({ db, principal: request.principal, id: request.params.id }),
  );

  app.put(
    '/:id',
    { schema: { tags, summary: 'Update a phone number', description: WRITE_RULES, params: IdParams, body: PhoneNumberUpdate, response: { 200: PhoneNumber, ...ErrorResponses, 409: Detail } } },
    async (request) => updatePhoneNumber({ db, principal: request.principal, id: request.params.id, input: request.body, defaultCountry }),
  );

  app.delete(
    '/:id',
    {
      schema: {
        tags,
        summary: 'Delete a phone number',
        description: 'Owner only. Campaigns that used it simply lose it from phone_numbers.',
        params: IdParams,
        response: { 200: Type.Object({ message: Type.String() }), ...ErrorResponses },
      },
    },
    async (request) => deletePhoneNumber({ db, principal: request.principal, id: request.params.id }),
  );
}
