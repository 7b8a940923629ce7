import { Type } from 'typebox';
import { Detail, ErrorResponses } from '../../http/schemas.ts';
import { DisplayPreferences } from './display-preferences.schemas.ts';
import { Me, PasswordChange, User, UserCreate } from './users.schemas.ts';

/** The OpenAPI description of each users operation; users.routes.ts registers them. */

const tags = ['users'];

export const ReadCaller = {
  operationId: 'read_caller',
  tags,
  summary: 'The calling account or sub-user',
  response: { 200: Me, 401: Detail },
} as const;

export const CreateAccount = {
  operationId: 'create_account',
  tags,
  summary: 'Create an account (superuser only)',
  body: UserCreate,
  response: { 200: User, ...ErrorResponses, 409: Detail },
} as const;

const PREFERENCES_NOTE =
  'How the dashboard shows the account\'s times and money, for everyone who works in it (its sub-users read the owner\'s). ' +
  'A display setting only: the API keeps answering date-times in UTC and costs as stored.';

export const ReadDisplayPreferences = {
  operationId: 'read_display_preferences',
  tags,
  summary: 'Read the account\'s display time zone and currency',
  description: PREFERENCES_NOTE,
  response: { 200: DisplayPreferences, 401: Detail, 404: Detail },
} as const;

export const UpdateDisplayPreferences = {
  operationId: 'update_display_preferences',
  tags,
  summary: 'Change the account\'s display time zone and currency (owner only)',
  description: `${PREFERENCES_NOTE} Both fields are written: display_timezone null means each viewer's own zone; an unknown zone or currency is 422; a sub-user is 403.`,
  body: DisplayPreferences,
  response: { 200: DisplayPreferences, ...ErrorResponses },
} as const;

export const ChangePassword = {
  operationId: 'change_password',
  tags,
  summary: 'Change the caller\'s own password',
  description:
    'For the account or sub-user the credential names. `current_password` must be the password it has now, else 422 at ' +
    '`["body", "current_password"]` and nothing changes (a wrong one counts as a failed login: the login\'s throttle and 429 apply). ' +
    '`new_password`: 8 to 128 characters, as everywhere. Every dashboard session and bearer token of that login ends (see Sub-users: the ' +
    'credential version); a request made with the dashboard session cookie gets a fresh session in its place (a new `vc_session` cookie), so ' +
    'that browser stays signed in. API keys belong to the account and stay valid. 204.',
  body: PasswordChange,
  response: { 204: Type.Null({ description: 'Changed' }), ...ErrorResponses, 429: Detail },
} as const;
