import { ErrorResponses, IdParams } from '../../http/schemas.ts';
import { HEALTH_RULE_DOC, NumberHealth, NumberHealthList, NumberHealthListQuery, NumberHealthSettings, NumberHealthSettingsUpdate } from './number-health.schemas.ts';

/** The OpenAPI description of each number-health operation; phone-numbers.routes.ts registers them. */

const tags = ['phone-numbers'];

export const ListNumberHealth = {
  operationId: 'list_phone_number_health',
  tags,
  summary: 'Each caller-ID number\'s health',
  description:
    'Newest number first, with its figures of the last judgement beside the account\'s, and its rest if one holds. The owner sees every number of the account; ' +
    `a sub-user sees the numbers of the campaigns granted to it (and the account's figures). ${HEALTH_RULE_DOC}`,
  querystring: NumberHealthListQuery,
  response: { 200: NumberHealthList, ...ErrorResponses },
} as const;

export const ReadNumberHealthSettings = {
  operationId: 'read_phone_number_health_settings',
  tags,
  summary: 'Read the account\'s number-health rule',
  description: `An account that never saved any answers the defaults, with updated_at null. Owner and sub-users may read it. ${HEALTH_RULE_DOC}`,
  response: { 200: NumberHealthSettings, ...ErrorResponses },
} as const;

export const UpdateNumberHealthSettings = {
  operationId: 'update_phone_number_health_settings',
  tags,
  summary: 'Change the account\'s number-health rule',
  description:
    'Partial update: the fields present change, the others keep their value (the defaults before the first save); the answer is the whole rule. Owner only (a sub-user gets 403). ' +
    'Out-of-range values are 422 naming the field. Changes are audited (account.number_health_changed) and apply from the next judgement (within 5 minutes); ' +
    `a rest already made keeps its end, except that switching the rule off ends every rest at once. ${HEALTH_RULE_DOC}`,
  body: NumberHealthSettingsUpdate,
  response: { 200: NumberHealthSettings, ...ErrorResponses },
} as const;

export const RestNumber = {
  operationId: 'rest_phone_number',
  tags,
  summary: 'Rest a number by hand',
  description:
    'The dialer passes the number over for rest_hours (the account\'s rule) from now, as for an automatic rest (rest_code manual); resting a rested number sets a new end. ' +
    'Owner only (a sub-user gets 403; another account\'s number is 403, an unknown id 404). Audited (phone_number.rested).',
  params: IdParams,
  response: { 200: NumberHealth, ...ErrorResponses },
} as const;

export const UnrestNumber = {
  operationId: 'unrest_phone_number',
  tags,
  summary: 'End a number\'s rest',
  description:
    'The number is back in rotation at once; it is judged afresh on its calls from now (the calls that rested it are not counted again). A number not rested is left as it is. ' +
    'Owner only, as rest_phone_number. Audited (phone_number.unrested) when a rest ended.',
  params: IdParams,
  response: { 200: NumberHealth, ...ErrorResponses },
} as const;
